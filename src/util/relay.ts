import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';

/**
 * A hot source for a transport's inbound messages: what an RxJS `Subject`
 * does for `next`, `error` and `complete` (late subscribers after the end
 * get the end at once), but with nothing allocated per value. RxJS's own
 * Subject wraps each `next` in a closure and walks its observers with an
 * iterator, a few hundred bytes per message; with a thousand answers in
 * flight that is garbage to collect. Here the list of subscribers is
 * replaced (never changed in place) when one comes or goes, so `next` walks
 * a stable array: a subscriber added or removed during a delivery takes
 * effect from the next value, as with a Subject.
 */
export class Relay<T> extends Observable<T> {
  private subscribers: readonly Subscriber<T>[] = [];
  private ended: { error: unknown } | 'complete' | undefined;

  /** Hands `value` to every current subscriber; nothing after the end. */
  next(value: T): void {
    if (this.ended !== undefined) return;
    const list = this.subscribers;
    for (let i = 0; i < list.length; i++) list[i]!.next(value);
  }

  /** Ends every subscriber, and every later one, with `error`. */
  error(error: unknown): void {
    this.end({ error });
  }

  /** Completes every subscriber, and every later one. */
  complete(): void {
    this.end('complete');
  }

  /** Only the Observable side, for a transport's `inbound`. */
  asObservable(): Observable<T> {
    return new Observable<T>((subscriber) => this.subscribe(subscriber));
  }

  // What RxJS runs for each subscription (as its own Subject does, by overriding the method).
  protected _subscribe(subscriber: Subscriber<T>): TeardownLogic {
    const { ended } = this;
    if (ended !== undefined) {
      if (ended === 'complete') subscriber.complete();
      else subscriber.error(ended.error);
      return undefined;
    }
    this.subscribers = [...this.subscribers, subscriber];
    return () => {
      this.subscribers = this.subscribers.filter((each) => each !== subscriber);
    };
  }

  private end(how: { error: unknown } | 'complete'): void {
    if (this.ended !== undefined) return;
    this.ended = how;
    const list = this.subscribers;
    this.subscribers = [];
    for (const subscriber of list) {
      if (how === 'complete') subscriber.complete();
      else subscriber.error(how.error);
    }
  }
}
