import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError, unreadableAnswer } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { MessageTooLongError, readText } from '../http/body.js';
import { decodeLine, type JsonRpcMessage, type JsonRpcRequest, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import { cancelledNotification } from '../protocol/request.js';
import { pause } from '../util/pause.js';
import { type HttpSink, type HttpWire, isEventStream, whatIsSent } from './http-wire.js';
import { type ReconnectBackoff, STABLE_STREAM_MS } from './reconnect-backoff.js';
import { readSse } from './sse.js';

/** The most of a response body read when it is not what was asked for (a refusal, an acceptance). */
const BODY_LIMIT = 64 * 1024;
/** How long the rest of a response body may take once its status is in: an acceptance is a word or two. */
const BODY_TIME_MS = 1000;
/** Answers to the server's own requests that may be on their way at once; past that, a flood: dropped. */
const MAX_ANSWERS_UNDER_WAY = 64;

/** One GET stream: the session the server keeps for as long as it stays open. */
interface Stream {
  readonly controller: AbortController;
  /** Where messages are POSTed, once the server's `endpoint` event names it. */
  readonly endpoint: Promise<string>;
  /** True once the server answered a request on it: only then is its end a session lost. */
  answered: boolean;
}

/** A request sent on the current stream and not answered yet. */
interface Pending {
  /** True once its POST began: a cancellation must then reach the server, after it. */
  started: boolean;
  /** Settles once the server accepted (or refused) its POST. */
  accepted?: Promise<void>;
}

/**
 * The HTTP+SSE binding of protocol 2024-11-05: a GET opens an event stream
 * whose first event, `endpoint`, names the URL every message is POSTed to;
 * everything the server sends (answers, its own requests, notifications)
 * comes as `message` events on that one stream. The stream is the session:
 * when it drops, `dropped` is called, the calls in flight fail, and the next
 * message opens a new stream (paced by the wire's backoff while streams keep
 * ending soon after they opened), which must be initialized again.
 *
 * The endpoint must be on the stream's own origin, without credentials in
 * it: anything else would send the conversation somewhere the user never
 * named. Cancelling drops a request not POSTed yet, and otherwise POSTs
 * `notifications/cancelled` once the request's own POST was accepted; closing
 * lets go of the stream, which is how the server learns the session is over.
 */
export class SseHttp {
  private stream: Stream | undefined;
  private readonly inflight = new Map<RequestId, Pending>();
  /** Notifications reach the server in the order they were sent, before any later request. */
  private notices: Promise<void> = Promise.resolve();
  /** Aborted by close(), with every POST still under way. */
  private readonly lifetime = new AbortController();
  private readonly posting = new Set<AbortController>();
  private answersUnderWay = 0;
  private flooded = false;
  /** Paces new streams after dropped ones; a wait is owed once a stream dropped. */
  private readonly backoff: ReconnectBackoff;
  private owed: number | 'gave up' | undefined;

  constructor(
    private readonly wire: HttpWire,
    private readonly sink: HttpSink,
    /** Called when an open session's stream drops: the server forgot the session. */
    private readonly dropped: (error: Error) => void,
  ) {
    this.backoff = wire.backoff();
  }

  send(message: JsonRpcMessage): void {
    if (this.lifetime.signal.aborted) return;
    const kind = kindOf(message);
    // Serialised here, so that a message that cannot be fails as it is sent.
    const body = JSON.stringify(message);
    if (kind === 'request') return this.request(message as JsonRpcRequest, body);
    if (kind === 'notification') return this.notify(message, body);
    this.answer(message, body);
  }

  cancel(id: RequestId, reason?: string): void {
    const pending = this.inflight.get(id);
    if (!pending) return;
    this.inflight.delete(id);
    // A request that never reached the server needs no word; one that did is
    // told of after it, or the server would not know what is cancelled.
    if (!pending.started) return;
    void pending.accepted?.then(
      () => this.send(cancelledNotification(id, reason)),
      () => undefined,
    );
  }

  close(): void {
    const closed = new McpClientError('closed');
    this.lifetime.abort(closed);
    for (const controller of this.posting) controller.abort(closed);
    this.stream?.controller.abort(closed);
  }

  private request(request: JsonRpcRequest, body: string): void {
    const stream = this.current();
    const pending: Pending = { started: false };
    this.inflight.set(request.id, pending);
    const before = this.notices;
    const accepted = stream.endpoint.then(async (endpoint) => {
      await before;
      // Cancelled (or lost with its stream) before its POST could begin: nothing to send.
      if (this.inflight.get(request.id) !== pending) return;
      pending.started = true;
      await this.post(stream, endpoint, body);
    });
    pending.accepted = accepted;
    accepted.catch((error: unknown) => {
      if (this.lifetime.signal.aborted || this.inflight.get(request.id) !== pending) return;
      this.inflight.delete(request.id);
      this.sink.fail(request.id, unreadableAnswer(request.method, error));
    });
  }

  private notify(message: JsonRpcMessage, body: string): void {
    const stream = this.current();
    const before = this.notices;
    const posted = stream.endpoint.then(async (endpoint) => {
      await before;
      await this.post(stream, endpoint, body);
    });
    this.notices = posted.catch(() => undefined);
    posted.catch((error: unknown) => this.failed(message, error));
  }

  // An answer to the server's own request waits for nothing else; a server
  // that asks faster than it accepts the answers loses the ones past the bound.
  private answer(message: JsonRpcMessage, body: string): void {
    if (this.answersUnderWay >= MAX_ANSWERS_UNDER_WAY) {
      if (!this.flooded) this.wire.warn(`dropped answers to the server's requests: ${MAX_ANSWERS_UNDER_WAY} are still on their way`);
      this.flooded = true;
      return;
    }
    this.answersUnderWay++;
    const stream = this.current();
    stream.endpoint
      .then((endpoint) => this.post(stream, endpoint, body))
      .catch((error: unknown) => this.failed(message, error))
      .finally(() => {
        if (--this.answersUnderWay === 0) this.flooded = false;
      });
  }

  private failed(message: JsonRpcMessage, error: unknown): void {
    if (this.lifetime.signal.aborted) return;
    this.wire.warn(`${whatIsSent(message)} failed: ${(error as Error).message}`);
  }

  private current(): Stream {
    if (this.stream) return this.stream;
    const controller = new AbortController();
    let found!: (endpoint: string) => void;
    let failed!: (error: Error) => void;
    const endpoint = new Promise<string>((resolve, reject) => {
      found = resolve;
      failed = reject;
    });
    // The messages waiting for it hear of a failure; nobody else need.
    endpoint.catch(() => undefined);
    const stream: Stream = { controller, endpoint, answered: false };
    this.stream = stream;
    void this.read(stream, found, failed);
    return stream;
  }

  // Opens the stream and reads it to its end: the endpoint first, within the
  // connect timeout, then every message for as long as the server keeps it open.
  private async read(stream: Stream, found: (endpoint: string) => void, failed: (error: Error) => void): Promise<void> {
    const { signal } = stream.controller;
    const timeoutMs = this.wire.connectTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let endpoint: string | undefined;
    try {
      await this.paced(signal);
      const response = await this.wire.fetch({ method: 'GET', headers: { ...this.wire.userHeaders(), Accept: 'text/event-stream' } }, signal);
      // From the first byte, the endpoint is owed within the connect timeout, whatever comes instead.
      if (timeoutMs > 0) {
        timer = setTimeout(() => stream.controller.abort(new McpProtocolError(`${this.wire.url} sent no endpoint event within ${timeoutMs} ms`, undefined)), timeoutMs);
      }
      if (!isEventStream(response)) {
        const text = await readText(response, BODY_LIMIT).catch(() => '');
        throw new McpHttpError(response.status, text.slice(0, 2000), this.wire.url, { reason: 'the GET was not answered with an event stream' });
      }
      for await (const event of readSse(response.body, { limit: this.wire.maxMessageBytes })) {
        if (endpoint === undefined) {
          if (event.event !== 'endpoint') {
            throw new McpProtocolError(`${this.wire.url} began its event stream with ${JSON.stringify(event.event ?? 'message')}, not endpoint: not an HTTP+SSE server`, undefined);
          }
          clearTimeout(timer);
          endpoint = this.endpointOf(event.data);
          found(endpoint);
        } else if (event.event === 'endpoint') {
          this.wire.warn(`ignored a second endpoint event: ${JSON.stringify(event.data.slice(0, 200))}`);
        } else if (event.event === undefined || event.event === 'message') {
          this.take(stream, event.data);
        }
        // Events of other types (a keep-alive of a server's own naming, say) carry nothing for MCP.
      }
      throw new McpNetworkError(this.wire.url, 'the server ended the event stream');
    } catch (caught) {
      clearTimeout(timer);
      let error = caught instanceof McpClientError || !signal.aborted ? (caught as Error) : (signal.reason as Error);
      if (error instanceof MessageTooLongError) error = this.wire.tooLong();
      else if (!(error instanceof McpClientError)) error = new McpNetworkError(this.wire.url, `the event stream broke: ${error.message}`, { cause: error });
      // Lets go of the connection, whatever ended the reading.
      if (!signal.aborted) stream.controller.abort(error);
      if (this.stream === stream) this.stream = undefined;
      if (endpoint === undefined) failed(error);
      else if (!this.lifetime.signal.aborted) this.drop(stream, error);
    }
  }

  // Waits out what a dropped stream left owed before the next one opens: a
  // server that hangs up at once, again and again, is not re-opened at its pace.
  private async paced(signal: AbortSignal): Promise<void> {
    const owed = this.owed;
    this.owed = undefined;
    if (owed === 'gave up') {
      throw new McpNetworkError(this.wire.url, `gave up opening sessions: ${this.backoff.attempts} event streams in a row ended within ${STABLE_STREAM_MS / 1000} s; the next call tries again`);
    }
    if (owed !== undefined) await pause(owed, signal);
    this.backoff.opening();
  }

  // The URL the endpoint event names, resolved against the stream's.
  private endpointOf(data: string): string {
    const refuse = (why: string) => new McpProtocolError(`${this.wire.url} named an endpoint ${why}: ${JSON.stringify(data.slice(0, 200))}`, undefined);
    let url: URL;
    try {
      url = new URL(data.trim(), this.wire.url);
    } catch {
      throw refuse('that is not a URL');
    }
    if (url.origin !== new URL(this.wire.url).origin) throw refuse('on another origin, where nothing is sent');
    if (url.username !== '' || url.password !== '') throw refuse('with credentials in it');
    return url.href;
  }

  private take(stream: Stream, data: string): void {
    const decoded = decodeLine(data);
    if (decoded.kind === 'invalid') {
      this.wire.warn(`skipped an SSE event that is not JSON-RPC: ${JSON.stringify(data.slice(0, 200))}`);
      // An answer that names its request but cannot be read ends that call now, not at its timeout.
      if (decoded.answers !== undefined && this.inflight.delete(decoded.answers)) {
        this.sink.fail(decoded.answers, new McpProtocolError(`the server sent a ${decoded.reason}`, undefined, { reason: decoded.reason }));
      }
      return;
    }
    const { message } = decoded;
    if (kindOf(message) === 'response') {
      stream.answered = true;
      this.inflight.delete((message as { id: RequestId }).id);
    }
    this.sink.deliver(message);
  }

  // The server forgot the session with the stream: the client hears of it
  // first (so that what re-opens on a restart does, rather than fail), then
  // what was waiting on it fails, as it will never be answered.
  private drop(stream: Stream, error: Error): void {
    const lost = [...this.inflight.keys()];
    this.inflight.clear();
    this.notices = Promise.resolve();
    this.owed = this.backoff.next(undefined) ?? 'gave up';
    if (stream.answered) this.dropped(error);
    // A message the server should not have sent (one over maxMessageBytes) is the calls' error as it is.
    const failure = (): Error =>
      error instanceof McpProtocolError ? error : new McpNetworkError(this.wire.url, 'the event stream dropped before the answer; the next call starts a new session', { cause: error });
    for (const id of lost) this.sink.fail(id, failure());
  }

  /**
   * POSTs one message; the server takes it with 202 (or 200) and answers, if
   * at all, on the stream. Done once the server has accepted it: the body of
   * the acceptance is read (and dropped) in the background, bounded in size
   * and time (a second), so one that never ends holds up nothing, and its
   * connection not for long. A
   * 404 means the server no longer knows the session: the stream is let go.
   */
  private async post(stream: Stream, endpoint: string, body: string): Promise<void> {
    // A signal of its own, which close() aborts: the wire keeps a listener on
    // the signal it is given, so one signal for the whole session would
    // gather one per message.
    const controller = new AbortController();
    if (this.lifetime.signal.aborted) controller.abort(this.lifetime.signal.reason);
    this.posting.add(controller);
    const response = await this.wire
      .fetch({ method: 'POST', url: endpoint, headers: { ...this.wire.userHeaders(), 'Content-Type': 'application/json' }, body }, controller.signal)
      .catch((error: unknown) => {
        this.posting.delete(controller);
        throw error;
      });
    const timer = setTimeout(() => controller.abort(new McpNetworkError(endpoint, `the body of a response did not end within ${BODY_TIME_MS} ms`)), BODY_TIME_MS);
    const rest = readText(response, BODY_LIMIT).finally(() => {
      clearTimeout(timer);
      this.posting.delete(controller);
    });
    if (response.ok) {
      rest.catch(() => controller.abort(new McpClientError('the body of an acceptance went on too long')));
      return;
    }
    const text = await rest.catch(() => '');
    if (response.status === 404) stream.controller.abort(new McpNetworkError(this.wire.url, 'the server no longer knows the session (HTTP 404 to a POST)'));
    throw new McpHttpError(response.status, text.slice(0, 2000), endpoint);
  }
}
