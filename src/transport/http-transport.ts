import { BehaviorSubject, distinctUntilChanged, type Observable, type Observer, Subject } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import { checkAuthOptions } from '../auth/check-auth-options.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import type { ListLimits } from '../protocol/list-walk.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { checkSize } from '../util/checks.js';
import { LegacyHttp } from './http-legacy.js';
import { ModernHttp } from './http-modern.js';
import type { Wire } from '../protocol/types.js';
import { McpHttpError } from '../errors/transport-errors.js';
import { HTTP_OPTION_KEYS, type HttpTransportKind, type HttpTransportOptions } from './http-options.js';
import { SseHttp } from './http-sse.js';
import { type HttpSink, HttpWire } from './http-wire.js';
import { DEFAULT_MAX_MESSAGE, type RequestFailure, type Transport } from './transport.js';

// With the framing headers: a Content-Length or Transfer-Encoding of the caller's would not match the body rxmcp sends.
const PROTOCOL_HEADERS = ['content-type', 'accept', 'content-length', 'transfer-encoding', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];
const KINDS: readonly HttpTransportKind[] = ['auto', 'streamable-http', 'sse'];
/** The statuses with which a server that speaks only HTTP+SSE refuses the `initialize` POST (the spec's list). */
const NOT_STREAMABLE = new Set([400, 404, 405]);

