import { defer, Observable, Subject, type Subscriber, type Subscription, type Unsubscribable } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError, unreadableAnswer } from '../errors/protocol-errors.js';
import { McpTransportClosedError } from '../errors/transport-errors.js';
import {
  isErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  kindOf,
  type RequestId,
} from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';
import { messageOf } from '../util/values.js';

/** How one request is sent. */
export interface SendOptions {
  /** False for a request that must never be cancelled, such as `initialize`. */
  cancellable?: boolean;
}

/**
 * What a traced request is told of its outcome (see `tracing/request-span.ts`):
 * the first of the three ends its span.
 */
export interface RequestTrace {
  /** The request to send: the one built, with the trace context in its `_meta`. */
  readonly request: JsonRpcRequest;
  answered(response: JsonRpcResponse): void;
  failed(error: unknown): void;
  abandoned(): void;
}

/** Opens the trace of each request as it is sent (see `tracing/request-tracer.ts`). */
export interface RequestTracing {
  /** `undefined` when nothing traces (the OpenTelemetry API is not installed). */
  begin(request: JsonRpcRequest): RequestTrace | undefined;
}

/**
 * One request waiting for its answer, filed under its id: a caller of
 * `open` extends it with what the request is and where its answer goes
 * (`build`, `answer`, `fail`), so that a call's own state object is also its
 * entry in the table, and a burst of calls makes one object each and no
 * closures. Unsubscribing it abandons the request.
 */
export abstract class PendingRequest implements Unsubscribable {
  /** Its id, once `open` filed it. */
  id: RequestId = 0;
  /** The table it is filed in, while it waits: unset once settled or abandoned. */
  private filedIn: Correlator | undefined = undefined;
  /** Its span, while it waits, when the client traces. */
  private trace: RequestTrace | undefined = undefined;

  constructor(readonly method: string) {}

  /** False for a request that must never be cancelled, such as `initialize`. (A getter, so that a call does not carry it.) */
  get cancellable(): boolean {
    return true;
  }

  /** The request to send under `id`. */
  abstract build(id: RequestId): JsonRpcRequest;
  /** The result of a successful answer. */
  protected abstract answer(result: Record<string, unknown>): void;
  /** A JSON-RPC error answer (as `McpProtocolError`), or whatever ended the wire. */
  protected abstract fail(error: unknown): void;

  /** Abandons the request unless it is settled. */
  unsubscribe(): void {
    const correlator = this.filedIn;
    if (correlator === undefined) return;
    this.filedIn = undefined;
    PendingRequest.endTrace(this)?.abandoned();
    correlator.forget(this);
  }

  /** The correlator's side: filed under `id` in `correlator`. */
  static file(entry: PendingRequest, correlator: Correlator, id: RequestId): void {
    entry.id = id;
    entry.filedIn = correlator;
  }

  /** The correlator's side: settles with the server's answer (the entry has left the table). */
  static settle(entry: PendingRequest, response: JsonRpcResponse): void {
    entry.filedIn = undefined;
    PendingRequest.endTrace(entry)?.answered(response);
    if (isErrorResponse(response)) {
      const { code, message, data } = response.error;
      entry.fail(new McpProtocolError(`${entry.method} failed: ${message} (code ${code})`, code, data, entry.method));
    } else {
      entry.answer(response.result);
    }
  }

  /** The correlator's side: settles with a failure that is not the server's answer (or fails a request never filed). */
  static failWith(entry: PendingRequest, error: unknown): void {
    entry.filedIn = undefined;
    PendingRequest.endTrace(entry)?.failed(error);
    entry.fail(error);
  }

  /** The correlator's side: the request to send under `id`, with its trace begun when `tracing` traces. */
  static send(entry: PendingRequest, id: RequestId, tracing: RequestTracing | undefined): JsonRpcRequest {
    const request = entry.build(id);
    if (tracing === undefined) return request;
    const trace = tracing.begin(request);
    if (trace === undefined) return request;
    entry.trace = trace;
    return trace.request;
  }

