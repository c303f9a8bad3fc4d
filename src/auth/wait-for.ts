import { type Observable, take } from 'rxjs';

/**
 * The first value of an Observable, given up (and unsubscribed from) when
 * the signal aborts; `empty` is the error when it completes without one.
 */
export function waitFor<T>(source: Observable<T>, signal: AbortSignal, empty: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      subscription.unsubscribe();
      reject(signal.reason);
    };
    const subscription = source.pipe(take(1)).subscribe({
      next: (value) => resolve(value),
      error: (error: unknown) => reject(error),
      complete: () => reject(empty()),
    });
    signal.addEventListener('abort', onAbort, { once: true });
    subscription.add(() => signal.removeEventListener('abort', onAbort));
  });
}
