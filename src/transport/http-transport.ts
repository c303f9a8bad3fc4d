import { type Observable, type Observer, Subject } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError, McpUnsupportedVersionError } from '../errors/protocol-errors.js';
import { McpHttpError, McpNetworkError } from '../errors/transport-errors.js';
import { decodeLine, isErrorResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../protocol/jsonrpc.js';
import { ErrorCode, LEGACY_VERSIONS } from '../protocol/versions.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { encodeHeaderValue, type ParamHeader, paramHeaders, paramValue } from './header-encoding.js';
import { type FetchLike, type FetchResponse, MessageTooLongError, readSse, readText } from './sse.js';
import { DEFAULT_MAX_MESSAGE, type RequestFailure, type Transport } from './transport.js';

/** How to reach a Streamable HTTP endpoint. */
export interface HttpTransportOptions {
  /** The MCP endpoint, such as `https://tools.example.com/mcp`. */
  url: string;
  /** Headers for every request, such as static credentials. They cannot replace the protocol's own headers. */
  headers?: Readonly<Record<string, string>>;
  /** A fetch implementation (a browser's, undici's, a test double); by default cross-fetch, loaded on first use. */
  fetch?: FetchLike;
  /** How long to wait for a response to start (default 30000; 0 = no limit). */
  connectTimeoutMs?: number;
  /** Reuse connections between requests (keep-alive) when rxmcp supplies the fetch on Node (default true). */
  persistent?: boolean;
  /** Called with problems that were papered over, such as a tool rejected for a bad `x-mcp-header`. */
  onWarn?: (message: string) => void;
  /** The largest message (a JSON body, or one SSE event) the server may send, in characters (default 64 MiB). */
  maxMessageBytes?: number;
}

/** The option names `HttpTransport` understands. */
export const HTTP_OPTION_KEYS: readonly string[] = ['url', 'headers', 'fetch', 'connectTimeoutMs', 'persistent', 'onWarn', 'maxMessageBytes'];

const PROTOCOL_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];
const NAMED_METHODS: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * Speaks the 2026-07-28 Streamable HTTP transport: every message is its own
 * POST, the answer a JSON body or an SSE stream scoped to that request
 * (notifications first, then the answer), routing fields mirrored into
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and
 * `Mcp-Param-*` from tools' `x-mcp-header` annotations, learnt from the
 * `tools/list` answers that pass through). Cancelling a request aborts its
 * POST, which the server sees as the cancellation.
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
  private readonly options: HttpTransportOptions;
  private readonly url: string;
  private readonly inflight = new Map<RequestId, AbortController>();
  private readonly toolHeaders = new Map<string, ParamHeader[]>();
  private fetchImpl: Promise<FetchLike> | undefined;
  private agents: { destroy(): void }[] = [];
  private closed = false;
  private refreshes = 0;

  readonly inbound: Observable<JsonRpcMessage> = this.inboundSubject.asObservable();
  readonly failures$: Observable<RequestFailure> = this.failureSubject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.send(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(options: HttpTransportOptions) {
    refuseUnknown(options, HTTP_OPTION_KEYS);
    try {
      const parsed = new URL(options.url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http or https');
    } catch {
      throw new McpClientError(`option url must be an http or https URL; got ${JSON.stringify(options.url)}`);
    }
    for (const name of Object.keys(options.headers ?? {})) {
      const lower = name.toLowerCase();
      if (PROTOCOL_HEADERS.includes(lower) || lower.startsWith('mcp-param-')) {
        throw new McpClientError(`header ${JSON.stringify(name)} is set by the protocol and cannot be given in headers`);
      }
    }
    this.options = options;
    this.url = options.url;
  }

  cancel(id: RequestId): void {
    this.inflight.get(id)?.abort(new McpClientError('cancelled'));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.inflight.values()) controller.abort(new McpClientError('closed'));
    this.inboundSubject.complete();
    this.failureSubject.complete();
    for (const agent of this.agents) agent.destroy();
  }

  private send(message: JsonRpcMessage): void {
    if (this.closed || !('method' in message)) return;
    const id = 'id' in message && message.id !== undefined ? (message as JsonRpcRequest).id : undefined;
    if (id === undefined) {
      void this.notify(message);
      return;
    }
    const request = message as JsonRpcRequest;
    if (request.method === 'initialize') {
      // The probe falls back to the handshake for a server that is not modern.
      this.fail(id, new McpUnsupportedVersionError([], [LEGACY_VERSIONS[0] as string],
        `${this.url} speaks only the handshake era (${LEGACY_VERSIONS.join(', ')}) over HTTP, which rxmcp does not support yet`));
      return;
    }
    const controller = new AbortController();
    this.inflight.set(id, controller);
    void this.exchange(request, controller.signal).finally(() => {
      this.inflight.delete(id);
      // Lets go of a stream the server left open after its answer.
      controller.abort(new McpClientError('answered'));
    });
  }

  // One request, to its answer or its failure; one retry after a
  // HeaderMismatch on tools/call, with the tool list read afresh.
  private async exchange(request: JsonRpcRequest, signal: AbortSignal, retried = false): Promise<void> {
    let answer: JsonRpcResponse | undefined;
    try {
      for await (const message of this.post(request, signal)) {
        if ('id' in message && message.id === request.id && ('result' in message || 'error' in message)) {
          answer = message as JsonRpcResponse;
          break;
        }
        if ('method' in message && !('id' in message && message.id !== undefined)) this.inboundSubject.next(message);
        else this.warn(`dropped a message on the ${request.method} stream that is not for it`);
      }
    } catch (error) {
      // An aborted request was cancelled or closed: nobody waits for it.
      if (!signal.aborted) this.fail(request.id, error as Error);
      return;
    }
    if (!answer) {
      if (!signal.aborted) this.fail(request.id, new McpNetworkError(this.url, `the response to ${request.method} ended before its answer`));
      return;
    }
    if (request.method === 'tools/call' && !retried && isErrorResponse(answer) && answer.error.code === ErrorCode.HeaderMismatch) {
      const refreshed = await this.refreshTools(request, signal).then(() => true, () => false);
      if (refreshed && !signal.aborted) return this.exchange(request, signal, true);
    }
    if (request.method === 'tools/list' && !isErrorResponse(answer)) answer = this.learnTools(answer);
    if (!this.closed) this.inboundSubject.next(answer);
  }

  private async notify(message: JsonRpcMessage): Promise<void> {
    try {
      for await (const _ of this.post(message, new AbortController().signal)) {
        // A notification is answered with 202 and no body.
      }
    } catch (error) {
      this.warn(`notification ${(message as { method: string }).method} failed: ${(error as Error).message}`);
    }
  }

  /** The messages one POST answers with: a JSON body, or each event of an SSE stream. */
  private async *post(message: JsonRpcMessage, signal: AbortSignal): AsyncGenerator<JsonRpcMessage> {
    const response = await this.fetchWithin(message, signal);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      try {
        for await (const data of readSse(response.body, this.limit)) {
          const decoded = decodeData(data);
          if (decoded) yield decoded;
          else this.warn(`skipped an SSE event that is not JSON-RPC: ${JSON.stringify(data.slice(0, 200))}`);
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof MessageTooLongError) throw this.tooLong();
        throw new McpNetworkError(this.url, `the response stream broke: ${(error as Error).message}`, { cause: error });
      }
      return;
    }
    let text: string;
    try {
      text = await readText(response, this.limit);
    } catch (error) {
      if (error instanceof MessageTooLongError) throw this.tooLong();
      throw error;
    }
    const decoded = text ? decodeData(text) : undefined;
    if (decoded && ('result' in decoded || 'error' in decoded)) {
      // An error the server could not tie to an id still answers this POST.
      yield 'id' in message && (decoded as JsonRpcResponse).id == null ? { ...decoded, id: (message as JsonRpcRequest).id } : decoded;
      return;
    }
    if (!response.ok) throw new McpHttpError(response.status, text.slice(0, 2000), this.url);
    if (text) throw new McpProtocolError(`${this.url} answered with something that is not a JSON-RPC response`, undefined, { body: text.slice(0, 2000) });
  }

  private async fetchWithin(message: JsonRpcMessage, signal: AbortSignal): Promise<FetchResponse> {
    const fetchImpl = await this.loadFetch();
    const limit = this.options.connectTimeoutMs ?? 30000;
    const controller = new AbortController();
    const abort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    let timedOut = false;
    const timer = limit > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), limit) : undefined;
    try {
      return await fetchImpl(this.url, {
        method: 'POST',
        headers: this.headersFor(message),
        body: JSON.stringify(message),
        signal: controller.signal,
        ...(this.agents.length > 0 ? { agent: (url: URL) => this.agents[url.protocol === 'https:' ? 1 : 0] } : {}),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timedOut) throw new McpNetworkError(this.url, `no response within ${limit} ms`);
      throw new McpNetworkError(this.url, `cannot reach the server: ${(error as Error).message}`, { cause: error });
    } finally {
      // The abort listener stays: the body may still be streaming.
      clearTimeout(timer);
    }
  }

  private headersFor(message: JsonRpcMessage): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers };
    headers['Content-Type'] = 'application/json';
    headers.Accept = 'application/json, text/event-stream';
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
        this.warn(`left out tool ${JSON.stringify(tool.name)}: ${headers}`);
        this.toolHeaders.delete(tool.name);
        return false;
      }
      this.toolHeaders.set(tool.name, headers);
      return true;
    });
    return { ...answer, result: { ...result, tools: kept } };
  }

  // Reads the whole tool list again, for its x-mcp-header annotations.
  private async refreshTools(original: JsonRpcRequest, signal: AbortSignal): Promise<void> {
    let cursor: string | undefined;
    do {
      const id = `rxmcp-http-tools-${++this.refreshes}`;
      const params: Record<string, unknown> = { _meta: original.params?._meta };
      if (cursor !== undefined) params.cursor = cursor;
      let page: JsonRpcResponse | undefined;
      for await (const message of this.post({ jsonrpc: '2.0', id, method: 'tools/list', params }, signal)) {
        if ('id' in message && message.id === id) page = message as JsonRpcResponse;
      }
      if (!page || isErrorResponse(page)) throw new Error('tools/list failed');
      const result = this.learnTools(page) as { result: { nextCursor?: unknown } };
      cursor = typeof result.result.nextCursor === 'string' ? result.result.nextCursor : undefined;
    } while (cursor !== undefined);
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

  private fail(id: RequestId, error: Error): void {
    if (!this.closed) this.failureSubject.next({ id, error });
  }

  private warn(message: string): void {
    this.options.onWarn?.(message);
  }
}

// One JSON-RPC message from a body or an event; anything else is undefined.
function decodeData(text: string): JsonRpcMessage | undefined {
  const decoded = decodeLine(text);
  return decoded.kind === 'invalid' ? undefined : decoded.message;
}
