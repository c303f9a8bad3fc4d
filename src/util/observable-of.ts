import { from, isObservable, type Observable, of } from 'rxjs';
import { isThenable } from './values.js';

/**
 * What a user's hook answered, as an Observable: an Observable as it is, a
 * Promise (or any thenable) as its value, anything else as one value.
 */
export function observableOf<T>(answer: T | PromiseLike<T> | Observable<T>): Observable<T> {
  return isObservable(answer) ? answer : isThenable(answer) ? from(answer as PromiseLike<T>) : of(answer as T);
}
