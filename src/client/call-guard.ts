import { mergeMap, type MonoTypeOperatorFunction, Observable, startWith, switchMap, throwError, timeout, timer } from 'rxjs';
import { McpCancelledError, McpTimeoutError } from '../errors/call-errors.js';

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
 * Bounds a call by its budget and its caller's `AbortSignal`. Either one
 * unsubscribes from the call, which is what abandons the request on the wire.
 */
export function guardCall<T>(method: string, bounds: CallBounds): MonoTypeOperatorFunction<T> {
  const { timeoutMs, signal, activity$, maxTotalTimeoutMs } = bounds;
  const expired = (ms: number) => () => throwError(() => new McpTimeoutError(method, ms));
  return (source) => {
    let guarded = source;
    if (timeoutMs > 0) {
      guarded = activity$ ? idleBound(guarded, activity$, timeoutMs, expired(timeoutMs)) : guarded.pipe(timeout({ first: timeoutMs, with: expired(timeoutMs) }));
    }
    if (maxTotalTimeoutMs) guarded = guarded.pipe(timeout({ first: maxTotalTimeoutMs, with: expired(maxTotalTimeoutMs) }));
    return signal ? abortable(guarded, method, signal) : guarded;
  };
}

// Errors once `ms` pass without an answer or a sign of activity.
function idleBound<T>(source: Observable<T>, activity$: Observable<unknown>, ms: number, expire: () => Observable<never>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const idle = activity$
      .pipe(
        startWith(undefined),
        switchMap(() => timer(ms)),
        mergeMap(expire),
      )
      .subscribe({ error: (error: unknown) => subscriber.error(error) });
    const inner = source.subscribe(subscriber);
    return () => {
      idle.unsubscribe();
      inner.unsubscribe();
    };
  });
}

function abortable<T>(source: Observable<T>, method: string, signal: AbortSignal): Observable<T> {
  return new Observable<T>((subscriber) => {
    const abort = (): void => subscriber.error(new McpCancelledError(method, { cause: signal.reason }));
    if (signal.aborted) {
      abort();
      return;
    }
    signal.addEventListener('abort', abort, { once: true });
    const inner = source.subscribe(subscriber);
    return () => {
      signal.removeEventListener('abort', abort);
      inner.unsubscribe();
    };
  });
}
