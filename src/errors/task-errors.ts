import { McpClientError } from './mcp-client-error.js';

/** Why a task ended without a result. */
export type TaskEndReason = 'failed' | 'cancelled' | 'expired';

/**
 * A task ended without a result: the server failed it (with the JSON-RPC
 * error of the work, when it gave one), cancelled it, or no longer knows it
 * (its `ttl` ran out). A tool that answered `isError: true` is not this: that
 * is a result, returned as a value.
 */
export class McpTaskError extends McpClientError {
  override name = 'McpTaskError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_TASK';

  constructor(
    /** The task's id. */
    readonly taskId: string,
    /** `failed`, `cancelled`, or `expired` when the server forgot the task before it was seen to finish. */
    readonly reason: TaskEndReason,
    /** What the server said about it (`statusMessage`, or the error's message). */
    readonly statusMessage: string | undefined,
    /**
     * The JSON-RPC error code of the work that failed, when the server gave
     * one: a number, as before the other errors gained their string codes
     * (the class's own is `McpTaskError.code`, `MCP_TASK`).
     */
    override readonly code: number | undefined = undefined,
    /** The error's `data`, when the server gave one. */
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(`task ${JSON.stringify(taskId)} ${reason}${statusMessage ? `: ${JSON.stringify(statusMessage)}` : ''}`, options);
  }
}
