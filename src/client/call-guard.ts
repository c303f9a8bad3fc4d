import { Observable, type Subscriber } from 'rxjs';
import { McpCancelledError, McpTimeoutError } from '../errors/call-errors.js';
import type { Deadlines } from './deadlines.js';

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
 * Bounds a call by its budget and its caller's `AbortSignal`, erroring
 * `subscriber` when either runs out, and returns the teardown. The caller
 * then unsubscribes from the call, which is what abandons the request on
 * the wire. Budgets share the client's one timer (`Deadlines`).
 */
function guardCall(method: string, bounds: CallBounds, deadlines: Deadlines, subscriber: Subscriber<unknown>): (() => void) | undefined {
  const { timeoutMs, signal, activity$, maxTotalTimeoutMs } = bounds;
  const expire = (ms: number) => () => subscriber.error(new McpTimeoutError(method, ms));
  const abort = (): void => subscriber.error(new McpCancelledError(method, { cause: signal?.reason }));
  if (signal?.aborted) {
    abort();
    return undefined;
  }
  let cancelBudget = timeoutMs > 0 ? deadlines.add(timeoutMs, expire(timeoutMs)) : undefined;
  const cancelCap = maxTotalTimeoutMs ? deadlines.add(maxTotalTimeoutMs, expire(maxTotalTimeoutMs)) : undefined;
  const activity =
    activity$ && timeoutMs > 0
      ? activity$.subscribe(() => {
          cancelBudget?.();
          cancelBudget = deadlines.add(timeoutMs, expire(timeoutMs));
        })
      : undefined;
  signal?.addEventListener('abort', abort, { once: true });
  return () => {
    cancelBudget?.();
    cancelCap?.();
    activity?.unsubscribe();
    signal?.removeEventListener('abort', abort);
  };
}

/**
 * A call bounded by its budget and signal: `start` builds the call when it
 * is subscribed, and the call is unsubscribed (abandoned) when a bound runs
 * out first.
 */
export function guarded<T>(method: string, bounds: CallBounds, deadlines: Deadlines, start: () => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const unguard = guardCall(method, bounds, deadlines, subscriber);
    if (subscriber.closed) return;
    const call = start().subscribe(subscriber);
    return () => {
      unguard?.();
      call.unsubscribe();
    };
  });
}
