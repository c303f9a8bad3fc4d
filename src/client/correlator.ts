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
 * Builds a request once its id is known: a function, or an object whose
 * `build` does it (a call's own state object, so that a request waiting for
 * its answer keeps no closure of its own alive).
 */
export type RequestBuilder = ((id: RequestId) => JsonRpcRequest) | { build(id: RequestId): JsonRpcRequest };

/** Where the answer to one request goes. */
export interface Sink {
  /** The result of a successful answer. */
  answer(result: Record<string, unknown>): void;
  /** A JSON-RPC error answer (as `McpProtocolError`), or whatever ended the wire. */
  fail(error: unknown): void;
}

/**
 * One request waiting for its answer, filed under its id. Unsubscribing it
 * abandons the request. A class with its methods on the prototype: a burst of
 * calls makes one of these each, and no closures.
 */
export class PendingRequest implements Unsubscribable {
  private settled = false;

  constructor(
    private readonly correlator: Correlator,
    readonly id: RequestId,
    readonly method: string,
    private readonly sink: Sink,
    readonly cancellable: boolean,
  ) {}

  /** Settles with the server's answer. */
  answer(response: JsonRpcResponse): void {
    this.settled = true;
    if (isErrorResponse(response)) {
      const { code, message, data } = response.error;
      this.sink.fail(new McpProtocolError(`${this.method} failed: ${message} (code ${code})`, code, data, this.method));
    } else {
      this.sink.answer(response.result);
    }
  }

  /** Settles with a failure that is not the server's answer. */
  fail(error: unknown): void {
    this.settled = true;
    this.sink.fail(error);
  }

  /** Abandons the request unless it is settled (a settled one has left the table already). */
  unsubscribe(): void {
    if (!this.settled) this.correlator.forget(this);
  }
}

// Feeds an Observable's subscriber from a request's answer.
class SubscriberSink implements Sink {
  constructor(private readonly subscriber: Subscriber<Record<string, unknown>>) {}

  answer(result: Record<string, unknown>): void {
    this.subscriber.next(result);
    this.subscriber.complete();
  }

  fail(error: unknown): void {
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

  constructor(
    private readonly transport: Transport,
    private readonly warn: (message: string) => void,
    private readonly maxPending = Infinity,
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
  }

  /**
   * Sends one request and emits its result, or errors with `McpProtocolError`
   * for a JSON-RPC error answer, or with whatever ended the wire.
   */
  request(method: string, build: (id: RequestId) => JsonRpcRequest, options: SendOptions = {}): Observable<Record<string, unknown>> {
    return new Observable<Record<string, unknown>>((subscriber) => this.open(method, build, new SubscriberSink(subscriber), options));
  }

  /**
   * Sends one request and reports its answer to `sink`: the same as
   * `request` without an Observable, for callers that are one themselves.
   * Fails `sink` at once (and returns nothing) when the request cannot be
   * sent; otherwise the returned entry's `unsubscribe` abandons it.
   */
  open(method: string, build: RequestBuilder, sink: Sink, options: SendOptions = {}): PendingRequest | undefined {
    if (this.closed) {
      sink.fail(new McpTransportClosedError(method));
      return undefined;
    }
    this.connect();
    if (this.ended !== undefined) {
      sink.fail(this.ended);
      return undefined;
    }
    if (this.pending.size >= this.maxPending) {
      sink.fail(new McpClientError(`${method} refused: ${this.maxPending} requests are already waiting for answers (maxPendingRequests)`));
      return undefined;
    }
    const id = this.nextId++;
    const entry = new PendingRequest(this, id, method, sink, options.cancellable !== false);
    this.pending.set(id, entry);
    try {
      this.transport.outbound.next(typeof build === 'function' ? build(id) : build.build(id));
    } catch (error) {
      // A request the wire cannot carry (arguments nested too deep to serialise, say) fails alone.
      this.pending.delete(id);
      sink.fail(new McpClientError(`${method} could not be sent: ${messageOf(error)}`, { cause: error }));
      return undefined;
    }
    return entry;
  }

  /** Drops an abandoned entry from the table, and cancels it on the wire. */
  forget(entry: PendingRequest): void {
    this.pending.delete(entry.id);
    if (!this.closed && entry.cancellable) this.transport.cancel(entry.id, 'the caller gave up');
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
        entry.fail(error);
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
          entry.answer(response);
        } catch (error) {
          entry.fail(unreadableAnswer(entry.method, error));
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
    for (const entry of entries) entry.fail(reason(entry));
  }
}
