import { defer, Observable, Subject, type Subscription } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
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

/** How one request is sent. */
export interface SendOptions {
  /** False for a request that must never be cancelled, such as `initialize`. */
  cancellable?: boolean;
}

/** Where the answer to one pending request goes. */
interface Pending {
  method: string;
  answer(response: JsonRpcResponse): void;
  fail(error: unknown): void;
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
  private readonly pending = new Map<RequestId, Pending>();
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
    return new Observable<Record<string, unknown>>((subscriber) => {
      if (this.closed) {
        subscriber.error(new McpTransportClosedError(method));
        return;
      }
      this.connect();
      if (this.ended !== undefined) {
        subscriber.error(this.ended);
        return;
      }
      if (this.pending.size >= this.maxPending) {
        subscriber.error(new McpClientError(`${method} refused: ${this.maxPending} requests are already waiting for answers (maxPendingRequests)`));
        return;
      }
      const id = this.nextId++;
      let settled = false;
      this.pending.set(id, {
        method,
        answer: (response) => {
          settled = true;
          if (isErrorResponse(response)) {
            const { code, message, data } = response.error;
            subscriber.error(new McpProtocolError(`${method} failed: ${message} (code ${code})`, code, data, method));
          } else {
            subscriber.next(response.result);
            subscriber.complete();
          }
        },
        fail: (error) => {
          settled = true;
          subscriber.error(error);
        },
      });
      this.transport.outbound.next(build(id));
      return () => {
        this.pending.delete(id);
        if (!settled && !this.closed && options.cancellable !== false) this.transport.cancel(id, 'the caller gave up');
      };
    });
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
        entry.answer(response);
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

  private failAll(reason: (entry: Pending) => unknown): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) entry.fail(reason(entry));
  }
}
