import { type Observable, type Observer, Subject } from 'rxjs';
import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';
import { DEFAULT_POSTED_LIMITS, type PostedMessageLimits, readPostedMessage } from './posted-message.js';

/** The one window the host talks to: the sandbox proxy frame's `contentWindow`. */
export interface PostTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Where `message` events arrive: the host page's `window`. */
export interface MessageEvents {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** How a {@link WindowTransport} is set up. */
export interface WindowTransportOptions {
  /** The window whose `message` events carry the view's messages (the host page's). */
  events: MessageEvents;
  /** The peer window, looked up at each message (null while the frame has none). */
  peer: () => PostTarget | null;
  /** The peer's origin: what its messages must come from, and the target of every message sent. */
  origin: string;
  /** Bounds on what is read. Default {@link DEFAULT_POSTED_LIMITS}. */
  limits?: PostedMessageLimits;
  /** Told about each message from the peer that was dropped, and why. */
  onDrop?: (reason: string) => void;
}

/**
 * An rxmcp `Transport` over `postMessage` to one window. A message counts
 * only if its `source` is that window and its `origin` the expected one;
 * then it is bounded, copied and classified as JSON-RPC, or dropped.
 * Everything sent goes to that window with the expected origin as
 * `targetOrigin`, so it is never delivered should the frame have navigated
 * elsewhere.
 */
export class WindowTransport implements Transport {
  private readonly subject = new Subject<JsonRpcMessage>();
  private readonly listener = (event: MessageEvent): void => this.receive(event);
  private closed = false;

  /** Every accepted message, hot. Completes on `close()`. */
  readonly inbound: Observable<JsonRpcMessage> = this.subject.asObservable();
  /** Messages to post to the peer. */
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.post(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(private readonly options: WindowTransportOptions) {
    options.events.addEventListener('message', this.listener);
  }

  /** Tells the peer a request is abandoned, with `notifications/cancelled`. */
  cancel(id: RequestId, reason?: string): void {
    const params: Record<string, unknown> = { requestId: id };
    if (reason !== undefined) params.reason = reason;
    this.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
  }

  /** Stops listening and completes `inbound`; idempotent. */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.options.events.removeEventListener('message', this.listener);
      this.subject.complete();
    }
    return Promise.resolve();
  }

  private post(message: JsonRpcMessage): void {
    const peer = this.closed ? null : this.options.peer();
    if (peer !== null) peer.postMessage(message, this.options.origin);
  }

  private receive(event: MessageEvent): void {
    const peer = this.options.peer();
    // Other frames on the page post too: not ours, not worth a word.
    if (this.closed || peer === null || event.source !== peer) return;
    if (event.origin !== this.options.origin) {
      this.options.onDrop?.(`a message dropped: from origin ${JSON.stringify(event.origin)}, not ${JSON.stringify(this.options.origin)}`);
      return;
    }
    const read = readPostedMessage(event.data, this.options.limits ?? DEFAULT_POSTED_LIMITS);
    if (read.ok) this.subject.next(read.message);
    else this.options.onDrop?.(`a message dropped: ${read.reason}`);
  }
}
