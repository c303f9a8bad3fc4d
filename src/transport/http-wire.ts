import type { Observable } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import { OAuthSession } from '../auth/oauth-session.js';
import { parseBearerChallenge } from '../auth/www-authenticate.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { decodeLine, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from '../protocol/jsonrpc.js';
import type { HttpTransportOptions } from './http-options.js';
import { type FetchLike, type FetchResponse, MessageTooLongError, readSse, readText } from './sse.js';
import { DEFAULT_MAX_MESSAGE } from './transport.js';
import { BoundedSignal } from '../util/bounded-signal.js';

/** Sign-ins one request may go through before its refusal is final: a sign-in, then up to two step-ups. */
const MAX_AUTH_ROUNDS = 3;

/** One HTTP request to the MCP endpoint. */
export interface WireRequest {
  method: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
}

/** Where an SSE stream got to: the last event id and the server's `retry` advice, for resuming it. */
export interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
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
 * `maxMessageBytes`. cross-fetch and eventsource-parser load on first use.
 */
export class HttpWire {
  readonly url: string;
  private fetchImpl: Promise<FetchLike> | undefined;
  private agents: { destroy(): void }[] = [];

  private readonly auth: OAuthSession | undefined;

  constructor(private readonly options: HttpTransportOptions) {
    this.url = options.url;
    this.auth = options.auth ? new OAuthSession(options.auth, new URL(options.url), () => this.loadFetch()) : undefined;
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
   * `connectTimeoutMs` (or `timeoutMs` when given).
   *
   * @throws the signal's reason when it aborts first.
   * @throws McpNetworkError when the server cannot be reached in time.
   */
  async fetch(request: WireRequest, signal: AbortSignal, timeoutMs = this.options.connectTimeoutMs ?? 30000): Promise<FetchResponse> {
    if (!this.auth) return this.send(request, signal, timeoutMs);
    // Each refusal is answered by signing in (or refreshing, or asking for
    // more scopes) and the request is sent again; a few rounds at most, as a
    // server that keeps refusing will not change its mind.
    // Ending a session is no reason to ask a person to sign in: DELETE takes the token as it is.
    const renew = request.method !== 'DELETE';
    for (let round = 1; ; round++) {
      const token = await this.auth.accessToken(signal, renew);
      const headers = token === undefined ? request.headers : { ...request.headers, Authorization: `Bearer ${token}` };
      // A token goes only to the URL it was issued for: no redirects with one.
      const response = await this.send({ ...request, headers, ...(token === undefined ? {} : { redirect: 'manual' }) }, signal, timeoutMs);
      const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
      const refused = response.status === 401 || (response.status === 403 && challenge.error === 'insufficient_scope');
      if (!refused || !renew) return response;
      await this.text(response).catch(() => undefined);
      if (round > MAX_AUTH_ROUNDS) {
        throw new McpAuthError('request', `${this.url} still refuses the request (HTTP ${response.status}${challenge.error ? ` ${challenge.error}` : ''}) after signing in`);
      }
      await this.auth.answer({ status: response.status as 401 | 403, challenge, sentToken: token }, signal);
    }
  }

  /** Where signing in stands, when the transport signs in. */
  get auth$(): Observable<AuthState> | undefined {
    return this.auth?.state$;
  }

  private async send(request: WireRequest & { redirect?: string }, signal: AbortSignal, timeoutMs: number): Promise<FetchResponse> {
    const fetchImpl = await this.loadFetch();
    const bounded = new BoundedSignal(signal, timeoutMs);
    try {
      return await fetchImpl(this.url, {
        ...request,
        signal: bounded.signal,
        ...(this.agents.length > 0 ? { agent: (url: URL) => this.agents[url.protocol === 'https:' ? 1 : 0] } : {}),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (bounded.timedOut) throw new McpNetworkError(this.url, `no response within ${timeoutMs} ms`);
      throw new McpNetworkError(this.url, `cannot reach the server: ${(error as Error).message}`, { cause: error });
    } finally {
      // The link to the caller's signal stays: the body may still be streaming.
      bounded.stopClock();
    }
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
  async *messages(response: FetchResponse, signal: AbortSignal, answering?: RequestId, cursor?: StreamCursor): AsyncGenerator<JsonRpcMessage> {
    if (isEventStream(response)) {
      const onRetry = cursor ? (ms: number) => (cursor.retryMs = ms) : undefined;
      try {
        for await (const event of readSse(response.body, { limit: this.limit, onRetry })) {
          if (cursor && event.id !== undefined) cursor.lastEventId = event.id;
          // An event without data primes the client with an id to resume from.
          if (event.data === '') continue;
          const decoded = decodeData(event.data);
          if (decoded) yield decoded;
          else this.warn(`skipped an SSE event that is not JSON-RPC: ${JSON.stringify(event.data.slice(0, 200))}`);
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof MessageTooLongError) throw this.tooLong();
        throw new McpNetworkError(this.url, `the response stream broke: ${(error as Error).message}`, { cause: error });
      }
      return;
    }
    const text = await this.text(response);
    const decoded = text ? decodeData(text) : undefined;
    if (decoded && ('result' in decoded || 'error' in decoded)) {
      // An error the server could not tie to an id still answers this POST.
      yield answering !== undefined && (decoded as JsonRpcResponse).id == null ? { ...decoded, id: answering } : decoded;
      return;
    }
    if (!response.ok) throw new McpHttpError(response.status, text.slice(0, 2000), this.url);
    if (text) throw new McpProtocolError(`${this.url} answered with something that is not a JSON-RPC response`, undefined, { body: text.slice(0, 2000) });
  }

  /** A whole body as text, within `maxMessageBytes`. */
  async text(response: FetchResponse): Promise<string> {
    try {
      return await readText(response, this.limit);
    } catch (error) {
      if (error instanceof MessageTooLongError) throw this.tooLong();
      throw error;
    }
  }

  warn(message: string): void {
    this.options.onWarn?.(message);
  }

  /** Lets go of kept-alive connections. */
  close(): void {
    this.auth?.close();
    for (const agent of this.agents) agent.destroy();
  }

  private loadFetch(): Promise<FetchLike> {
    this.fetchImpl ??= (async () => {
      if (this.options.fetch) return this.options.fetch;
      const module = await import('cross-fetch');
      const crossFetch = (module.default ?? module) as unknown as FetchLike;
      if (this.options.persistent !== false && typeof process !== 'undefined' && process.versions?.node) {
        const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
        this.agents = [new http.Agent({ keepAlive: true }), new https.Agent({ keepAlive: true })];
      }
      return crossFetch;
    })();
    return this.fetchImpl;
  }

  private get limit(): number {
    return this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE;
  }

  private tooLong(): McpProtocolError {
    return new McpProtocolError(`${this.url} sent a message longer than maxMessageBytes (${this.limit})`, undefined, { limit: this.limit });
  }
}

/** True when a response is an SSE stream rather than a single body. */
export function isEventStream(response: FetchResponse): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

// One JSON-RPC message from a body or an event; anything else is undefined.
function decodeData(text: string): JsonRpcMessage | undefined {
  const decoded = decodeLine(text);
  return decoded.kind === 'invalid' ? undefined : decoded.message;
}
