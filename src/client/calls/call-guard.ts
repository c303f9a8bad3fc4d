import { config, mergeMap, Observable, type Observer, Subscriber, Subscription, take, type TeardownLogic, type Unsubscribable } from 'rxjs';
import { McpCancelledError, McpTimeoutError } from '../../errors/call-errors.js';
import { McpTransportClosedError } from '../../errors/transport-errors.js';
import type { CallBounds } from './call-budget.js';
import type { Deadline, Deadlines } from '../../util/deadlines.js';
import type { Session } from '../session.js';
import { capabilityRefusal } from '../capability-gate.js';
import { inCallerContext } from '../tracing/otel-api.js';

/** What a bounded call needs of its client, read when a subscription starts. */
export interface CallHost {
  /** True once the client is closing: a call then fails at once. */
  readonly closing: boolean;
  /** The session, once the era is known. */
  readonly session: Session | undefined;
  /** The shared probe that finds the session. */
  readonly probing$: Observable<Session>;
  /** The client's one timer for every budget. */
  readonly deadlines: Deadlines;
}

/**
 * A call bounded by its budget and signal, begun once the era is known
 * (`begin`, for each subscription), and ended (abandoned) when a bound runs
 * out first. What the call needs is held in fields rather than in nested
 * closures: a caller's `firstValueFrom` keeps the Observable alive until the
 * answer, and with a thousand calls in flight every closure scope kept (and
 * copied by each scavenge) counts.
 */
export abstract class BoundedCall<T> extends Observable<T> implements CallBounds {
  constructor(
    readonly host: CallHost,
    readonly method: string,
    readonly timeoutMs: number,
    readonly signal: AbortSignal | undefined,
    readonly activity$: Observable<unknown> | undefined,
    readonly maxTotalTimeoutMs: number | undefined,
  ) {
    super();
  }

  /** Begins the call for `subscriber` on `session`; returns what ends it. */
  abstract begin(session: Session, subscriber: Subscriber<T>): TeardownLogic;

  /**
   * What `Observable.subscribe` does when given a Subscriber (a caller's
   * `firstValueFrom`, an operator), without the closure RxJS makes for every
   * subscription in case the deprecated synchronous error handling is on.
   * With that setting on, or given anything else, RxJS's own.
   */
  override subscribe(
    observerOrNext?: Partial<Observer<T>> | ((value: T) => void) | null,
    error?: ((error: unknown) => void) | null,
    complete?: (() => void) | null,
  ): Subscription {
    if (!(observerOrNext instanceof Subscriber) || config.useDeprecatedSynchronousErrorHandling) {
      return Observable.prototype.subscribe.call(this, observerOrNext as (value: T) => void, error, complete) as Subscription;
    }
    const subscriber = observerOrNext as Subscriber<T>;
    let teardown: TeardownLogic = undefined;
    try {
      teardown = this._subscribe(subscriber);
    } catch (thrown) {
      subscriber.error(thrown);
    }
    keep(subscriber, teardown);
    return subscriber;
  }

  // What RxJS runs for each subscription (as its own Subject does, by overriding the method).
  protected _subscribe(subscriber: Subscriber<T>): TeardownLogic {
    return new Guard(this as BoundedCall<unknown>, subscriber as Subscriber<unknown>).run();
  }

  /** Begins the call, once its bounds are set: at once when the era is known, else after the probe. */
  start(subscriber: Subscriber<T>): TeardownLogic {
    const { host } = this;
    if (host.closing) {
      subscriber.error(new McpTransportClosedError(this.method));
      return undefined;
    }
    const { session } = host;
    if (session) return this.open(session, subscriber);
    // Sent from the probe's answer, in the caller's trace context (see tracing/).
    const open = inCallerContext((found: Session, inner: Subscriber<T>) => this.open(found, inner));
    return host.probing$
      .pipe(
        take(1),
        mergeMap((found) => new Observable<T>((inner) => open(found, inner))),
      )
      .subscribe(subscriber);
  }

  // Once the session says what the server offers: a call it did not offer
  // fails here, before anything is sent (2025-11-25 basic/lifecycle,
  // Capability Negotiation).
  private open(session: Session, subscriber: Subscriber<T>): TeardownLogic {
    const refused = capabilityRefusal(session, this.method);
    if (refused) {
      subscriber.error(refused);
      return undefined;
    }
    return this.begin(session, subscriber);
  }
}

