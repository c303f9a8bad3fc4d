import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError, unreadableAnswer } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { isAnswerTo, isErrorResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import { buildNotification, buildRequest, cancelledNotification } from '../protocol/request.js';
import type { FetchResponse } from '../http/fetch-like.js';
import { type HttpSink, type HttpWire, isEventStream, whatIsSent } from './http-wire.js';
import type { StreamCursor } from './sse-messages.js';
import { type ReconnectBackoff, STABLE_STREAM_MS } from './reconnect-backoff.js';
import { type AbortLike, LightAbort } from '../util/light-abort.js';
import { pause } from '../util/pause.js';

/** The budget of the DELETE that ends the session on close. */
const DELETE_MS = 5000;
/** How long requests wait for the GET stream to be answered before going ahead without it. */
const LISTEN_WAIT_MS = 1000;
const SESSION_ID = /^[\x21-\x7e]+$/;
/** Why a request's exchange is aborted once it is over (nobody reads it): made once, as an error's stack costs a few µs a call. */
const ANSWERED = new McpClientError('answered');

type Kind = ReturnType<typeof kindOf>;

/**
 * The 2025-11-25 binding, which the client falls into when the era probe
 * sends `initialize`: the session the server assigns (`Mcp-Session-Id`) and
 * the negotiated `MCP-Protocol-Version` go on every later request; the
 * server's own requests arrive on SSE streams and are answered by POSTing
 * responses; a GET stream carries what is unrelated to any request; a broken
 * stream with event ids is resumed with `Last-Event-ID` after the server's
 * `retry` (paced by the wire's backoff, as the GET stream is); cancelling sends `notifications/cancelled`; a 404 on an expired
 * session starts a new one (the handshake and the session's settings
 * replayed) and retries once; `close()` DELETEs the session.
 */
export class LegacyHttp {
  private sessionId: string | undefined;
  private version: string | undefined;
  /** The session's setup, replayed to start a new session after a 404. */
  private initialize: JsonRpcRequest | undefined;
  private logLevel: JsonRpcRequest | undefined;
  private readonly subscribed = new Set<string>();
  private readonly inflight = new Map<RequestId, LightAbort>();
  private listening: AbortController | undefined;
  /** Set while a new GET stream is not answered yet: requests wait for it (see listen()). */
  private opening: Promise<void> | undefined;
  private renewing: Promise<void> | undefined;
  /** True when a new session could not be started: the next request tries again. */
  private lost = false;
  /** Work close() must stop besides requests: notifications, answers, a session's renewal. */
  private readonly open = new Set<AbortController>();
  private closed = false;
  private replays = 0;
  /** The server's requests that came on a request's own stream, with that request's id. */
  private readonly carriers = new WeakMap<JsonRpcMessage, RequestId>();

  constructor(
    private readonly wire: HttpWire,
    private readonly sink: HttpSink,
    /** Told each time the GET stream opens (true) or is lost, refused or replaced (false). */
    private readonly hearing: (open: boolean) => void = () => undefined,
  ) {}

  send(message: JsonRpcMessage): void {
    const kind = kindOf(message);
    if (kind !== 'request') {
      const posted = this.post(message, kind);
      posted.catch((error: unknown) => this.wire.warn(`${whatIsSent(message)} failed: ${(error as Error).message}`));
      // The GET stream opens once the server knows the client is ready; the requests that follow wait for it.
      if ((message as { method?: string }).method === 'notifications/initialized') {
        void this.hold(posted.then(() => this.listen(), () => undefined));
      }
      return;
    }
    const request = message as JsonRpcRequest;
    // Serialised here, so that a request that cannot be (arguments nested too
    // deep, say) fails as the caller sends it.
    const body = JSON.stringify(request);
    const controller = new LightAbort();
    this.inflight.set(request.id, controller);
    void this.run(request, body, controller);
  }

  /** The id of the request whose response stream carried this server request; `undefined` for one from the GET stream. */
  carrierOf(request: JsonRpcMessage): RequestId | undefined {
    return this.carriers.get(request);
  }

  cancel(id: RequestId, reason?: string): void {
    const controller = this.inflight.get(id);
    if (!controller) return;
    // In this era hanging up is not cancelling: the server is told, then the stream let go.
    this.send(cancelledNotification(id, reason));
    controller.abort(new McpClientError('cancelled'));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const controller of [...this.inflight.values(), ...this.open, this.listening]) controller?.abort(new McpClientError('closed'));
    if (this.sessionId === undefined) return;
    try {
      // 405 means the server keeps sessions to itself; either way the client is done with it.
      const response = await this.wire.fetch({ method: 'DELETE', headers: this.headers() }, new AbortController().signal, DELETE_MS);
      await this.wire.text(response).catch(() => undefined);
    } catch (error) {
      this.wire.warn(`ending the session failed: ${(error as Error).message}`);
    }
  }

  // One request, its answer or its failure handed on. One async function
  // rather than a chain of then, catch and finally: a promise and a turn of
  // the microtask queue each, for every call.
  private async run(request: JsonRpcRequest, body: string, controller: LightAbort): Promise<void> {
    try {
      this.sink.deliver(await this.exchange(request, body, controller));
    } catch (error) {
      // An aborted request was cancelled or closed: nobody waits for it.
      if (!controller.aborted) this.sink.fail(request.id, unreadableAnswer(request.method, error));
    } finally {
      this.inflight.delete(request.id);
      // Lets go of a stream the server left open after its answer (rxmcp's own requests do that by themselves).
      if (!this.wire.letsGoOfBodies) controller.abort(ANSWERED);
    }
  }

  // One request to its answer, with its effects on the session recorded; a
  // 404 on an expired session starts a new one and tries once more.
  private async exchange(request: JsonRpcRequest, body: string, signal: AbortLike, renewed = false): Promise<JsonRpcResponse> {
    if (this.opening) await this.opening;
    if (this.lost) await this.renew();
    const session = this.sessionId;
    const answer = await this.roundTrip(request, body, signal, session !== undefined);
    if (answer === 'expired') {
      if (renewed) throw new McpHttpError(404, 'the session ended again right after a new one started', this.wire.url);
      // Requests that meet the same expiry share one renewal.
      await (this.sessionId === session ? this.renew() : this.renewing);
      return this.exchange(request, body, signal, true);
    }
    if (!isErrorResponse(answer)) this.record(request);
    return answer;
  }

  // Remembers what a new session must be told again.
  private record(request: JsonRpcRequest): void {
    const uri = request.params?.uri;
    if (request.method === 'initialize') this.initialize = request;
    else if (request.method === 'logging/setLevel') this.logLevel = request;
    else if (request.method === 'resources/subscribe' && typeof uri === 'string') this.subscribed.add(uri);
    else if (request.method === 'resources/unsubscribe' && typeof uri === 'string') this.subscribed.delete(uri);
  }

  /** POSTs a request and follows its stream to the answer; 'expired' for a 404 on a session. */
  private async roundTrip(request: JsonRpcRequest, body: string, signal: AbortLike, inSession: boolean): Promise<JsonRpcResponse | 'expired'> {
    const response = await this.wire.fetch({ method: 'POST', headers: this.headers(request), body }, signal);
    if (response.status === 404 && inSession && request.method !== 'initialize') {
      await this.wire.text(response).catch(() => undefined);
      return 'expired';
    }
    if (request.method === 'initialize' && response.ok) this.takeSession(response);
    const answer = await this.follow(response, request, signal);
    if (request.method === 'initialize' && !isErrorResponse(answer)) {
      const version = (answer.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') this.version = version;
    }
    return answer;
  }

  private takeSession(response: FetchResponse): void {
    const id = response.headers.get('mcp-session-id');
    if (id === null) return;
    if (!SESSION_ID.test(id)) {
      throw new McpProtocolError(`${this.wire.url} assigned a session id that is not visible ASCII`, undefined);
    }
    this.sessionId = id;
  }

  // Reads a request's stream to its answer, passing on what comes before it.
  // A stream that breaks or ends early is resumed from its last event id,
  // until too many resumed streams in a row end soon after opening.
  private async follow(first: FetchResponse, request: JsonRpcRequest, signal: AbortLike): Promise<JsonRpcResponse> {
    const cursor: StreamCursor = {};
    const opened = Date.now();
    // Made only once a stream breaks: most answers come on the first one.
    let backoff: ReconnectBackoff | undefined;
    for (let response = first; ; ) {
      let broken: Error | undefined;
      try {
        for await (const message of this.wire.messages(response, signal, request.id, cursor)) {
          if (isAnswerTo(message, request.id)) return message;
          if ('id' in message) this.carriers.set(message, request.id);
          this.take(message, request.method);
        }
      } catch (error) {
        if (!(error instanceof McpNetworkError) || signal.aborted) throw error;
        broken = error;
      }
      const ended = broken ?? new McpNetworkError(this.wire.url, `the response to ${request.method} ended before its answer`);
      if (cursor.lastEventId === undefined) throw ended;
      backoff ??= this.wire.backoff(opened);
      const wait = backoff.next(cursor.retryMs);
      if (wait === undefined) {
        throw new McpNetworkError(this.wire.url, `gave up resuming the response to ${request.method}: ${backoff.attempts} streams in a row ended within ${STABLE_STREAM_MS / 1000} s`, { cause: ended });
      }
      await pause(wait, signal);
      backoff.opening();
      response = await this.resume(cursor.lastEventId, signal);
    }
  }

  private async resume(lastEventId: string, signal: AbortLike): Promise<FetchResponse> {
    const response = await this.wire.fetch({ method: 'GET', headers: this.headers(undefined, lastEventId) }, signal);
    if (!isEventStream(response)) {
      const body = await this.wire.text(response).catch(() => '');
      throw new McpHttpError(response.status, body.slice(0, 2000), this.wire.url);
    }
    return response;
  }

  // A message that is not the answer being waited for: the server's
  // requests and notifications go to the client, anything else is dropped.
  private take(message: JsonRpcMessage, where: string): void {
    if ('method' in message) this.sink.deliver(message);
    else this.wire.warn(`dropped an answer on the ${where} stream that is not for it`);
  }

  /**
   * The GET stream, for what the server sends outside any request; re-opened
   * when it drops. Settles once the server has answered the first GET (or
   * refused it, or the attempt failed): a server drops what it sends there
   * before the stream is open, so what it sends in answer to the first
   * requests (a question asked outside the call, a list change) would be lost.
   */
  private listen(): Promise<void> {
    this.listening?.abort(new McpClientError('replaced'));
    this.hearing(false);
    if (this.closed) return Promise.resolve();
    const controller = new AbortController();
    this.listening = controller;
    // Every way through the first attempt calls `answered`.
    return new Promise((answered) => void this.listenUntil(controller.signal, answered));
  }

  // Requests wait for `opening`, but not past LISTEN_WAIT_MS: a server (or a
  // proxy) that holds back the GET stream's headers slows the first request
  // down, and nothing more.
  private hold(opening: Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bounded = Promise.race([opening, new Promise<void>((resolve) => (timer = setTimeout(resolve, LISTEN_WAIT_MS)))]).finally(() => {
      clearTimeout(timer);
      if (this.opening === bounded) this.opening = undefined;
    });
    this.opening = bounded;
    return bounded;
  }

  private async listenUntil(signal: AbortSignal, answered: () => void): Promise<void> {
    const cursor: StreamCursor = {};
    const backoff = this.wire.backoff();
    while (!signal.aborted) {
      backoff.opening();
      try {
        const response = await this.wire.fetch({ method: 'GET', headers: this.headers(undefined, cursor.lastEventId) }, signal);
        answered();
        if (!isEventStream(response)) {
          await this.wire.text(response).catch(() => undefined);
          // 405: the server offers no such stream. Anything else: the next request finds out what is wrong.
          if (response.status !== 405) this.wire.warn(`the server refused the GET stream with HTTP ${response.status}`);
          return;
        }
        this.hearing(true);
        for await (const message of this.wire.messages(response, signal, undefined, cursor)) this.take(message, 'GET');
      } catch (error) {
        answered();
        if (signal.aborted) return;
        this.hearing(false);
        // A redirect the wire will not follow is refused the same way next time.
        if (error instanceof McpHttpError) {
          this.wire.warn(`gave up on the GET stream: ${error.message}`);
          return;
        }
        this.wire.warn(`the GET stream broke: ${(error as Error).message}`);
      }
      // Whatever the server sends before the stream is open again is lost.
      this.hearing(false);
      const wait = backoff.next(cursor.retryMs);
      if (wait === undefined) {
        this.wire.warn(`gave up re-opening the GET stream: ${backoff.attempts} streams in a row ended within ${STABLE_STREAM_MS / 1000} s`);
        return;
      }
      await pause(wait, signal).catch(() => undefined);
    }
  }

  // A new session after the server ended the old one: the handshake again,
  // then the log level and resource subscriptions the old session had. If
  // that fails, the next request tries again.
  private renew(): Promise<void> {
    const renewing = (this.renewing ??= this.startAgain()
      .then(
        () => {
          this.lost = false;
        },
        (error: unknown) => {
          this.lost = true;
          throw error;
        },
      )
      .finally(() => (this.renewing = undefined)));
    return renewing;
  }

  private startAgain(): Promise<void> {
    this.wire.warn('the server ended the session; starting a new one');
    this.listening?.abort(new McpClientError('session ended'));
    this.hearing(false);
    this.sessionId = undefined;
    return this.whileOpen((signal) => this.replaySession(signal));
  }

  private async replaySession(signal: AbortSignal): Promise<void> {
    const replay = async (request: JsonRpcRequest | undefined): Promise<void> => {
      if (!request) return;
      const again = { ...request, id: `rxmcp-session-${++this.replays}` };
      const answer = await this.roundTrip(again, JSON.stringify(again), signal, false);
      if (answer === 'expired' || isErrorResponse(answer)) {
        throw new McpClientError(`starting a new session failed: the server refused ${request.method}`, { cause: answer });
      }
    };
    await replay(this.initialize);
    await this.post(buildNotification('notifications/initialized'), 'notification');
    await this.hold(this.listen());
    await replay(this.logLevel);
    for (const uri of this.subscribed) await replay(buildRequest(0, 'resources/subscribe', { uri }, undefined));
  }

  /** POSTs a notification or a response, which the server accepts with 202. */
  private post(message: JsonRpcMessage, kind: Kind): Promise<void> {
    return this.whileOpen(async (signal) => {
      const response = await this.wire.fetch({ method: 'POST', headers: this.headers(message), body: JSON.stringify(message) }, signal);
      const body = await this.wire.text(response);
      if (!response.ok) throw new McpHttpError(response.status, body.slice(0, 2000), this.wire.url);
      if (kind === 'response' && body) this.wire.warn(`the server answered a response with a body: ${JSON.stringify(body.slice(0, 200))}`);
    });
  }

  // Runs work under a signal that close() aborts.
  private async whileOpen<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (this.closed) controller.abort(new McpClientError('closed'));
    this.open.add(controller);
    try {
      return await work(controller.signal);
    } finally {
      this.open.delete(controller);
    }
  }

  // POSTs carry the content types; all carry the session and the
  // negotiated version once there are any (initialize carries neither).
  private headers(message?: JsonRpcMessage, lastEventId?: string): Record<string, string> {
    const initializing = (message as { method?: string } | undefined)?.method === 'initialize';
    const headers = message ? this.wire.postHeaders() : { ...this.wire.userHeaders(), Accept: 'text/event-stream' };
    if (!initializing && this.version !== undefined) headers['MCP-Protocol-Version'] = this.version;
    if (!initializing && this.sessionId !== undefined) headers['Mcp-Session-Id'] = this.sessionId;
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    return headers;
  }
}
