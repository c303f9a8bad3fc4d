import { McpClientError } from './mcp-client-error.js';

/**
 * A shared store behind a fleet layer (a lease table or a grant book kept
 * outside this process, such as `RedisLeaseTable` or `RedisGrants`) could not
 * be reached, did not answer within its budget, or answered with something
 * unusable. The layers fail closed on it: no lease is granted, no mutating
 * call runs unchecked, and a decision that needed the book is asked. The
 * store is tried again on the next call, so nothing needs restarting when it
 * comes back.
 *
 * @example
 * ```ts
 * try {
 *   await table.acquire('agent-1', ['/srv/work/a.txt']);
 * } catch (error) {
 *   if (error instanceof McpStoreError) console.error(`${error.store} is down: ${error.message}`);
 * }
 * ```
 */
export class McpStoreError extends McpClientError {
  override name = 'McpStoreError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_STORE';
  declare readonly code: typeof McpStoreError.code;

  constructor(
    /** Which store failed, as its class is called (such as `RedisLeaseTable`). */
    readonly store: string,
    /** Where it lives (a URL without credentials) and which namespace. */
    readonly location: string,
    /** The operation that failed (such as `acquire`). */
    readonly operation: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${store} at ${location}: ${operation} failed: ${reason}`, options);
  }
}
