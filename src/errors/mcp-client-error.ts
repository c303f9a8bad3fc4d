const brand = Symbol.for('rxmcp.McpClientError');

/**
 * The base of every error rxmcp raises on its own behalf.
 *
 * One `catch` that checks `instanceof McpClientError` separates "the MCP
 * conversation went wrong" from "the code around it went wrong". A tool result
 * with `isError: true` is not an error: it is returned as a value.
 *
 * `instanceof` also works across realms and duplicated installs of rxmcp,
 * through a `Symbol.for` brand.
 *
 * @example
 * ```ts
 * try {
 *   await firstValueFrom(mcp.callTool('deploy', { env: 'prod' }));
 * } catch (error) {
 *   if (error instanceof McpClientError) console.error('MCP failed:', error.message);
 * }
 * ```
 */
export class McpClientError extends Error {
  override name: string = 'McpClientError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== McpClientError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

Object.defineProperty(McpClientError.prototype, brand, { value: true });