/**
 * Speaks MCP over HTTP, whichever transport the URL serves. Streamable HTTP
 * starts in the 2026-07-28 binding (every message its own POST, routing
 * fields mirrored into headers, an aborted POST as the cancellation). When
 * the client's era probe falls back to `initialize`, because the server
 * answered the modern probe as only an older server would, it switches to the
 * 2025-11-25 binding for the rest of its life: a session, streams the server
 * may send its own requests on, a GET stream, `notifications/cancelled`,
 * DELETE on close. If that `initialize` POST is refused with 400, 404 or 405,
 * the URL is tried as an HTTP+SSE endpoint (a GET for an event stream whose
 * first event names where to POST), and that is kept once it answers.
 * `httpTransport` pins one of the two.
 *
 * Nothing is sent until the first message; what sends (node:http on Node;
 * elsewhere the platform's global fetch) and eventsource-parser are loaded
 * only then.
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
  private readonly http: HttpWire;
  private readonly sink: HttpSink;
  private readonly modern: ModernHttp;
  private legacy: LegacyHttp | undefined;
  private sse: SseHttp | undefined;
  private readonly kind: HttpTransportKind;
  private readonly restartSubject = new Subject<void>();
  private readonly hearing = new BehaviorSubject<boolean>(false);
  private closed = false;

  readonly inbound: Observable<JsonRpcMessage> = this.inboundSubject.asObservable();
  /** Hot: where signing in stands; present when the transport was given `auth`. */
  readonly auth$: Observable<AuthState> | undefined;
  readonly failures$: Observable<RequestFailure> = this.failureSubject.asObservable();
  /** Emits when an HTTP+SSE stream drops: the server forgot the session, and the next message starts a new one. */
  readonly restarts$: Observable<void> = this.restartSubject.asObservable();
  /**
   * Whether the server's messages outside any request reach the client now:
   * in the 2025-11-25 binding, while the GET stream is open; over HTTP+SSE,
   * always (its one stream carries the answers too, and its loss is a
   * restart). Never in the 2026-07-28 binding, where they come only on a
   * `subscriptions/listen` stream. Hot; replays the current state.
   */
  readonly unsolicited$: Observable<boolean> = this.hearing.pipe(distinctUntilChanged());
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
    checkSize('maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE);
    this.kind = options.httpTransport ?? 'auto';
    if (!KINDS.includes(this.kind)) {
      throw new McpClientError(`option httpTransport must be one of ${KINDS.map((kind) => JSON.stringify(kind)).join(', ')}; got ${JSON.stringify(options.httpTransport)}`);
    }
    for (const name of Object.keys(options.headers ?? {})) {
      const lower = name.toLowerCase();
      if (PROTOCOL_HEADERS.includes(lower) || lower.startsWith('mcp-param-')) {
        throw new McpClientError(`header ${JSON.stringify(name)} is set by the protocol and cannot be given in headers`);
      }
    }
    this.http = new HttpWire(options);
    this.sink = {
      deliver: (message) => {
        if (!this.closed) this.inboundSubject.next(message);
      },
      fail: (id, error) => {
        if (!this.closed) this.failureSubject.next({ id, error });
      },
    };
    this.modern = new ModernHttp(this.http, this.sink);
    if (this.kind === 'sse') this.sse = this.sseBinding(this.sink);
    if (this.sse) this.hearing.next(true);
    this.auth$ = this.http.auth$;
  }

  /** The server's endpoint (after a permanent redirect, where it moved): tracing reads its host and port. */
  get url(): string {
    return this.http.url;
  }

  /** The era this transport speaks: `modern` until the client's probe falls back to the handshake (always, over HTTP+SSE). */
  get era(): 'modern' | 'legacy' {
    return this.legacy || this.sse ? 'legacy' : 'modern';
  }

  /** `sse` once the URL turned out to serve HTTP+SSE (or was said to); `streamable-http` until then. */
  get wire(): Wire {
    return this.sse ? 'sse' : 'streamable-http';
  }

  /** Bounds the tool list read again after a header mismatch (the client passes its own options). */
  limitLists(limits: ListLimits): void {
    this.modern.listLimits = limits;
  }

  /** For a 2025-11-25 session: the request whose response stream carried this server request, if one did. */
  carrierOf(request: JsonRpcMessage): RequestId | undefined {
    return this.legacy?.carrierOf(request);
  }

  cancel(id: RequestId, reason?: string): void {
    if (this.sse) this.sse.cancel(id, reason);
    else if (this.legacy) this.legacy.cancel(id, reason);
    else this.modern.cancel(id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.modern.close();
    this.sse?.close();
    this.inboundSubject.complete();
    this.failureSubject.complete();
    this.restartSubject.complete();
    this.hearing.next(false);
    this.hearing.complete();
    await this.legacy?.close();
    this.http.close();
  }

  private send(message: JsonRpcMessage): void {
    if (this.closed) return;
    if (this.sse) return this.sse.send(message);
    // Only the probe's fallback sends initialize: from here on the server is an older one.
    if (!this.legacy && 'method' in message && message.method === 'initialize') {
      const initialize = message as JsonRpcRequest;
      const sink = this.kind === 'auto' ? this.untilAnswered(initialize.id, (error) => this.streamableFailed(initialize, error)) : this.sink;
      this.legacy = new LegacyHttp(this.http, sink, (open) => {
        if (!this.closed) this.hearing.next(open);
      });
    }
    if (this.legacy) this.legacy.send(message);
    else this.modern.send(message);
  }

  // What follows a failed `initialize` POST: a refusal of the kind an
  // HTTP+SSE server gives sends that same `initialize` over HTTP+SSE. Only an
  // answer settles which transport the URL serves: after any other failure (a
  // server not up yet, say) the next `initialize` tries again from the start.
  private streamableFailed(initialize: JsonRpcRequest, error: Error): void {
    void this.legacy?.close();
    this.legacy = undefined;
    this.hearing.next(false);
    const refused = error instanceof McpHttpError && NOT_STREAMABLE.has(error.status) && error.location === undefined;
    if (!refused || this.closed) return this.sink.fail(initialize.id, error);
    this.sse = this.sseBinding(
      this.untilAnswered(initialize.id, (failure) => {
        this.sse?.close();
        this.sse = undefined;
        this.hearing.next(false);
        // Refused both ways: the error says what was tried (a redirect refused keeps its own, which names where it led).
        const refusedToo = failure instanceof McpHttpError && failure.location === undefined;
        this.sink.fail(initialize.id, refusedToo ? notAnEndpoint(this.http.url, error, failure) : failure);
      }),
    );
    this.hearing.next(true);
    this.sse.send(initialize);
  }

  // Passes everything on, except a failure of request `id` before its answer, which goes to `failed`.
  private untilAnswered(id: RequestId, failed: (error: Error) => void): HttpSink {
    let waiting = true;
    return {
      deliver: (message) => {
        if (waiting && !('method' in message) && message.id === id) waiting = false;
        this.sink.deliver(message);
      },
      fail: (failedId, error) => {
        if (!waiting || failedId !== id) return this.sink.fail(failedId, error);
        waiting = false;
        failed(error);
      },
    };
  }

  private sseBinding(sink: HttpSink): SseHttp {
    return new SseHttp(this.http, sink, () => {
      if (!this.closed) this.restartSubject.next();
    });
  }
}

// "POST /mcp: 404; GET /mcp: 404 — not an MCP endpoint", with the POST's status and body.
function notAnEndpoint(url: string, posted: McpHttpError, got: McpHttpError): McpHttpError {
  const path = new URL(url).pathname;
  const reason = `POST ${path}: ${posted.status}; GET ${path}: ${got.status} — not an MCP endpoint (tried Streamable HTTP and HTTP+SSE)`;
  return new McpHttpError(posted.status, posted.body, url, { reason });
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
