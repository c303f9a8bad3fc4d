import { type Observable, type Observer, Subject } from 'rxjs';
import type { JsonRpcMessage, JsonRpcRequest, RequestId, Transport } from '../../src/index.js';

/** What a scripted server does with one request. */
export type Reply =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } }
  | 'silence';

/**
 * A transport double for unit tests of the protocol machinery: answers come
 * from per-method scripts, asynchronously as from a real wire, and everything
 * the client sends is recorded.
 */
export class ScriptedTransport implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  readonly cancelled: RequestId[] = [];
  closed = false;
  private readonly subject = new Subject<JsonRpcMessage>();
  private readonly scripts = new Map<string, (request: JsonRpcRequest) => Reply>();

  readonly inbound: Observable<JsonRpcMessage> = this.subject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.receive(message),
    error: () => undefined,
    complete: () => undefined,
  };

  /** Scripts the answer to every request for `method`. Unscripted methods get -32601. */
  on(method: string, reply: Reply | ((request: JsonRpcRequest) => Reply)): this {
    this.scripts.set(method, typeof reply === 'function' ? reply : () => reply);
    return this;
  }

  /** Sends a message as the server. */
  push(message: JsonRpcMessage): void {
    this.subject.next(message);
  }

  /** Ends the wire with an error, as a dying server would. */
  die(error: Error): void {
    this.subject.error(error);
  }

  /** The requests sent so far for `method`. */
  requests(method: string): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === method);
  }

  cancel(id: RequestId): void {
    this.cancelled.push(id);
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.subject.complete();
    }
    return Promise.resolve();
  }

  private receive(message: JsonRpcMessage): void {
    this.sent.push(message);
    if (!('method' in message) || !('id' in message)) return;
    const request = message as JsonRpcRequest;
    const script = this.scripts.get(request.method);
    const reply: Reply = script
      ? script(request)
      : { error: { code: -32601, message: `Method not found: ${request.method}` } };
    if (reply === 'silence') return;
    setTimeout(() => {
      if (!this.closed) this.subject.next({ jsonrpc: '2.0', id: request.id, ...reply });
    }, 1);
  }
}
