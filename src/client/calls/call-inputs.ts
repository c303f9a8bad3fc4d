import type { RequestId } from '../../protocol/jsonrpc.js';
import type { InputHooks } from '../../protocol/input-request.js';

/** One tool call in flight that answers its own questions: its hooks, and the ids of the requests it sent. */
export interface CallInput {
  readonly hooks: InputHooks;
  readonly requests: Set<RequestId>;
}

/**
 * The tool calls in flight that were given hooks of their own (the `input`
 * of `callTool` or of a batch), in the order they started, and the rule by
 * which a 2025-11-25 server's request (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`) finds the hooks that answer it.
 * That era's requests name no call of the client's, so:
 *
 * - a request the wire ties to one of the client's requests (legacy
 *   Streamable HTTP sends a call's questions on that call's own response
 *   stream) goes to the call that sent it: its own hooks, or the client's
 *   when it has none;
 * - a request nothing ties (stdio, HTTP+SSE, the GET stream) goes to the
 *   hooks of the calls with hooks of their own that are running, when they
 *   all share one set (one batch's), and to the client's hooks otherwise:
 *   with two sets running, nothing says whose question it is, and guessing
 *   would show one caller's question to another and let that one answer it
 *   (a gateway's calls are different hosts').
 *
 * A 2026-07-28 server asks inside the call's own answers, so there the call's
 * hooks are used directly and this rule plays no part.
 */
export class CallInputs {
  private readonly live: CallInput[] = [];

  constructor(private readonly own: InputHooks) {}

  /** Files a call that starts with hooks of its own; `close` it when it ends. */
  open(hooks: InputHooks): CallInput {
    const entry: CallInput = { hooks, requests: new Set() };
    this.live.push(entry);
    return entry;
  }

  close(entry: CallInput): void {
    const index = this.live.indexOf(entry);
    if (index !== -1) this.live.splice(index, 1);
  }

  /** The hooks for a server request, given the id of the request whose stream carried it, if the wire says. */
  hooksFor(carrier: RequestId | undefined): InputHooks {
    if (carrier !== undefined) return this.live.find((entry) => entry.requests.has(carrier))?.hooks ?? this.own;
    const only = this.live[0]?.hooks;
    return only && this.live.every((entry) => entry.hooks === only) ? only : this.own;
  }
}
