import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError, unreadableAnswer } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { decodeLine, type JsonRpcMessage, type JsonRpcRequest, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import { type HttpSink, type HttpWire, isEventStream } from './http-wire.js';
import { MessageTooLongError, readSse, readText } from './sse.js';

/** The most of a POST's acceptance ("Accepted") read before the connection is let go. */
const ACCEPTED_BODY_LIMIT = 64 * 1024;

/** One GET stream: the session the server keeps for as long as it stays open. */
interface Stream {
  readonly controller: AbortController;
  /** Where messages are POSTed, once the server's `endpoint` event names it. */
  readonly endpoint: Promise<string>;
}

/**
 * The HTTP+SSE binding of protocol 2024-11-05: a GET opens an event stream
 * whose first event, `endpoint`, names the URL every message is POSTed to;
 * everything the server sends (answers, its own requests, notifications)
 * comes as `message` events on that one stream. The stream is the session:
 * when it drops, the calls in flight fail, `dropped` is called, and the next
 * message opens a new stream, which must be initialized again.
 *
 * The endpoint must be on the stream's own origin, without credentials in
 * it: anything else would send the conversation somewhere the user never
 * named. Cancelling POSTs `notifications/cancelled`; closing lets go of the
 * stream, which is how the server learns the session is over.
 */
export class SseHttp {
  private stream: Stream | undefined;
  /** Requests sent on the current stream and not answered yet: a drop fails them. */
  private readonly inflight = new Map<RequestId, string>();
  /** Notifications and answers reach the server in the order they were sent, before any later message. */
  private notices: Promise<void> = Promise.resolve();
  /** Aborted by close(), with every POST still under way. */
  private readonly lifetime = new AbortController();
  private readonly posting = new Set<AbortController>();

  constructor(
    private readonly wire: HttpWire,
    private readonly sink: HttpSink,
    /** Called when an open stream drops: the server forgot the session. */
    private readonly dropped: (error: Error) => void,
  ) {}

  send(message: JsonRpcMessage): void {
    if (this.lifetime.signal.aborted) return;
    const kind = kindOf(message);
    // Serialised here, so that a message that cannot be fails as it is sent.
    const body = JSON.stringify(message);
    const stream = (this.stream ??= this.open());
    const request = kind === 'request' ? (message as JsonRpcRequest) : undefined;
    if (request) this.inflight.set(request.id, request.method);
    const before = this.notices;
    const posted = stream.endpoint.then(async (endpoint) => {
      await before;
      await this.post(endpoint, body);
    });
    if (!request) this.notices = posted.catch(() => undefined);
    posted.catch((error: unknown) => {
      if (this.lifetime.signal.aborted) return;
      if (!request) this.wire.warn(`${whatIs(message)} failed: ${(error as Error).message}`);
      else if (this.inflight.delete(request.id)) this.sink.fail(request.id, unreadableAnswer(request.method, error));
    });
  }

  cancel(id: RequestId, reason?: string): void {
    if (!this.inflight.delete(id)) return;
    const params: Record<string, unknown> = { requestId: id };
    if (reason !== undefined) params.reason = reason;
    this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
  }

  close(): void {
    const closed = new McpClientError('closed');
    this.lifetime.abort(closed);
    for (const controller of this.posting) controller.abort(closed);
    this.stream?.controller.abort(closed);
  }

  private open(): Stream {
    const controller = new AbortController();
    let found!: (endpoint: string) => void;
    let failed!: (error: Error) => void;
    const endpoint = new Promise<string>((resolve, reject) => {
      found = resolve;
      failed = reject;
    });
    // The messages waiting for it hear of a failure; nobody else need.
    endpoint.catch(() => undefined);
    const stream: Stream = { controller, endpoint };
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
      const response = await this.wire.fetch({ method: 'GET', headers: { ...this.wire.userHeaders(), Accept: 'text/event-stream' } }, signal);
      if (!isEventStream(response)) {
        const text = await this.wire.text(response).catch(() => '');
        throw new McpHttpError(response.status, text.slice(0, 2000), this.wire.url, { reason: 'the GET was not answered with an event stream' });
      }
      if (timeoutMs > 0) {
        timer = setTimeout(() => stream.controller.abort(new McpProtocolError(`${this.wire.url} sent no endpoint event within ${timeoutMs} ms`, undefined)), timeoutMs);
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
          this.take(event.data);
        }
        // Events of other types (a keep-alive of a server's own naming, say) carry nothing for MCP.
      }
      throw new McpNetworkError(this.wire.url, 'the server ended the event stream');
    } catch (caught) {
      clearTimeout(timer);
      let error = signal.aborted ? (signal.reason as Error) : (caught as Error);
      if (error instanceof MessageTooLongError) error = this.wire.tooLong();
      else if (!(error instanceof McpClientError)) error = new McpNetworkError(this.wire.url, `the event stream broke: ${error.message}`, { cause: error });
      // Lets go of the connection, whatever ended the reading.
      if (!signal.aborted) stream.controller.abort(error);
      if (this.stream === stream) this.stream = undefined;
      if (endpoint === undefined) failed(error);
      else if (!this.lifetime.signal.aborted) this.drop(error);
    }
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

  private take(data: string): void {
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
    if (kindOf(message) === 'response') this.inflight.delete((message as { id: RequestId }).id);
    this.sink.deliver(message);
  }

  // The server forgot the session with the stream: what was waiting on it never will be answered.
  private drop(error: Error): void {
    const lost = [...this.inflight.keys()];
    this.inflight.clear();
    this.notices = Promise.resolve();
    // A message the server should not have sent (one over maxMessageBytes) is the calls' error as it is.
    const failure = (): Error =>
      error instanceof McpProtocolError ? error : new McpNetworkError(this.wire.url, 'the event stream dropped before the answer; the next call starts a new session', { cause: error });
    for (const id of lost) this.sink.fail(id, failure());
    this.dropped(error);
  }

  /**
   * POSTs one message; the server takes it with 202 (or 200) and answers, if
   * at all, on the stream. Done once the server has answered: the body of an
   * acceptance is read (and dropped) in the background, within a bound, so a
   * body that never ends holds up no later message.
   */
  private async post(endpoint: string, body: string): Promise<void> {
    // A signal of its own, which close() aborts: the wire keeps a listener on
    // the signal it is given, so one signal for the whole session would
    // gather one per message.
    const controller = new AbortController();
    if (this.lifetime.signal.aborted) controller.abort(this.lifetime.signal.reason);
    this.posting.add(controller);
    let draining = false;
    try {
      const response = await this.wire.fetch({ method: 'POST', url: endpoint, headers: { ...this.wire.userHeaders(), 'Content-Type': 'application/json' }, body }, controller.signal);
      if (!response.ok) {
        const text = await this.wire.text(response);
        throw new McpHttpError(response.status, text.slice(0, 2000), endpoint);
      }
      draining = true;
      void readText(response, ACCEPTED_BODY_LIMIT)
        .catch(() => controller.abort(new McpClientError('the acceptance of a message went on too long')))
        .finally(() => this.posting.delete(controller));
    } finally {
      if (!draining) this.posting.delete(controller);
    }
  }
}

function whatIs(message: JsonRpcMessage): string {
  return 'method' in message ? `notification ${message.method}` : `the answer to server request ${JSON.stringify(message.id)}`;
}
