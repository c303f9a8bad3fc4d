import { concatMap, type Subscriber, type TeardownLogic } from 'rxjs';
import { callToolResultSchema } from '../../protocol/schemas.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { CallInput } from './call-inputs.js';
import type { CallBounds } from './call-budget.js';
import { BoundedCall, type CallHost } from './call-guard.js';
import type { CallPipeline } from './call-pipeline.js';
import type { OutputSchemas } from './output-schemas.js';
import type { Session } from '../session.js';
import { capabilityRefusal } from '../capability-gate.js';

/** What a tool call needs of its client besides the bounds: the call pipeline and the output checks. */
export interface ToolCallHost extends CallHost {
  readonly calls: CallPipeline;
  readonly outputs: OutputSchemas;
}

/**
 * Sends one `tools/call` for `subscriber` and returns what ends it. Only a
 * tool whose listed outputSchema asks for it pays for the check; otherwise
 * the exchange feeds the subscriber directly.
 */
export function startToolCall(
  host: ToolCallHost,
  session: Session,
  params: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  subscriber: Subscriber<CallToolResult>,
  input: CallInput | undefined,
): TeardownLogic {
  const check = host.outputs.checkFor(session, params.name as string);
  if (check) {
    return host.calls.run<CallToolResult>(session, 'tools/call', params, meta, callToolResultSchema, false, false, input).pipe(concatMap(check)).subscribe(subscriber);
  }
  return host.calls.begin(session, 'tools/call', params, meta, callToolResultSchema, subscriber as Subscriber<Record<string, unknown>>, input);
}

/**
 * A tool call that needs nothing minted or filed per subscription (no
 * progress token of ours, no progress listener, no hooks of its own): the
 * common case, one object holding what the call sends and how it is
 * bounded, with no closure of its own.
 */
export class ToolCall extends BoundedCall<CallToolResult> {
  constructor(
    host: ToolCallHost,
    bounds: CallBounds,
    private readonly params: Record<string, unknown>,
    private readonly meta: Record<string, unknown> | undefined,
  ) {
    super(host, 'tools/call', bounds.timeoutMs, bounds.signal, bounds.activity$, bounds.maxTotalTimeoutMs);
  }

  begin(session: Session, subscriber: Subscriber<CallToolResult>): TeardownLogic {
    return startToolCall(this.host as ToolCallHost, session, this.params, this.meta, subscriber, undefined);
  }

  // Bounded by its budget alone, on a session already found, with no output
  // to check (the usual call): the exchange is its own deadline, and keeps
  // neither a guard nor this call alive while it waits. Anything else takes
  // the guard, as does a server without tools, for the guard's refusal.
  protected override _subscribe(subscriber: Subscriber<CallToolResult>): TeardownLogic {
    const host = this.host as ToolCallHost;
    const { session } = host;
    const { params } = this;
    if (session === undefined || host.closing || this.signal || this.activity$ || this.maxTotalTimeoutMs || host.outputs.checkFor(session, params.name as string) || capabilityRefusal(session, 'tools/call')) {
      return super._subscribe(subscriber);
    }
    return host.calls.begin(session, 'tools/call', params, this.meta, callToolResultSchema, subscriber as Subscriber<Record<string, unknown>>, undefined, host.deadlines, this.timeoutMs);
  }
}
