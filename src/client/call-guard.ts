import { type MonoTypeOperatorFunction, Observable, throwError, timeout } from 'rxjs';
import { McpCancelledError, McpTimeoutError } from '../errors/call-errors.js';

/**
 * Bounds a call by its budget and its caller's `AbortSignal`. Either one
 * unsubscribes from the call, which is what abandons the request on the wire.
 */
export function guardCall<T>(method: string, timeoutMs: number, signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  return (source) => {
    let guarded = source;
    if (timeoutMs > 0) {
      guarded = guarded.pipe(timeout({ first: timeoutMs, with: () => throwError(() => new McpTimeoutError(method, timeoutMs)) }));
    }
    return signal ? abortable(guarded, method, signal) : guarded;
  };
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
