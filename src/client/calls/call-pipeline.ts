import { Observable, type Observer, type Subscriber, Subscription, type Unsubscribable } from 'rxjs';
import { McpTimeoutError } from '../../errors/call-errors.js';
import { McpProtocolError, McpUnsupportedVersionError, McpUrlElicitationRequiredError } from '../../errors/protocol-errors.js';
import { unsupportedVersionData } from '../../protocol/schemas.js';
import { ErrorCode } from '../../protocol/versions.js';
import type { JsonRpcRequest, RequestId } from '../../protocol/jsonrpc.js';
import type { PageShape } from '../../protocol/page-shapes.js';
import type { Shape } from '../../protocol/shapes.js';
import { buildRequest } from '../../protocol/request.js';
import { checkResult, checkToolResult, resultTypeOf, stripBookkeeping } from '../../protocol/shape.js';
import { isTaskHandle } from '../../protocol/tasks.js';
import { CACHEABLE_METHODS, ResultCache } from '../cache.js';
import type { CallInput } from './call-inputs.js';
import { type Correlator, PendingRequest } from '../correlator.js';
import type { Deadline, Deadlines } from '../../util/deadlines.js';
import { continueInputLoop, INPUT_METHODS } from '../questions/input-loop.js';
import { askingServerOf } from '../questions/asking-server.js';
import { followUrlElicitations, urlElicitationError } from '../questions/url-elicitation-flow.js';
import { elicitationCompleteOf } from '../streams.js';
import type { Settings } from '../settings.js';
import type { Session } from '../session.js';

/**
 * Runs calls from request to shaped result: served from the cache or shared
 * with an identical call in flight when the method is cacheable; sent through
 * the correlator, with the input loop for the methods that may ask; checked
 * once as it arrives and kept for its `ttlMs` when a modern server allows it
 * (never after a retried round, whose answer depends on inputs outside the
 * key); and handed over without protocol bookkeeping.
 */
export class CallPipeline {
  constructor(
    readonly correlator: Correlator,
    readonly cache: ResultCache,
    readonly settings: Settings,
  ) {}

  /**
   * One call; `refresh` bypasses (and drops) a cached copy. With
   * `acceptTask`, a `tools/call` answered with a task handle emits the handle
   * as the server sent it (never cached), for the caller to follow. With
   * `input`, the call's own hooks answer its questions, and its requests are
   * filed under it.
   */
  run<T>(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: Shape,
    refresh = false,
    acceptTask = false,
    input?: CallInput,
  ): Observable<T> {
    // A call with hooks of its own asks its own questions: it is neither shared nor kept.
    const key = CACHEABLE_METHODS.includes(method) && !input ? ResultCache.key(method, params) : undefined;
    const exchange = new Observable<Record<string, unknown>>((subscriber) =>
      new Exchange(this, session, method, params, meta, schema, key, acceptTask, input, subscriber).start(),
    );
    if (key === undefined) return exchange as Observable<T>;
    return settle(
      this.cache.fetch(key, () => exchange, refresh),
      (result) => stripBookkeeping(result) as T,
    );
  }

  /**
   * One page of a list, under its cache `key` (the caller has it already),
   * begun at once with its answer reported to `observer`: as `run`, but
   * handed on with its bookkeeping, since a list reads only its items and
   * cursor. `refresh` drops what the cache holds and goes to the wire with
   * no cache stage and no Observable in between (a forced list does this
   * on every call). Returns what abandons the page.
   */
  beginPage(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: PageShape,
    key: string,
    refresh: boolean,
    observer: Observer<Record<string, unknown>>,
  ): Unsubscribable {
    if (refresh) {
      this.cache.drop(key);
      return new Exchange(this, session, method, params, meta, schema, key, false, undefined, observer).start();
    }
    return this.cache
      .fetch(key, () => new Observable<Record<string, unknown>>((subscriber) => new Exchange(this, session, method, params, meta, schema, key, false, undefined, subscriber).start()))
      .subscribe(observer);
  }

  /**
   * A call of a method that is never cached, begun at once for `subscriber`
   * (which the caller's own Observable already holds): the same as
   * subscribing to `run`, one Observable fewer on the path every tool call
   * takes. Given `deadlines`, the call's one bound is its budget of
   * `timeoutMs` there (a plain tool call), and the exchange is its own
   * deadline: the call keeps one object while it waits, not an exchange and
   * a guard. Returns what ends it.
   */
  begin(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: Shape,
    subscriber: Subscriber<Record<string, unknown>>,
    input?: CallInput,
    deadlines?: Deadlines,
    timeoutMs = 0,
  ): Unsubscribable {
    if (deadlines) return new TimedExchange(this, session, method, params, meta, schema, subscriber, deadlines, timeoutMs).start();
    return new Exchange(this, session, method, params, meta, schema, undefined, false, input, subscriber).start();
  }
}