  // The trace, taken once: whichever outcome comes first ends it.
  private static endTrace(entry: PendingRequest): RequestTrace | undefined {
    const { trace } = entry;
    entry.trace = undefined;
    return trace;
  }
}

// A request of `Correlator.request`: its builder a function, its answer fed to an Observable's subscriber.
class SubscriberRequest extends PendingRequest {
  constructor(
    method: string,
    private readonly mayCancel: boolean,
    private readonly builder: (id: RequestId) => JsonRpcRequest,
    private readonly subscriber: Subscriber<Record<string, unknown>>,
  ) {
    super(method);
  }

  override get cancellable(): boolean {
    return this.mayCancel;
  }

  build(id: RequestId): JsonRpcRequest {
    return this.builder(id);
  }

  protected answer(result: Record<string, unknown>): void {
    this.subscriber.next(result);
    this.subscriber.complete();
  }

  protected fail(error: unknown): void {
    this.subscriber.error(error);
  }
}

/**
 * The pending-request table of one connection. Every request is a cold
 * Observable that, on subscription, takes a fresh id, files itself in the
 * table under that id, and sends; the one subscription to the wire routes
 * each answer to its entry by id. (A filter per pending request over a shared
 * stream would cost every answer a pass over all of them: with 64 calls in
 * flight that showed up as the largest cost in the benchmark.)
 * Unsubscribing before the answer abandons the request through the
 * transport (stdio sends `notifications/cancelled`).
 *
 * Answers nobody is waiting for (late, abandoned or unknown ids) are dropped
 * and reported through `warn`, so they can never be mistaken for another
 * call's answer.
 */
export class Correlator {
  private readonly pending = new Map<RequestId, PendingRequest>();
  private readonly notificationSubject = new Subject<JsonRpcNotification>();
  private readonly requestSubject = new Subject<JsonRpcRequest>();
  private connection: Subscription | undefined;
  /** Why the wire ended, once it has: every later request fails with it. */
  private ended: unknown;
  private nextId = 1;
  private closed = false;

  /** Notifications from the server, hot. Complete (or error) when the wire ends. */
  readonly notifications$: Observable<JsonRpcNotification>;
  /** Requests from the server (legacy era), hot. */
  readonly serverRequests$: Observable<JsonRpcRequest>;
  /** The id of each request the caller gave up before its answer, hot. */
  readonly abandoned$: Observable<RequestId>;
  private readonly abandonedSubject = new Subject<RequestId>();

  constructor(
    private readonly transport: Transport,
    private readonly warn: (message: string) => void,
    private readonly maxPending = Infinity,
    private readonly tracing?: RequestTracing,
  ) {
    // Subscribing to the wire sends nothing, so a listener may connect early.
    this.notifications$ = defer(() => {
      this.connect();
      return this.notificationSubject;
    });
    this.serverRequests$ = defer(() => {
      this.connect();
      return this.requestSubject;
    });
    this.abandoned$ = this.abandonedSubject.asObservable();
  }

  /**
   * Sends one request and emits its result, or errors with `McpProtocolError`
   * for a JSON-RPC error answer, or with whatever ended the wire.
   */
  request(method: string, build: (id: RequestId) => JsonRpcRequest, options: SendOptions = {}): Observable<Record<string, unknown>> {
    return new Observable<Record<string, unknown>>((subscriber) => {
      const entry = new SubscriberRequest(method, options.cancellable !== false, build, subscriber);
      this.open(entry);
      return entry;
    });
  }

