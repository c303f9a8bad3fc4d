import { type Observable, share, tap } from 'rxjs';
import type { JsonRpcMessage, RequestId, Transport } from 'rxmcp';

type ListLimits = Parameters<NonNullable<Transport['limitLists']>>[0];

/** One message as it crossed the wire: `out` to the server, `in` from it. */
export interface WireMessage {
  direction: 'in' | 'out';
  /** `performance.now()` when it crossed. */
  at: number;
  message: JsonRpcMessage;
}

/**
 * A transport that passes everything through to `inner` and tells `record`
 * of each JSON-RPC message on the way: the page's request log. It changes
 * nothing the client sees, so what the log shows is what the client did.
 */
export class TrafficTransport implements Transport {
  readonly inbound: Observable<JsonRpcMessage>;
  readonly outbound = {
    next: (message: JsonRpcMessage): void => {
      this.record({ direction: 'out', at: performance.now(), message });
      this.inner.outbound.next(message);
    },
    error: (error: unknown): void => this.inner.outbound.error(error),
    complete: (): void => this.inner.outbound.complete(),
  };

  constructor(
    private readonly inner: Transport,
    private readonly record: (message: WireMessage) => void,
  ) {
    // Shared, so a message is recorded once however many subscribers the client keeps.
    this.inbound = inner.inbound.pipe(
      tap((message) => record({ direction: 'in', at: performance.now(), message })),
      share(),
    );
  }

  get failures$() {
    return this.inner.failures$;
  }
  get restarts$() {
    return this.inner.restarts$;
  }
  get auth$() {
    return this.inner.auth$;
  }
  get unsolicited$() {
    return this.inner.unsolicited$;
  }
  get wire() {
    return this.inner.wire;
  }

  cancel(id: RequestId, reason?: string): void {
    this.inner.cancel(id, reason);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  limitLists(limits: ListLimits): void {
    this.inner.limitLists?.(limits);
  }

  carrierOf(request: JsonRpcMessage): RequestId | undefined {
    return this.inner.carrierOf?.(request);
  }
}