/**
 * One exchange with the server, the stage every call passes through: the
 * request, the input loop if the server asks for input, and the result
 * checked as it arrives (so that what the cache keeps is checked) and stored
 * when it may be. One object per subscription, which holds what it sends,
 * is the request's entry in the pending table and is the subscription's
 * teardown: a burst of calls allocates no closures, inner subscriptions or
 * second objects here.
 */
class Exchange extends PendingRequest implements Unsubscribable {
  private loop: Subscription | undefined = undefined;

  constructor(
    private readonly pipeline: CallPipeline,
    private readonly session: Session,
    method: string,
    private readonly params: Record<string, unknown> | undefined,
    private readonly meta: Record<string, unknown> | undefined,
    private readonly schema: Shape,
    // The cache key of a cacheable method's call: its result may be kept, and
    // is handed on with its bookkeeping (the cache's caller strips it).
    private readonly key: string | undefined,
    // A tools/call answered with a task handle hands the handle on as it came.
    private readonly acceptTask: boolean,
    // The call's own hooks, in place of the client's, and where its request ids are filed.
    private readonly input: CallInput | undefined,
    // A Subscriber, or a list's page answer (which takes the same three calls).
    private readonly subscriber: Observer<Record<string, unknown>>,
  ) {
    super(method);
  }

  start(): this {
    this.pipeline.correlator.open(this);
    return this;
  }

  /** The request, once the correlator gave it an id. */
  build(id: RequestId): JsonRpcRequest {
    const { method, params, session, meta, input } = this;
    // Filed before it is sent: a legacy server's question on its stream finds the call's hooks.
    input?.requests.add(id);
    return buildRequest(id, method, params, session.stamp, meta);
  }

  protected answer(result: Record<string, unknown>): void {
    const { method, pipeline } = this;
    if (resultTypeOf(result) !== 'input_required' || !INPUT_METHODS.includes(method)) {
      this.deliver(result, false);
      return;
    }
    const { maxInputRounds, warn } = pipeline.settings;
    const hooks = this.input?.hooks ?? pipeline.settings.hooks;
    const send = (extra: Record<string, unknown> | undefined): Observable<Record<string, unknown>> => this.resend(extra);
    const declared = pipeline.settings.declaredCapabilities;
    const server = () => askingServerOf(this.session.description.serverInfo, pipeline.settings.asker.prefix);
    const loop = continueInputLoop({ method, send, hooks, maxInputRounds, warn, declared, server }, result).subscribe({
      // A retried round's answer depends on inputs outside the cache key.
      next: (final) => this.deliver(final, true),
      error: (error: unknown) => this.fail(error),
    });
    // A hook may end the call while it is asked (by aborting the call's own
    // signal, say), before there is a loop to stop: stop it now.
    if (this.loop === ENDED) loop.unsubscribe();
    else this.loop = loop;
  }

  protected fail(error: unknown): void {
    // -32042 is a 2025-11-25 code; from a modern server it stays the plain error it is.
    const read = this.session.description.era === 'legacy' ? urlElicitationError(error) : error;
    if (read instanceof McpUrlElicitationRequiredError && this.followUrl(read)) return;
    this.subscriber.error(versionError(read));
  }

  // With onElicitUrl set, a -32042 to a call that may ask is followed: its
  // pages offered, their completion awaited, the call retried once (see
  // url-elicitation-flow.ts). It runs where the input loop would, and ends
  // with the exchange in the same way.
  private followUrl(error: McpUrlElicitationRequiredError): boolean {
    const { method, pipeline } = this;
    const hooks = this.input?.hooks ?? pipeline.settings.hooks;
    if (!hooks.onElicitUrl || !INPUT_METHODS.includes(method) || this.loop === ENDED) return false;
    const { warn } = pipeline.settings;
    const completes$ = elicitationCompleteOf(pipeline.correlator.notifications$);
    const flow = followUrlElicitations({ method, error, hooks, completes$, warn, retry: () => this.resend(undefined) }).subscribe({
      next: (final) => this.deliver(final, true),
      error: (failure: unknown) => this.subscriber.error(versionError(failure)),
    });
    if (this.loop === ENDED) flow.unsubscribe();
    else this.loop = flow;
    return true;
  }

