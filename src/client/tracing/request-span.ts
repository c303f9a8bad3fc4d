import type { Attributes, Histogram, Span } from '@opentelemetry/api';
import { isErrorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { messageOf } from '../../util/values.js';
import { contentOf, MCP } from './mcp-attributes.js';
import type { OtelApi } from './otel-api.js';

// A status description is the server's (or a failure's) own words: kept short in the user's telemetry.
const MAX_DESCRIPTION_CHARS = 1024;
// Those words may quote the request (a server's error that repeats the
// arguments it refused, a wire error that repeats the server's body): they
// go into the span only with captureContent, as the arguments themselves do.

/**
 * One request's client span and its entry in the duration histogram, ended
 * by the first of its outcomes: an answer, a failure of the wire, or the
 * caller giving up. A correlator entry holds it while the request waits.
 */
export class RequestSpan {
  private readonly started = performance.now();

  constructor(
    private readonly api: OtelApi,
    private readonly span: Span,
    /** The request as sent: with the trace context in `_meta` when there is one to carry. */
    readonly request: JsonRpcRequest,
    // What the duration is recorded under: the span's attributes of low cardinality.
    private readonly measured: Attributes,
    private readonly histogram: Histogram | undefined,
    private readonly captureContent: boolean,
  ) {}

  /** The server answered: a JSON-RPC error, a tool's own failure (`isError`), or a result. */
  answered(response: JsonRpcResponse): void {
    if (isErrorResponse(response)) {
      const code = String(response.error.code);
      quietly(() => this.span.setAttribute(MCP.statusCode, code));
      this.measured[MCP.statusCode] = code;
      this.end(code, this.captureContent ? response.error.message : `the server answered a JSON-RPC error (code ${code})`);
      return;
    }
    const { result } = response;
    if (this.request.method !== 'tools/call') return this.end(undefined, undefined);
    if (this.captureContent) quietly(() => this.span.setAttribute(MCP.toolResult, contentOf(result)));
    const failed = (result as { isError?: unknown } | null)?.isError === true;
    this.end(failed ? 'tool_error' : undefined, failed ? 'the tool reported an error' : undefined);
  }

  /** The wire failed the request (or the answer could not be read). */
  failed(error: unknown): void {
    const type = error instanceof Error ? error.name : '_OTHER';
    this.end(type, this.captureContent ? messageOf(error) : `the request failed (${type})`);
  }

  /** The caller gave up (unsubscribed, or its budget or signal ended the call): the server is told to cancel. */
  abandoned(): void {
    this.end('cancelled', 'the caller gave up before the answer');
  }

  private end(errorType: string | undefined, description: unknown): void {
    const { span, api } = this;
    // The SDK is the application's: what it throws ends here, never in the call.
    quietly(() => {
      if (errorType === undefined) return;
      span.setAttribute(MCP.errorType, errorType);
      this.measured[MCP.errorType] = errorType;
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: typeof description === 'string' ? description.slice(0, MAX_DESCRIPTION_CHARS) : undefined });
    });
    quietly(() => span.end());
    quietly(() => this.histogram?.record((performance.now() - this.started) / 1000, this.measured));
  }
}

/**
 * Runs a step of the application's OpenTelemetry SDK, dropping what it
 * throws: a broken exporter or processor costs the telemetry, not the call.
 */
export function quietly(step: () => unknown): void {
  try {
    step();
  } catch {
    // Nothing to tell: the telemetry is what broke.
  }
}
