import { McpClientError } from './mcp-client-error.js';

/**
 * A call the server never offered: its capabilities do not include the one
 * the call needs (`resources.subscribe` for `subscribeResource`,
 * `completions` for `complete`, …). Raised before anything is sent.
 */
export class McpCapabilityError extends McpClientError {
  override name = 'McpCapabilityError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_CAPABILITY';
  declare readonly code: typeof McpCapabilityError.code;

  constructor(
    /** The server capability the call needs, as a dotted path (`resources.subscribe`, `completions`, `logging`, …). */
    readonly capability: string,
    /** The method that was not sent. */
    readonly method: string,
    message?: string,
  ) {
    super(message ?? `${method}: the server did not declare the ${capability} capability`);
  }
}
