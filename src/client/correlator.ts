import { EMPTY, filter, merge, mergeMap, Observable, share, Subject, take, takeUntil, throwError, type Subscription } from 'rxjs';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { McpTransportClosedError } from '../errors/transport-errors.js';
import {
  isErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';

/** How one request is sent. */
export interface SendOptions {
  /** False for a request that must never be cancelled, such as `initialize`. */
  cancellable?: boolean;
}

/**
 * The pending-request table of one connection, kept as an operator pipeline:
 * every request is a cold Observable that, on subscription, sends a message
 * with a fresh id and filters the shared inbound stream for the answer with
 * that id. Unsubscribing before the answer abandons the request through the
 * transport (stdio sends `notifications/cancelled`).
 *
 * Answers nobody is waiting for (late, abandoned or unknown ids) are dropped
 * and reported through `warn`, so they can never be mistaken for another
 * call's answer.
 */
export class Correlator {
  private readonly pending = new Set<RequestId>();
  private readonly closing$ = new Subject<void>();
  private readonly inbound$: Observable<JsonRpcMessage>;
  private watcher: Subscription | undefined;
  private nextId = 1;
  private closed = false;

  /** Notifications from the server, hot. */
  readonly notifications$: Observable<JsonRpcNotification>;
  /** Requests from the server (legacy era), hot. */
  readonly serverRequests$: Observable<JsonRpcRequest>;

  constructor(
    private readonly transport: Transport,
    private readonly warn: (message: string) => void,
  ) {
    // One subscription to the wire, split by kind. Subscribing sends nothing.
    this.inbound$ = transport.inbound.pipe(share());
    this.notifications$ = this.inbound$.pipe(filter(isNotification));
    this.serverRequests$ = this.inbound$.pipe(filter(isServerRequest));
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
      this.watch();
      const id = this.nextId++;
      let settled = false;
      this.pending.add(id);
      const failed$ = (this.transport.failures$ ?? EMPTY).pipe(
        filter((failure) => failure.id === id),
        mergeMap((failure) => throwError(() => failure.error)),
      );
      const answer = merge(
        this.inbound$.pipe(filter((message): message is JsonRpcResponse => isResponse(message) && message.id === id)),
        failed$,
      )
        .pipe(take(1), takeUntil(this.closing$))
        .subscribe({
          next: (response) => {
            settled = true;
            if (isErrorResponse(response)) {
              const { code, message, data } = response.error;
              subscriber.error(new McpProtocolError(`${method} failed: ${message} (code ${code})`, code, data, method));
            } else {
              subscriber.next(response.result);
              subscriber.complete();
            }
          },
          error: (error: unknown) => {
            settled = true;
            subscriber.error(error);
          },
          complete: () => {
            if (settled) return;
            settled = true;
            subscriber.error(new McpTransportClosedError(method));
          },
        });
      // A wire that already ended has errored `answer` synchronously: send nothing then.
      if (!settled) this.transport.outbound.next(build(id));
      return () => {
        answer.unsubscribe();
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
    this.closing$.next();
    this.closing$.complete();
    this.watcher?.unsubscribe();
  }

  // The watcher subscribes before any request does, so it sees each answer
  // while its id is still pending and warns only about answers nobody awaits.
  private watch(): void {
    this.watcher ??= this.inbound$.pipe(filter(isResponse)).subscribe({
      next: (response) => {
        if (response.id === undefined || response.id === null) {
          const detail = isErrorResponse(response) ? `: ${JSON.stringify(response.error.message)}` : '';
          this.warn(`dropped an error answer that names no request${detail}`);
        } else if (!this.pending.has(response.id)) {
          this.warn(`dropped an answer to request ${JSON.stringify(response.id)}, which is not pending (late, abandoned or unknown)`);
        }
      },
      error: () => undefined,
    });
  }
}

function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return 'result' in message || 'error' in message;
}

function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message && message.id !== undefined);
}

function isServerRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}