  override unsubscribe(): void {
    super.unsubscribe();
    const { loop } = this;
    this.loop = ENDED;
    loop?.unsubscribe();
  }

  // A later round of the input loop: the same request with the round's answers.
  private resend(extra: Record<string, unknown> | undefined): Observable<Record<string, unknown>> {
    const { pipeline, method, params, session, meta } = this;
    const body = { ...params, ...extra };
    return pipeline.correlator.request(method, (id) => {
      // Filed as the first request was: a legacy server's question on this one's stream finds the call's hooks.
      this.input?.requests.add(id);
      return buildRequest(id, method, body, session.stamp, meta);
    });
  }

  private deliver(result: Record<string, unknown>, retried: boolean): void {
    const { method, schema, key, session, acceptTask, pipeline } = this;
    if (acceptTask && isTaskHandle(result)) {
      this.subscriber.next(result);
      this.subscriber.complete();
      return;
    }
    let shaped: Record<string, unknown>;
    try {
      const checked = check(method, schema, finalResult(method, result));
      if (key !== undefined && !retried && session.description.era === 'modern') pipeline.cache.store(key, checked);
      shaped = key !== undefined ? checked : stripBookkeeping(checked);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    this.subscriber.next(shaped);
    this.subscriber.complete();
  }
}

/**
 * An exchange that is also its call's deadline: it fails the call with
 * `McpTimeoutError` once `timeoutMs` (0 = none) runs out.
 *
 * One of two routes to a deadline. Only a plain tool call takes it (a budget
 * and nothing else, on a session already found: see `ToolCall`); every other
 * call is bounded by the guard in `call-guard.ts`. The second route is a
 * measure of performance: the agent loop's usual call then keeps one object
 * while it waits, not an exchange and a guard. Both enforce budgets worked
 * out in `call-budget.ts`.
 */
class TimedExchange extends Exchange implements Deadline {
  at = 0;
  newer: Deadline | undefined = undefined;
  older: Deadline | undefined = undefined;

  constructor(
    pipeline: CallPipeline,
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: Shape,
    subscriber: Subscriber<Record<string, unknown>>,
    private readonly deadlines: Deadlines,
    private readonly timeoutMs: number,
  ) {
    super(pipeline, session, method, params, meta, schema, undefined, false, undefined, subscriber);
  }

  override start(): this {
    if (this.timeoutMs > 0) this.deadlines.track(this, this.timeoutMs);
    try {
      return super.start();
    } catch (error) {
      // Nothing is left to bound: drop the deadline now, not when it runs out.
      this.deadlines.untrack(this);
      throw error;
    }
  }

  expire(): void {
    this.fail(new McpTimeoutError(this.method, this.timeoutMs));
  }

  override unsubscribe(): void {
    this.deadlines.untrack(this);
    super.unsubscribe();
  }
}

// Where an exchange's input loop stands once the exchange has ended: a
// subscription already closed.
const ENDED = Subscription.EMPTY;

/**
 * `map` written out: the few stages every call passes through are plain
 * Observables, not operators. Errors arrive already translated by `exchange`.
 */
function settle<T, R>(source: Observable<T>, project: (value: T) => R): Observable<R> {
  return new Observable<R>((subscriber) =>
    source.subscribe({
      next: (value) => {
        let projected: R;
        try {
          projected = project(value);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        subscriber.next(projected);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}

// A tool result is checked by hand: it is the one result on the hot path of
// an agent loop, and its shape is small. The rest go through their schemas.
function check(method: string, schema: Shape, result: Record<string, unknown>): Record<string, unknown> {
  return method === 'tools/call' ? checkToolResult(result) : checkResult<Record<string, unknown>>(method, schema, result);
}

// After the probe, "unsupported protocol version" means the server stopped
// speaking the version it agreed to: say so with the versions it names.
function versionError(error: unknown): unknown {
  if (!(error instanceof McpProtocolError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return error;
  const { supported, requested } = unsupportedVersionData(error.data);
  return new McpUnsupportedVersionError(supported, requested ? [requested] : [], error.message);
}

/** A result that is final, or an error saying why it is not. */
function finalResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const type = resultTypeOf(result);
  if (type === 'complete') return result;
  if (type === 'input_required') {
    throw new McpProtocolError(
      `${method} answered input_required, which only tools/call, resources/read and prompts/get may`,
      undefined,
      { resultType: type },
      method,
    );
  }
  throw new McpProtocolError(`${method} answered with unknown resultType ${JSON.stringify(type)}`, undefined, { resultType: type }, method);
}
