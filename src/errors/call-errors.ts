import { McpClientError } from './mcp-client-error.js';

/**
 * A call got no answer within its budget. The connection survives: the request
 * is abandoned (on stdio the server is sent `notifications/cancelled`), a late
 * answer is dropped, and the next call goes out normally.
 */
export class McpTimeoutError extends McpClientError {
  override name = 'McpTimeoutError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_TIMEOUT';
  declare readonly code: typeof McpTimeoutError.code;

  constructor(
    /** The JSON-RPC method that timed out, such as `tools/call`. */
    readonly method: string,
    /** The budget that ran out, in milliseconds. */
    readonly timeoutMs: number,
  ) {
    super(`${method} got no answer within ${timeoutMs} ms`);
  }
}

/** The caller abandoned a call through its `signal`. */
export class McpCancelledError extends McpClientError {
  override name = 'McpCancelledError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_CANCELLED';
  declare readonly code: typeof McpCancelledError.code;

  constructor(
    /** The JSON-RPC method that was cancelled. */
    readonly method: string,
    options?: { cause?: unknown },
  ) {
    super(`${method} was cancelled by the caller`, options);
  }
}

/** A server kept answering `input_required` past the round budget (`maxInputRounds`). */
export class McpInputLoopExceededError extends McpClientError {
  override name = 'McpInputLoopExceededError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_INPUT_LOOP_EXCEEDED';
  declare readonly code: typeof McpInputLoopExceededError.code;

  constructor(
    /** The JSON-RPC method whose retries ran out. */
    readonly method: string,
    /** How many retries were made before giving up. */
    readonly rounds: number,
  ) {
    super(`${method} still asked for input after ${rounds} rounds`);
  }
}