  /**
   * Files `entry` under a fresh id and sends its request: the same as
   * `request` without an Observable, for callers that are one themselves.
   * When the request cannot be sent, `entry` fails at once and is never
   * filed; otherwise its `unsubscribe` abandons it until it is answered.
   */
  open(entry: PendingRequest): void {
    const { method } = entry;
    if (this.closed) return PendingRequest.failWith(entry, new McpTransportClosedError(method));
    this.connect();
    if (this.ended !== undefined) return PendingRequest.failWith(entry, this.ended);
    if (this.pending.size >= this.maxPending) {
      return PendingRequest.failWith(entry, new McpClientError(`${method} refused: ${this.maxPending} requests are already waiting for answers (maxPendingRequests)`));
    }
    const id = this.nextId++;
    PendingRequest.file(entry, this, id);
    this.pending.set(id, entry);
    try {
      this.transport.outbound.next(PendingRequest.send(entry, id, this.tracing));
    } catch (error) {
      // A request the wire cannot carry (arguments nested too deep to serialise, say) fails alone.
      this.pending.delete(id);
      PendingRequest.failWith(entry, new McpClientError(`${method} could not be sent: ${messageOf(error)}`, { cause: error }));
    }
  }

  /** Drops an abandoned entry from the table, and cancels it on the wire. */
  forget(entry: PendingRequest): void {
    this.pending.delete(entry.id);
    if (!this.closed && entry.cancellable) this.transport.cancel(entry.id, 'the caller gave up');
    this.abandonedSubject.next(entry.id);
  }

  /** Sends a message that expects no answer: a notification, or the answer to a server's request. */
  send(message: JsonRpcNotification | JsonRpcResponse): void {
    if (!this.closed) this.transport.outbound.next(message);
  }

  /** Fails every pending request with `McpTransportClosedError`, and every later one. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.failAll((entry) => new McpTransportClosedError(entry.method));
  }

  private connect(): void {
    if (this.connection) return;
    this.connection = this.transport.inbound.subscribe({
      next: (message) => this.route(message),
      error: (error: unknown) => this.end(error),
      complete: () => this.end(new McpTransportClosedError()),
    });
    const failures = this.transport.failures$?.subscribe(({ id, error }) => {
      const entry = this.pending.get(id);
      if (entry) {
        this.pending.delete(id);
        PendingRequest.failWith(entry, error);
      }
    });
    if (failures) this.connection.add(failures);
  }

  private route(message: JsonRpcMessage): void {
    const kind = kindOf(message);
    if (kind === 'response') {
      const response = message as JsonRpcResponse;
      const entry = response.id === undefined || response.id === null ? undefined : this.pending.get(response.id);
      if (entry) {
        this.pending.delete(response.id as RequestId);
        // Whatever reading the answer throws ends this one call, never the wire.
        try {
          PendingRequest.settle(entry, response);
        } catch (error) {
          PendingRequest.failWith(entry, unreadableAnswer(entry.method, error));
        }
      } else if (response.id === undefined || response.id === null) {
        const detail = isErrorResponse(response) ? `: ${JSON.stringify(response.error.message)}` : '';
        this.warn(`dropped an error answer that names no request${detail}`);
      } else {
        this.warn(`dropped an answer to request ${JSON.stringify(response.id)}, which is not pending (late, abandoned or unknown)`);
      }
    } else if (kind === 'request') {
      this.requestSubject.next(message as JsonRpcRequest);
    } else {
      this.notificationSubject.next(message as JsonRpcNotification);
    }
  }

  // The wire ended: fail what is pending with the reason, and end the streams.
  private end(reason: unknown): void {
    if (this.ended !== undefined) return;
    this.ended = reason;
    this.failAll((entry) => (reason instanceof McpTransportClosedError ? new McpTransportClosedError(entry.method) : reason));
    if (reason instanceof McpTransportClosedError) {
      this.notificationSubject.complete();
      this.requestSubject.complete();
    } else {
      this.notificationSubject.error(reason);
      this.requestSubject.error(reason);
    }
  }

  private failAll(reason: (entry: PendingRequest) => unknown): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) PendingRequest.failWith(entry, reason(entry));
  }
}
