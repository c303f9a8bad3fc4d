import { type Observable, type Observer, Subject } from 'rxjs';
import type { JsonRpcMessage, JsonRpcRequest, RequestId, Transport } from '../../src/index.js';

/** Wraps a real transport and records what the client sends through it. */
export class RecordingTransport implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  readonly cancelled: RequestId[] = [];
  readonly inbound: Observable<JsonRpcMessage>;
  readonly outbound: Observer<JsonRpcMessage>;
  constructor(private readonly inner: Transport) {
    this.inbound = inner.inbound;
    const outbound = new Subject<JsonRpcMessage>();
    outbound.subscribe((message) => {
      this.sent.push(message);
      inner.outbound.next(message);
    });
    this.outbound = outbound;
  }
  requests(method: string): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'id' in m && 'method' in m && m.method === method);
  }
  cancel(id: RequestId, reason?: string): void {
    this.cancelled.push(id);
    this.inner.cancel(id, reason);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