// RxJS's teardown list, private to Subscription (rxjs 7).
type WithFinalizers = { _finalizers?: unknown[] | null };

/**
 * `subscriber.add(teardown)`. RxJS starts a subscriber's list of teardowns
 * as an empty array, which the first entry grows to room for seventeen; a
 * call has just the one, and with a thousand calls in flight those arrays
 * are a tenth of what each keeps. So an open subscriber's first teardown
 * (not a Subscription, which `add` also links back) gets a list of one;
 * anything else, or an RxJS without that list, goes through `add`.
 */
function keep(subscriber: Subscriber<unknown>, teardown: TeardownLogic): void {
  const held = subscriber as unknown as WithFinalizers;
  if (teardown && !subscriber.closed && held._finalizers === null && !(teardown instanceof Subscription)) held._finalizers = [teardown];
  else subscriber.add(teardown);
}

/** A bounded call whose beginning is a function (every call but a plain tool call). */
export class BodyCall<T> extends BoundedCall<T> {
  constructor(
    host: CallHost,
    method: string,
    bounds: CallBounds,
    private readonly body: (session: Session, subscriber: Subscriber<T>) => TeardownLogic,
  ) {
    super(host, method, bounds.timeoutMs, bounds.signal, bounds.activity$, bounds.maxTotalTimeoutMs);
  }

  begin(session: Session, subscriber: Subscriber<T>): TeardownLogic {
    return this.body(session, subscriber);
  }
}

/**
 * One subscription's bounds. It is its own deadline, abort listener and
 * teardown, so that bounding a call (every call is) costs one object rather
 * than a closure per bound: in a burst of calls each one counts.
 *
 * One of two routes to a deadline. Every call takes this one except a plain
 * tool call (a budget and nothing else: no signal, no progress restarting
 * it, no total cap, no output to check) on a session already found: there
 * the pipeline's `TimedExchange` is its own deadline (see `ToolCall`), so
 * that the agent loop's usual call keeps one object while it waits, not an
 * exchange and a guard. Both enforce budgets worked out in `call-budget.ts`.
 */
class Guard implements Deadline, Unsubscribable {
  at = 0;
  newer: Deadline | undefined = undefined;
  older: Deadline | undefined = undefined;
  private running: TeardownLogic = undefined;
  private cap: Deadline | undefined;
  private activity: Subscription | undefined;

  constructor(
    private readonly call: BoundedCall<unknown>,
    private readonly subscriber: Subscriber<unknown>,
  ) {}

  run(): Unsubscribable | undefined {
    const { timeoutMs, signal, activity$, maxTotalTimeoutMs, host } = this.call;
    if (signal?.aborted) {
      this.handleEvent();
      return undefined;
    }
    if (timeoutMs > 0) {
      host.deadlines.track(this, timeoutMs);
      // Activity (progress for this call) starts the budget again.
      if (activity$) this.activity = activity$.subscribe(() => host.deadlines.track(this, timeoutMs));
    }
    if (maxTotalTimeoutMs) {
      const cap: Deadline = { at: 0, expire: () => this.subscriber.error(new McpTimeoutError(this.call.method, maxTotalTimeoutMs)), newer: undefined, older: undefined };
      this.cap = cap;
      host.deadlines.track(cap, maxTotalTimeoutMs);
    }
    signal?.addEventListener('abort', this, { once: true });
    try {
      this.running = this.call.start(this.subscriber);
    } catch (error) {
      // Nothing is left to bound: drop the bounds now, not when they run out.
      this.unsubscribe();
      throw error;
    }
    return this;
  }

  /** The budget ran out. */
  expire(): void {
    this.subscriber.error(new McpTimeoutError(this.call.method, this.call.timeoutMs));
  }

  /** The caller's signal fired (an `EventListener` object). */
  handleEvent(): void {
    this.subscriber.error(new McpCancelledError(this.call.method, { cause: this.call.signal?.reason }));
  }

  unsubscribe(): void {
    const { deadlines } = this.call.host;
    deadlines.untrack(this);
    if (this.cap) deadlines.untrack(this.cap);
    this.activity?.unsubscribe();
    this.call.signal?.removeEventListener('abort', this);
    const { running } = this;
    if (typeof running === 'function') running();
    else running?.unsubscribe();
  }
}
