import { type Observable, type Observer, Subject } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import { checkAuthOptions } from '../auth/check-auth-options.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';
import type { ListLimits } from '../protocol/list-walk.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { LegacyHttp } from './http-legacy.js';
import { ModernHttp } from './http-modern.js';
import { HTTP_OPTION_KEYS, type HttpTransportOptions } from './http-options.js';
import { type HttpSink, HttpWire } from './http-wire.js';
import type { RequestFailure, Transport } from './transport.js';

const PROTOCOL_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];

/**
 * Speaks Streamable HTTP in either era. It starts in the 2026-07-28 binding
 * (every message its own POST, routing fields mirrored into headers, an
 * aborted POST as the cancellation). When the client's era probe falls back
 * to `initialize`, because the server answered the modern probe as only a
 * 2025-11-25 server would, it switches to that era's binding for the rest of
 * its life: a session, streams the server may send its own requests on, a GET
 * stream, `notifications/cancelled`, DELETE on close.
 *
 * Nothing is sent until the first message; cross-fetch and
 * eventsource-parser are loaded only then.
 *
 * @throws McpClientError at construction for a bad URL, an unknown option, or
 *   a header that would replace one of the protocol's.
 * @example
 * ```ts
 * const transport = new HttpTransport({ url: 'http://127.0.0.1:3000/mcp' });
 * const mcp = new McpClient({ transport });
 * ```
 */
export class HttpTransport implements Transport {
  private readonly inboundSubject = new Subject<JsonRpcMessage>();
  private readonly failureSubject = new Subject<RequestFailure>();
  private readonly wire: HttpWire;
  private readonly sink: HttpSink;
  private readonly modern: ModernHttp;
  private legacy: LegacyHttp | undefined;
  private closed = false;

  readonly inbound: Observable<JsonRpcMessage> = this.inboundSubject.asObservable();
  /** Hot: where signing in stands; present when the transport was given `auth`. */
  readonly auth$: Observable<AuthState> | undefined;
  readonly failures$: Observable<RequestFailure> = this.failureSubject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.send(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(options: HttpTransportOptions) {
    refuseUnknown(options, HTTP_OPTION_KEYS);
    const url = parseUrl(options.url);
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
      throw new McpClientError(`option url must be an http or https URL; got ${JSON.stringify(options.url)}`);
    }
    if (options.auth !== undefined) checkAuthOptions(options.auth, url, options.headers);
    for (const name of Object.keys(options.headers ?? {})) {
      const lower = name.toLowerCase();
      if (PROTOCOL_HEADERS.includes(lower) || lower.startsWith('mcp-param-')) {
        throw new McpClientError(`header ${JSON.stringify(name)} is set by the protocol and cannot be given in headers`);
      }
    }
    this.wire = new HttpWire(options);
    this.sink = {
      deliver: (message) => {
        if (!this.closed) this.inboundSubject.next(message);
      },
      fail: (id, error) => {
        if (!this.closed) this.failureSubject.next({ id, error });
      },
    };
    this.modern = new ModernHttp(this.wire, this.sink);
    this.auth$ = this.wire.auth$;
  }

  /** The era this transport speaks: `modern` until the client's probe falls back to the handshake. */
  get era(): 'modern' | 'legacy' {
    return this.legacy ? 'legacy' : 'modern';
  }

  /** Bounds the tool list read again after a header mismatch (the client passes its own options). */
  limitLists(limits: ListLimits): void {
    this.modern.listLimits = limits;
  }

  cancel(id: RequestId, reason?: string): void {
    if (this.legacy) this.legacy.cancel(id, reason);
    else this.modern.cancel(id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.modern.close();
    this.inboundSubject.complete();
    this.failureSubject.complete();
    await this.legacy?.close();
    this.wire.close();
  }

  private send(message: JsonRpcMessage): void {
    if (this.closed) return;
    // Only the probe's fallback sends initialize: from here on the server is a 2025-11-25 one.
    if (!this.legacy && 'method' in message && message.method === 'initialize') this.legacy = new LegacyHttp(this.wire, this.sink);
    if (this.legacy) this.legacy.send(message);
    else this.modern.send(message);
  }
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
