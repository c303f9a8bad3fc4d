import { Observable, type Subscriber, type Subscription, type TeardownLogic, type Unsubscribable } from 'rxjs';
import { McpCancelledError, McpTimeoutError } from '../errors/call-errors.js';
import type { Deadline, Deadlines } from './deadlines.js';

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
 * A call bounded by its budget and signal: `start` begins the call for the
 * subscriber when it subscribes (returning what ends it), and the call is
 * ended (abandoned) when a bound runs out first. Budgets share the client's
 * one timer (`Deadlines`).
 */
export function guarded<T>(
  method: string,
  bounds: CallBounds,
  deadlines: Deadlines,
  start: (subscriber: Subscriber<T>) => TeardownLogic,
): Observable<T> {
  return new Observable<T>((subscriber) => new Guard(method, bounds, deadlines, subscriber as Subscriber<unknown>).run(start as Start));
}

type Start = (subscriber: Subscriber<unknown>) => TeardownLogic;

/**
 * One subscription's bounds. It is its own deadline, abort listener and
 * teardown, so that bounding a call (every call is) costs one object rather
 * than a closure per bound: in a burst of calls each one counts.
 */
class Guard implements Deadline, Unsubscribable {
  at = 0;
  private call: TeardownLogic = undefined;
  private cap: Deadline | undefined;
  private activity: Subscription | undefined;

  constructor(
    private readonly method: string,
    private readonly bounds: CallBounds,
    private readonly deadlines: Deadlines,
    private readonly subscriber: Subscriber<unknown>,
  ) {}

  run(start: Start): Unsubscribable | undefined {
    const { timeoutMs, signal, activity$, maxTotalTimeoutMs } = this.bounds;
    if (signal?.aborted) {
      this.handleEvent();
      return undefined;
    }
    if (timeoutMs > 0) {
      this.deadlines.track(this, timeoutMs);
      // Activity (progress for this call) starts the budget again.
      if (activity$) this.activity = activity$.subscribe(() => this.deadlines.track(this, timeoutMs));
    }
    if (maxTotalTimeoutMs) {
      this.cap = { at: 0, expire: () => this.subscriber.error(new McpTimeoutError(this.method, maxTotalTimeoutMs)) };
      this.deadlines.track(this.cap, maxTotalTimeoutMs);
    }
    signal?.addEventListener('abort', this, { once: true });
    try {
      this.call = start(this.subscriber);
    } catch (error) {
      // Nothing is left to bound: drop the bounds now, not when they run out.
      this.unsubscribe();
      throw error;
    }
    return this;
  }

  /** The budget ran out. */
  expire(): void {
    this.subscriber.error(new McpTimeoutError(this.method, this.bounds.timeoutMs));
  }

  /** The caller's signal fired (an `EventListener` object). */
  handleEvent(): void {
    this.subscriber.error(new McpCancelledError(this.method, { cause: this.bounds.signal?.reason }));
  }

  unsubscribe(): void {
    this.deadlines.untrack(this);
    if (this.cap) this.deadlines.untrack(this.cap);
    this.activity?.unsubscribe();
    this.bounds.signal?.removeEventListener('abort', this);
    const { call } = this;
    if (typeof call === 'function') call();
    else call?.unsubscribe();
  }
}
