import { McpClientError } from '../errors/mcp-client-error.js';
import { unreadableAnswer } from '../errors/protocol-errors.js';
import { McpNetworkError } from '../errors/transport-errors.js';
import { DEFAULT_LIST_LIMITS, type ListLimits, ListWalk } from '../protocol/list-walk.js';
import { isAnswerTo, isErrorResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import { ErrorCode } from '../protocol/versions.js';
import { quote } from '../util/quote.js';
import { encodeHeaderValue, type ParamHeader, paramHeaders, paramValue } from './header-encoding.js';
import { type HttpSink, type HttpWire, isEventStream } from './http-wire.js';
import { type AbortLike, LightAbort } from '../util/light-abort.js';

// The tasks extension routes a task's requests by its id (Mcp-Name = params.taskId).
const NAMED_METHODS: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
/** Why a request's exchange is aborted once it is over (nobody reads it): made once, as an error's stack costs a few µs a call. */
const ANSWERED = new McpClientError('answered');
/** How long the body of a notification's response may take once its status is in: it should have none. */
const NOTIFY_BODY_MS = 1000;

/**
 * A `subscriptions/listen` stream is never re-issued here: its request id is
 * its subscription id, which the listener matches notifications by, and a
 * stream that ends is the listener's to see (it completes or fails).
 */
const LISTEN = 'subscriptions/listen';

/** A response stream that ended or broke before the answer came: the request is lost, not answered. */
class BrokenStream extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * The 2026-07-28 binding: every message its own POST, the answer a JSON body
 * or an SSE stream scoped to that request (notifications first, then the
 * answer), routing fields mirrored into headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-*` from tools' `x-mcp-header`
 * annotations, learnt from the `tools/list` answers that pass through).
 * Cancelling a request aborts its POST, which the server sees as the
 * cancellation. A request whose SSE response ends or breaks before its
 * answer is sent once more as a new request with a new id (the era has no
 * resumability); the caller's budget bounds both, since ending the call
 * aborts whichever POST is running.
 */
export class ModernHttp {
  private readonly inflight = new Map<RequestId, LightAbort>();
  private readonly toolHeaders = new Map<string, ParamHeader[]>();
  private refreshes = 0;
  private reissues = 0;
  /** The bounds of the tool list read again after a header mismatch: the client's, once it says. */
  listLimits: ListLimits = DEFAULT_LIST_LIMITS;

  constructor(
    private readonly wire: HttpWire,
    private readonly sink: HttpSink,
  ) {}

  send(message: JsonRpcMessage): void {
    const kind = kindOf(message);
    // A modern server asks its questions inside results: the client never answers a request here.
    if (kind === 'response') return;
    if (kind === 'notification') {
      void this.notify(message);
      return;
    }
    const request = message as JsonRpcRequest;
    const { id } = request;
    // Serialised here, so that a request that cannot be (arguments nested too
    // deep, say) fails as the caller sends it.
    const body = JSON.stringify(request);
    const controller = new LightAbort();
    this.inflight.set(id, controller);
    void this.run(request, body, controller);
  }

  cancel(id: RequestId): void {
    this.inflight.get(id)?.abort(new McpClientError('cancelled'));
  }

  close(): void {
    for (const controller of this.inflight.values()) controller.abort(new McpClientError('closed'));
  }

  // Whatever escapes the exchange (a hostile answer the client failed on
  // while reading it) ends this one call, never the process. One async
  // function rather than a chain of catch and finally: a promise and a turn
  // of the microtask queue each, for every call.
  private async run(request: JsonRpcRequest, body: string, controller: LightAbort): Promise<void> {
    try {
      await this.exchange(request, body, controller);
    } catch (error) {
      if (!controller.aborted) this.sink.fail(request.id, unreadableAnswer(request.method, error));
    } finally {
      this.inflight.delete(request.id);
      // Lets go of a stream the server left open after its answer (rxmcp's own requests do that by themselves).
      if (!this.wire.letsGoOfBodies) controller.abort(ANSWERED);
    }
  }

  // One request, to its answer or its failure; one retry after a
  // HeaderMismatch on tools/call, with the tool list read afresh; and one
  // re-issue, as a new request with a new id, when its response stream broke
  // (2026-07-28 basic/transports: the era has no resumability, so a broken
  // stream loses the request). `original` is the id the caller filed it
  // under, which the answer is handed back with.
  private async exchange(request: JsonRpcRequest, body: string, signal: AbortLike, retried = false, original: RequestId = request.id): Promise<void> {
    let answer: JsonRpcResponse | undefined;
    try {
      answer = await this.post(request, signal, body);
    } catch (error) {
      // An aborted request was cancelled or closed (its budget ran out, say): nobody waits for it.
      if (signal.aborted) return;
      if (error instanceof BrokenStream) {
        if (request.id === original && request.method !== LISTEN) {
          const again: JsonRpcRequest = { ...request, id: `rxmcp-reissue-${++this.reissues}` };
          return this.exchange(again, JSON.stringify(again), signal, retried, original);
        }
        const reissued = request.id === original ? '' : ', and again once re-issued as a new request';
        this.sink.fail(original, new McpNetworkError(this.wire.url, `${error.message}${reissued}`, { cause: error.cause }));
        return;
      }
      this.sink.fail(original, error as Error);
      return;
    }
    if (!answer) {
      if (!signal.aborted) this.sink.fail(original, new McpNetworkError(this.wire.url, `the response to ${request.method} ended before its answer`));
      return;
    }
    if (request.method === 'tools/call' && !retried && isErrorResponse(answer) && answer.error.code === ErrorCode.HeaderMismatch) {
      // A list past its bounds, or a wire that broke, ends the call (thrown);
      // a list the server refused leaves the mismatch as the answer.
      const refreshed = await this.refreshTools(request, signal);
      if (refreshed && !signal.aborted) return this.exchange(request, body, signal, true, original);
    }
    if (request.method === 'tools/list' && !isErrorResponse(answer)) answer = this.learnTools(answer);
    // A re-issued request's answer goes back under the id its caller knows.
    this.sink.deliver(answer.id === original ? answer : { ...answer, id: original });
  }

  private async notify(message: JsonRpcMessage): Promise<void> {
    const method = (message as { method: string }).method;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const response = await this.wire.fetch({ method: 'POST', headers: this.headersFor(message), body: JSON.stringify(message) }, controller.signal);
      // A notification is answered with 202 and no body: one that keeps a
      // body coming would hold a connection (and what it sends) for as long
      // as it liked, once per notification.
      timer = setTimeout(() => controller.abort(new McpNetworkError(this.wire.url, `the response to a notification did not end within ${NOTIFY_BODY_MS} ms`)), NOTIFY_BODY_MS);
      for await (const _ of this.wire.messages(response, controller.signal)) {
        // Nothing in it is an answer to anything.
      }
    } catch (error) {
      this.wire.warn(`notification ${method} failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  // POSTs a request, and reads its response to the answer, passing on the
  // notifications that come before it. An SSE stream that ends or breaks
  // first throws BrokenStream; a JSON body without the answer gives undefined.
  private async post(request: JsonRpcRequest, signal: AbortLike, body = JSON.stringify(request)): Promise<JsonRpcResponse | undefined> {
    const response = await this.wire.fetch({ method: 'POST', headers: this.headersFor(request), body }, signal);
    // A JSON body is the one message: read without walking a stream.
    if (!isEventStream(response)) {
      const message = await this.wire.answerIn(response, request.id);
      return message && this.answerOrPass(message, request);
    }
    try {
      for await (const message of this.wire.messages(response, signal, request.id)) {
        const answer = this.answerOrPass(message, request);
        if (answer) return answer;
      }
    } catch (error) {
      // The stream broke under us (a reset, a cut): not a bad answer, a lost one.
      if (!signal.aborted && error instanceof McpNetworkError) throw new BrokenStream(`the response stream of ${request.method} broke before its answer: ${error.message}`, error);
      throw error;
    }
    throw new BrokenStream(`the response to ${request.method} ended before its answer`);
  }

  // The message when it answers the request; otherwise passed on (a notification) or dropped.
  private answerOrPass(message: JsonRpcMessage, request: JsonRpcRequest): JsonRpcResponse | undefined {
    if (isAnswerTo(message, request.id)) return message;
    if (kindOf(message) === 'notification') this.sink.deliver(message);
    else this.wire.warn(`dropped a message on the ${request.method} stream that is not for it`);
    return undefined;
  }

  private headersFor(message: JsonRpcMessage): Record<string, string> {
    const headers = this.wire.postHeaders();
    const { method, params } = message as { method: string; params?: Record<string, unknown> };
    const version = (params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION];
    if (typeof version === 'string') headers['MCP-Protocol-Version'] = version;
    headers['Mcp-Method'] = method;
    const nameField = NAMED_METHODS[method];
    const name = nameField ? params?.[nameField] : undefined;
    if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
    if (method === 'tools/call' && typeof name === 'string') {
      for (const header of this.toolHeaders.get(name) ?? []) {
        const value = paramValue(params?.arguments, header.path);
        if (value !== undefined) headers[`Mcp-Param-${header.name}`] = value;
      }
    }
    return headers;
  }

  // Records the x-mcp-header parameters of every tool, and leaves out the
  // tools whose annotations break the rules.
  private learnTools(answer: JsonRpcResponse): JsonRpcResponse {
    const result = (answer as { result: Record<string, unknown> }).result;
    if (!Array.isArray(result.tools)) return answer;
    const kept = result.tools.filter((tool: { name?: unknown; inputSchema?: unknown }) => {
      if (typeof tool?.name !== 'string') return true;
      const headers = paramHeaders(tool.inputSchema);
      if (typeof headers === 'string') {
        this.wire.warn(`left out tool ${quote(tool.name)}: ${headers}`);
        this.toolHeaders.delete(tool.name);
        return false;
      }
      this.toolHeaders.set(tool.name, headers);
      return true;
    });
    return { ...answer, result: { ...result, tools: kept } };
  }

  // Reads the whole tool list again, for its x-mcp-header annotations, within
  // the bounds of any list the client reads: true once it is read to the end,
  // false when the server refused a page.
  private async refreshTools(original: JsonRpcRequest, signal: AbortLike): Promise<boolean> {
    const walk = new ListWalk('tools/list', this.listLimits);
    let cursor: string | undefined;
    do {
      const id = `rxmcp-http-tools-${++this.refreshes}`;
      const params: Record<string, unknown> = { _meta: original.params?._meta };
      if (cursor !== undefined) params.cursor = cursor;
      let page: JsonRpcResponse | undefined;
      try {
        page = await this.post({ jsonrpc: '2.0', id, method: 'tools/list', params }, signal);
      } catch (error) {
        // Read again only for its headers: a broken page leaves the mismatch as the answer.
        if (error instanceof BrokenStream) return false;
        throw error;
      }
      if (!page || isErrorResponse(page)) return false;
      const { tools, nextCursor } = page.result;
      cursor = typeof nextCursor === 'string' ? nextCursor : undefined;
      walk.page(Array.isArray(tools) ? tools.length : 0, cursor);
      this.learnTools(page);
    } while (cursor !== undefined);
    return true;
  }
}
