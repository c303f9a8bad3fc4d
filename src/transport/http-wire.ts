import { shownUrl } from '../util/shown-url.js';
import { type Observable, Subject } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import type { AuthorizedFetch } from '../auth/authorized-fetch.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { type JsonRpcMessage, type JsonRpcResponse, type RequestId } from '../protocol/jsonrpc.js';
import type { HttpTransportOptions } from './http-options.js';
import { MessageTooLongError, readText } from '../http/body.js';
import { DeadlinePassed, type FetchLike, type FetchResponse } from '../http/fetch-like.js';
import { SseReader } from './sse.js';
import { decodeMessage, SseMessages, type StreamCursor } from './sse-messages.js';
import { DEFAULT_MAX_MESSAGE } from './transport.js';
import { BoundedSignal } from '../util/bounded-signal.js';
import type { AbortLike } from '../util/light-abort.js';
import { checkCount, checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { warnHook } from '../util/warn-hook.js';
import { DEFAULT_MAX_RECONNECT_DELAY_MS, DEFAULT_RECONNECT_ATTEMPTS, RECONNECT_OPTION_KEYS, ReconnectBackoff } from './reconnect-backoff.js';

/** How long a response may take to start, unless connectTimeoutMs says otherwise. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30000;
/** Redirects one request follows before it fails. */
const MAX_REDIRECTS = 5;
/** The most of a redirect's body read (and dropped) before the next hop. */
const REDIRECT_BODY_LIMIT = 64 * 1024;
/**
 * Redirects that move the endpoint: the request goes again, method and body
 * unchanged, to the new URL. Browsers turn a POST into a GET on 301 and 302
 * for historical reasons; a JSON-RPC message cannot travel as a GET, and
 * frameworks that add a trailing slash answer with any of these.
 */
const MOVED = new Set([301, 302, 307, 308]);
/** "See other": fetch the answer elsewhere with GET, which only a GET can do. */
const SEE_OTHER = 303;

/** One HTTP request to the MCP endpoint. */
export interface WireRequest {
  method: 'POST' | 'GET' | 'DELETE';
  /** Where to send it, when not the endpoint (HTTP+SSE posts to the URL its stream names); it never moves the endpoint. */
  url?: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * What `fetch` hands the sign-in for `send`: the request, and what only
 * the wire reads (the clock, whether it is for the endpoint, which a
 * redirect may move). The sign-in sets `redirect` to `'error'` when a
 * token goes along.
 */
interface SendInit {
  method: WireRequest['method'];
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortLike;
  redirect: 'follow' | 'error';
  timeoutMs: number;
  toEndpoint: boolean;
}

/** Where the transport's two eras hand what they read and what went wrong. */
export interface HttpSink {
  /** Passes a message from the server on to the client. */
  deliver(message: JsonRpcMessage): void;
  /** Ends the request with this id with a local error. */
  fail(id: RequestId, error: Error): void;
}

/**
 * What both eras of Streamable HTTP share: reaching the endpoint within the
 * connect timeout, keep-alive agents, and reading a response as the JSON-RPC
 * messages it carries, whether a JSON body or an SSE stream, within
 * `maxMessageBytes`. What it sends with (node:http on Node, the global
 * fetch elsewhere) and eventsource-parser load on first use.
 */
export class HttpWire {
  /** The endpoint's origin: redirects are followed only within it. */
  private readonly origin: string;
  /** The endpoint: the URL given, or where a redirect within its origin moved it. */
  private endpoint: string;
  private readonly reconnect: { maxAttempts: number; maxDelayMs: number };
  private fetchImpl: Promise<FetchLike> | undefined;
  /** The fetch once loaded, taken without an await (a promise hop per request). */
  private loaded: FetchLike | undefined;
  /** rxmcp's own requests on Node, when the caller gave no fetch: its connections close with the wire, and it keeps the clock itself. */
  private node: { close(): void; fetch: FetchLike } | undefined;

  /**
   * The fetch that signs in, wrapped around `send`, when `auth` is set:
   * loaded with the first request, so that a page that never signs in never
   * loads the OAuth code (most of auth/).
   */
  private signIn: AuthorizedFetch | undefined;
  private signInLoad: Promise<AuthorizedFetch> | undefined;
  /** Where signing in stands, forwarded from the sign-in once it is loaded; present when `auth` is set. */
  private readonly authStates: Subject<AuthState> | undefined;
  private readonly authState$: Observable<AuthState> | undefined;
  private closed = false;

  /** How long to wait for a response to start (0 = no limit). */
  readonly connectTimeoutMs: number;

  constructor(private readonly options: HttpTransportOptions) {
    this.endpoint = options.url;
    this.origin = new URL(options.url).origin;
    const reconnect = options.reconnect ?? {};
    if (typeof reconnect !== 'object' || reconnect === null) throw new McpClientError(`option reconnect must be an object; got ${JSON.stringify(reconnect)}`);
    refuseUnknown(reconnect, RECONNECT_OPTION_KEYS);
    this.reconnect = {
      maxAttempts: checkCount('reconnect.maxAttempts', reconnect.maxAttempts, DEFAULT_RECONNECT_ATTEMPTS),
      maxDelayMs: checkTimerDuration('reconnect.maxDelayMs', reconnect.maxDelayMs, DEFAULT_MAX_RECONNECT_DELAY_MS),
    };
    this.connectTimeoutMs = checkTimerDuration('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    if (options.auth) {
      this.authStates = new Subject<AuthState>();
      this.authState$ = this.authStates.asObservable();
    }
  }

  /** The endpoint every request goes to: the URL given, or where a redirect within its origin led. */
  get url(): string {
    return this.endpoint;
  }

  /**
   * True when the requests are rxmcp's own (node:http): a body its reader
   * left is drained or cut off by itself, so an exchange that is over needs
   * no abort to let go of it. A caller's fetch needs one (a web stream left
   * unread stays open).
   */
  get letsGoOfBodies(): boolean {
    return this.node !== undefined;
  }

  /** A fresh pacing of the attempts to re-open one stream (first opened at `openedAt`), under the `reconnect` options. */
  backoff(openedAt?: number): ReconnectBackoff {
    return new ReconnectBackoff(this.reconnect.maxAttempts, this.reconnect.maxDelayMs, openedAt);
  }

  /** The caller's own headers, with the content types every POST carries. */
  postHeaders(): Record<string, string> {
    return { ...this.options.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  }

  /** The caller's own headers alone. */
  userHeaders(): Record<string, string> {
    return { ...this.options.headers };
  }

  /**
   * Sends one request and resolves once its response starts, within
   * `connectTimeoutMs` (or `timeoutMs` when given). With `auth` it goes
   * through the sign-in wrapped around `send`, which may send it again
   * after signing in (each try with a clock of its own, none while signing in).
   *
   * @throws the signal's reason when it aborts first.
   * @throws McpNetworkError when the server cannot be reached in time.
   * @throws McpAuthError when signing in fails or the server still refuses.
   */
  fetch(request: WireRequest, signal: AbortLike, timeoutMs = this.connectTimeoutMs): Promise<FetchResponse> {
    // Not an async function: one that returns a promise adds turns of the microtask queue to every request.
    if (!this.authStates) return this.send(request, signal, timeoutMs);
    return this.signedIn(request, signal, timeoutMs);
  }

  private async signedIn(request: WireRequest, signal: AbortLike, timeoutMs: number): Promise<FetchResponse> {
    const signIn = this.signIn ?? (await this.loadSignIn());
    const init: SendInit = { method: request.method, headers: request.headers, body: request.body, signal, redirect: 'follow', timeoutMs, toEndpoint: request.url === undefined };
    return signIn.fetch(request.url ?? this.endpoint, init as unknown as Record<string, unknown>);
  }

  /** Where signing in stands, when the transport signs in. */
  get auth$(): Observable<AuthState> | undefined {
    return this.authState$;
  }

  private loadSignIn(): Promise<AuthorizedFetch> {
    this.signInLoad ??= import('../auth/authorized-fetch.js').then(({ AuthorizedFetch }) => {
      const auth = this.options.auth as NonNullable<HttpTransportOptions['auth']>;
      const signIn = new AuthorizedFetch(this.sendInit, {
        auth,
        serverUrl: new URL(this.options.url),
        signInFetch: () => this.loadFetch(),
        drain: (response) => this.text(response),
        where: (url, init) => ((init as unknown as SendInit).toEndpoint ? this.endpoint : url),
      });
      // Its states go out through auth$, which ends when the sign-in closes.
      signIn.state$.subscribe(this.authStates as Subject<AuthState>);
      if (this.closed) signIn.close();
      this.signIn = signIn;
      return signIn;
    });
    return this.signInLoad;
  }

  // The fetch the sign-in wraps: `send`, with what `fetch` put in init. A
  // request to the endpoint goes wherever the endpoint is when it is sent.
  private readonly sendInit: FetchLike = (url, init) => {
    const { method, headers, body, signal, redirect, timeoutMs, toEndpoint } = init as unknown as SendInit;
    return this.send({ method, url: toEndpoint ? undefined : url, headers, body }, signal, timeoutMs, redirect !== 'error');
  };

  // One request, following redirects within the endpoint's origin (none when
  // `follow` is false: the sign-in asks so when a token goes along, as a
  // token goes only to the URL it was issued for). The clock runs over all
  // hops; the endpoint moves to where the last one led.
  private async send(request: WireRequest, signal: AbortLike, timeoutMs: number, follow = true): Promise<FetchResponse> {
    const fetchImpl = this.loaded ?? (await this.loadFetch());
    // rxmcp's own requests keep the clock themselves (one timer, no
    // AbortController and listeners per request); a caller's fetch is given
    // a signal that aborts when the time runs out.
    const own = fetchImpl === this.node?.fetch;
    const bounded = own ? undefined : new BoundedSignal(signal, timeoutMs);
    const deadline = own && timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
    let url = request.url ?? this.endpoint;
    // A 303 sends a GET to read its answer elsewhere: the endpoint itself has not moved.
    let moved = request.url === undefined;
    try {
      for (let hops = 0; ; hops++) {
        // Sent here rather than by a function of its own: an async layer costs promises and turns per request.
        let response: FetchResponse;
        try {
          response = await fetchImpl(url, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            // Redirects come back to be judged here: fetch would follow them anywhere, headers and all.
            redirect: 'manual',
            signal: bounded?.signal ?? signal,
            deadline,
          });
        } catch (error) {
          throw unreached(error, url, signal, bounded, timeoutMs);
        }
        const next = this.redirectTarget(response, url, request.method, follow ? MAX_REDIRECTS - hops : undefined);
        if (next === undefined) {
          if (hops > 0 && moved) this.endpoint = url;
          return response;
        }
        if (response.status === SEE_OTHER) moved = false;
        await readText(response, REDIRECT_BODY_LIMIT).catch(() => undefined);
        url = next;
      }
    } finally {
      // The link to the caller's signal stays: the body may still be streaming.
      bounded?.stopClock();
    }
  }

  /**
   * Where a redirect leads, when it is one to follow; `undefined` for a
   * response that is not a redirect. `hopsLeft` is undefined when no
   * redirect may be followed at all.
   *
   * @throws McpHttpError for a redirect to another origin (nothing is sent
   *   there), one past MAX_REDIRECTS or when none may be followed, a 303
   *   for anything but a GET, or one the fetch hid from us.
   */
  private redirectTarget(response: FetchResponse, url: string, method: string, hopsLeft: number | undefined): string | undefined {
    if (response.type === 'opaqueredirect' || response.status === 0) {
      throw new McpHttpError(0, '', url, { reason: 'the fetch in use hid a redirect (an opaque redirect, as browsers return them); give the URL the endpoint redirects to' });
    }
    // A fetch that ignores redirect: 'manual' (an XHR polyfill does) has already gone: at least its answer is not taken.
    // One that says it followed nothing is believed: a fetch that routes or proxies reports the URL it really used.
    if (response.redirected !== false && response.url && response.url !== url && originOf(response.url) !== this.origin) {
      throw new McpHttpError(response.status, '', url, { reason: `the fetch in use followed a redirect to another origin on its own: ${JSON.stringify(response.url)}`, location: response.url });
    }
    const followed = MOVED.has(response.status) || (response.status === SEE_OTHER && method === 'GET');
    if (!followed && response.status !== SEE_OTHER) return undefined;
    const location = response.headers.get('location');
    if (location === null) return undefined;
    const refuse = (reason: string) => new McpHttpError(response.status, '', url, { reason, location });
    if (!followed) throw refuse(`a ${method} cannot be redirected to be read with GET: ${JSON.stringify(location)}`);
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw refuse(`redirects to something that is not a URL: ${JSON.stringify(location)}`);
    }
    if (target.origin !== this.origin) throw refuse(`redirects to another origin, which is not followed: ${JSON.stringify(location)}`);
    if (hopsLeft === undefined) throw refuse(`redirects to ${JSON.stringify(location)}, which is not followed with a token on board`);
    if (hopsLeft === 0) throw refuse(`more than ${MAX_REDIRECTS} redirects; the last to ${JSON.stringify(location)}`);
    return target.href;
  }

  /**
   * The messages a response carries: each event of an SSE stream (with
   * `cursor` following its event ids and retry advice), or a JSON body. An
   * error body without an id is taken as the answer to `answering`.
   *
   * @throws McpNetworkError when a stream breaks; McpHttpError for an error
   *   status without a JSON-RPC answer; McpProtocolError for a body that is
   *   not JSON-RPC or a message over `maxMessageBytes`.
   */
  messages(response: FetchResponse, signal: AbortLike, answering?: RequestId, cursor?: StreamCursor): AsyncIterableIterator<JsonRpcMessage> {
    if (!isEventStream(response)) return this.bodyMessage(response, answering);
    const onRetry = cursor ? (ms: number) => (cursor.retryMs = ms) : undefined;
    return new SseMessages(new SseReader(response.body, { limit: this.maxMessageBytes, onRetry }), this, signal, cursor);
  }

  // A JSON body's one message, read once iterated.
  private async *bodyMessage(response: FetchResponse, answering?: RequestId): AsyncGenerator<JsonRpcMessage> {
    const answer = await this.answerIn(response, answering);
    if (answer) yield answer;
  }

  /**
   * The answer a response that is not an SSE stream carries as its JSON
   * body; `undefined` for a success with no body (a 202). An error body
   * without an id is taken as the answer to `answering`.
   *
   * @throws McpHttpError for an error status without a JSON-RPC answer;
   *   McpProtocolError for a body that is not one, or one over `maxMessageBytes`.
   */
  async answerIn(response: FetchResponse, answering?: RequestId): Promise<JsonRpcResponse | undefined> {
    // Read here rather than through `text`: an async layer fewer for every answer.
    let text: string;
    try {
      text = await readText(response, this.maxMessageBytes);
    } catch (error) {
      throw this.unreadBody(error);
    }
    const decoded = text ? decodeMessage(text) : undefined;
    if (decoded && ('result' in decoded || 'error' in decoded)) {
      // An error the server could not tie to an id still answers this POST.
      return answering !== undefined && decoded.id == null ? { ...decoded, id: answering } : decoded;
    }
    if (!response.ok) throw new McpHttpError(response.status, text.slice(0, 2000), this.url);
    if (text) throw new McpProtocolError(`${shownUrl(this.url)} answered with something that is not a JSON-RPC response`, undefined, { body: text.slice(0, 2000) });
    return undefined;
  }

  /**
   * A whole body as text, within `maxMessageBytes`.
   *
   * @throws McpProtocolError past the limit; McpNetworkError for a body that
   *   breaks (a reset, bytes that do not inflate); an abort's own reason.
   */
  async text(response: FetchResponse): Promise<string> {
    try {
      return await readText(response, this.maxMessageBytes);
    } catch (error) {
      throw this.unreadBody(error);
    }
  }

  // Why a body could not be read, as the error its reader throws.
  private unreadBody(error: unknown): Error {
    if (error instanceof MessageTooLongError) return this.tooLong();
    // The signal's reasons are rxmcp's own errors already; anything else is the body's doing, and the call ends typed.
    if (error instanceof McpClientError) return error;
    return new McpNetworkError(this.url, `the response body broke: ${(error as Error).message}`, { cause: error });
  }

  /** Reports through `onWarn`; what the hook throws stays out of the stream that warned. */
  warn(message: string): void {
    warnHook(this.options.onWarn)(message);
  }

  /** Lets go of kept-alive connections. */
  close(): void {
    this.closed = true;
    if (this.signIn) this.signIn.close();
    else this.authStates?.complete();
    this.node?.close();
  }

  // The caller's fetch; on Node, requests sent with node:http itself (a
  // fetch's Request and Headers objects and body streams cost more CPU than
  // the exchange); elsewhere the platform's own. Every platform rxmcp runs on
  // has one (browsers, Deno, Bun, workers; Node too, unused), so no polyfill
  // is carried: one would only replace a browser's streaming fetch, which
  // follows no redirect it is told not to, with an XHR-based one.
  private loadFetch(): Promise<FetchLike> {
    this.fetchImpl ??= (async () => {
      if (this.options.fetch) return this.options.fetch;
      if (typeof process !== 'undefined' && process.versions?.node) {
        const [http, https, url, { NodeHttpFetch }] = await Promise.all([import('node:http'), import('node:https'), import('node:url'), import('../http/node-http-fetch.js')]);
        const node = new NodeHttpFetch({ http, https, url }, this.options.persistent !== false);
        this.node = node;
        return node.fetch;
      }
      if (typeof globalThis.fetch !== 'function') throw new McpClientError('this platform has no global fetch: pass the fetch option (connectHttp({ url, fetch }))');
      // Called through globalThis: a browser's fetch refuses any other `this`.
      return ((url, init) => globalThis.fetch(url, init as RequestInit)) as FetchLike;
    })().then((fetchImpl) => (this.loaded = fetchImpl));
    return this.fetchImpl;
  }

  /** The largest message the server may send, in characters. */
  get maxMessageBytes(): number {
    return this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE;
  }

  /** The error for a message over `maxMessageBytes`. */
  tooLong(): McpProtocolError {
    return new McpProtocolError(`${shownUrl(this.url)} sent a message longer than maxMessageBytes (${this.maxMessageBytes})`, undefined, { limit: this.maxMessageBytes });
  }
}

// Why a request got no response: the signal's reason once it aborted, the clock, or the fetch's own error.
function unreached(error: unknown, url: string, signal: AbortLike, bounded: BoundedSignal | undefined, timeoutMs: number): unknown {
  if (signal.aborted) return signal.reason;
  if (bounded?.timedOut || error instanceof DeadlinePassed) return new McpNetworkError(url, `no response within ${timeoutMs} ms`);
  return new McpNetworkError(url, `cannot reach the server: ${(error as Error).message}`, { cause: error });
}

// The origin of a URL a fetch reported; undefined, which matches no origin, when it cannot be read.
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True when a response is an SSE stream rather than a single body. */
export function isEventStream(response: FetchResponse): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

/** Names a message the client sent that is not a request of its own, for a warning that it failed. */
export function whatIsSent(message: JsonRpcMessage): string {
  return 'method' in message ? `notification ${message.method}` : `the answer to server request ${JSON.stringify(message.id)}`;
}
