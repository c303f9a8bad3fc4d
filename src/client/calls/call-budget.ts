import { defer, filter, type Observable } from 'rxjs';
import type { ProgressEvent } from '../../protocol/types.js';
import { PROGRESS_CAP_BUDGETS } from '../../tools/call-timeouts.js';
import { checkDuration } from '../../util/checks.js';

/**
 * Where a call's time limits are decided: the client's default budget, a
 * call's own `timeoutMs` over it, and the cap on a budget that progress
 * restarts. Nothing else works a budget out. Two things enforce what is
 * decided here: the guard (`call-guard.ts`) for every call but one kind,
 * and the timed exchange (`call-pipeline.ts`) for a plain tool call on a
 * known session; each says at its top why there are two.
 */

/** The client's budget for a call when neither `requestTimeoutMs` nor the call's `timeoutMs` says otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60000;


/** How a call is bounded. */
export interface CallBounds {
  /** The budget in milliseconds; 0 = none. */
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
  /** Restarts the budget at each emission (progress reports for the call). */
  activity$?: Observable<unknown>;
  /** A hard cap on the whole call, whatever the activity; 0 or absent = none. */
  maxTotalTimeoutMs?: number;
}

/**
 * A call's bounds from its options: its `timeoutMs`, else the client's
 * `requestTimeoutMs`; and, when `activity$` restarts the budget, a cap of
 * `maxTotalTimeoutMs`, else ten budgets in all.
 *
 * @throws McpClientError for a `timeoutMs` that is not a number of milliseconds.
 */
export function callBounds(
  options: { timeoutMs?: number; signal?: AbortSignal },
  requestTimeoutMs: number,
  activity$: Observable<unknown> | undefined,
  maxTotalTimeoutMs: number | undefined,
): CallBounds {
  const timeoutMs = checkDuration('timeoutMs', options.timeoutMs, requestTimeoutMs);
  const cap = maxTotalTimeoutMs ?? (activity$ ? PROGRESS_CAP_BUDGETS * timeoutMs : undefined);
  return { timeoutMs, signal: options.signal, activity$, maxTotalTimeoutMs: cap };
}

/**
 * What restarts a call's budget under `resetTimeoutOnProgress`: the reports
 * for its token whose `progress` is higher than any before. MCP has progress
 * increase with each notification; a server that repeats or lowers it is
 * not getting on, and does not keep its call alive (its reports still reach
 * the listeners). Each subscription keeps its own high mark.
 */
export function risingProgress(progress$: Observable<ProgressEvent>, token: string | number | undefined): Observable<ProgressEvent> {
  return defer(() => {
    let highest = -Infinity;
    return progress$.pipe(
      filter((event) => {
        if (event.progressToken !== token || !(event.progress > highest)) return false;
        highest = event.progress;
        return true;
      }),
    );
  });
}
