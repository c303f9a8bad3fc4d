import type { Attributes, Histogram, MeterProvider, ProxyTracerProvider, Span, TextMapSetter, Tracer, TracerProvider } from '@opentelemetry/api';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { RequestTrace } from '../correlator.js';
import type { ToolMessage } from '../../tools/bridge.js';
import type { Transport } from '../../transport/transport.js';
import { VERSION } from '../../version.js';
import { BATCH, BATCH_SPAN, contentOf, describeRequest, DURATION_BUCKETS, MCP, OPERATION_DURATION, type PeerAttributes } from './mcp-attributes.js';
import { loadOtelApi, type OtelApi, otelApi } from './otel-api.js';
import { quietly, RequestSpan } from './request-span.js';
import type { TracingSettings } from './tracing-options.js';

const INSTRUMENTATION = 'rxmcp';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

// The keys the 2026-07-28 spec reserves in `_meta` for trace context (basic/index,
// "OpenTelemetry trace context"). A propagator that writes others (B3, say)
// would put unprefixed keys the spec does not allow: they are left out.
const TRACE_KEYS = new Set(['traceparent', 'tracestate', 'baggage']);

const META_SETTER: TextMapSetter<Record<string, unknown>> = {
  set(carrier, key, value) {
    if (TRACE_KEYS.has(key)) carrier[key] = value;
  },
};

/**
 * One client's tracing: a client span for every request it sends, named and
 * attributed as the OpenTelemetry semantic conventions for MCP say, with the
 * trace context carried in the request's `_meta` (`traceparent`,
 * `tracestate`) and its duration recorded in `mcp.client.operation.duration`.
 *
 * The parent of each span is the context active where the call was
 * subscribed. Nothing a server sends is ever read as trace context: a
 * `traceparent` in a result, a notification or a server's request is data.
 */
export class RequestTracer {
  private readonly lookup: Promise<unknown>;
  private looked = false;
  private tracer: Tracer | undefined;
  private meterProvider: MeterProvider | undefined;
  private histogram: Histogram | undefined;
  private readonly peer: PeerAttributes;

  constructor(
    private readonly settings: TracingSettings,
    transport: Transport,
    /** The protocol version the session settled on, once it has (a legacy request does not carry it). */
    private readonly protocolVersion: () => string | undefined,
  ) {
    this.peer = peerOf(transport);
    this.lookup = loadOtelApi().then(() => {
      this.looked = true;
    });
  }

  /**
   * The search for the API while it runs (a first client's first moments):
   * the probe waits on it, so that the first request is traced too.
   */
  get pending(): Promise<unknown> | undefined {
    return this.looked ? undefined : this.lookup;
  }

  /**
   * Opens the span of `request`, about to be sent, and returns it with the
   * request to send (its `_meta` carrying the trace context). `undefined`
   * when there is no API to trace with.
   */
  begin(request: JsonRpcRequest): RequestTrace | undefined {
    const api = otelApi();
    if (api === undefined) return undefined;
    let span: Span | undefined;
    // The SDK is the application's: whatever it throws, the request goes out untraced.
    try {
      const histogram = this.durations(api);
      // Nothing registered (a library's usual case): no span, metric or context to make.
      if (histogram === undefined && noTracerProvider(api)) return undefined;
      const tracer = (this.tracer ??= api.trace.getTracer(INSTRUMENTATION, VERSION));
      const stamped = request.params?._meta as Record<string, unknown> | undefined;
      const version = typeof stamped?.[PROTOCOL_VERSION_META] === 'string' ? (stamped[PROTOCOL_VERSION_META] as string) : this.protocolVersion();
      const { name, attributes } = describeRequest(request, version, this.peer);
      const measured: Attributes = { ...attributes };
      attributes[MCP.requestId] = String(request.id);
      if (this.settings.captureContent && request.method === 'tools/call') attributes[MCP.toolArguments] = contentOf(request.params?.arguments);
      const parent = api.context.active();
      span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, parent);
      return new RequestSpan(api, span, withTraceContext(api, request, api.trace.setSpan(parent, span)), measured, histogram, this.settings.captureContent);
    } catch {
      quietly(() => span?.end());
      return undefined;
    }
  }

  /**
   * Runs a batch of tool calls (`executeToolCalls`) under an internal span,
   * `execute_tool_calls`, which parents the spans of the calls it sends.
   */
  async batch(count: number, run: () => Promise<ToolMessage[]>): Promise<ToolMessage[]> {
    await this.pending;
    const api = otelApi();
    if (api === undefined || noTracerProvider(api)) return run();
    let span: Span;
    let traced: ReturnType<OtelApi['context']['active']>;
    // A span the SDK cannot make leaves the batch untraced, never unrun.
    try {
      const tracer = (this.tracer ??= api.trace.getTracer(INSTRUMENTATION, VERSION));
      span = tracer.startSpan(BATCH_SPAN, { kind: api.SpanKind.INTERNAL, attributes: { [BATCH.count]: count } });
      traced = api.trace.setSpan(api.context.active(), span);
    } catch {
      return run();
    }
    try {
      const messages = await api.context.with(traced, run);
      quietly(() => span.setAttribute(BATCH.failed, messages.filter((message) => message.is_error).length));
      return messages;
    } finally {
      quietly(() => span.end());
    }
  }

  // The metrics API has no stand-in that follows a provider registered
  // later (as the tracer has): the histogram is made again when it changes.
  // `undefined` while the provider is the API's no-op one.
  private durations(api: OtelApi): Histogram | undefined {
    const provider = api.metrics.getMeterProvider();
    if (provider !== this.meterProvider) {
      this.meterProvider = provider;
      const meter = provider.getMeter(INSTRUMENTATION, VERSION);
      this.histogram = meter === api.createNoopMeter() ? undefined : meter.createHistogram(OPERATION_DURATION, {
        unit: 's',
        description: 'The duration of an MCP request, from sending it to its answer.',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    }
    return this.histogram;
  }
}

// The API's own no-op tracer provider, which the global stand-in hands
// requests to until an SDK registers a provider.
let noopTracerProvider: TracerProvider | undefined;

function noTracerProvider(api: OtelApi): boolean {
  const provider = api.trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  noopTracerProvider ??= new api.ProxyTracerProvider().getDelegate();
  return typeof provider.getDelegate === 'function' && provider.getDelegate() === noopTracerProvider;
}

// The request with the propagator's trace context in `_meta`, over what the
// caller put there; the request itself when the propagator writes nothing (no
// SDK, or a span that is not sampled and no propagator that says so).
function withTraceContext(api: OtelApi, request: JsonRpcRequest, context: ReturnType<OtelApi['context']['active']>): JsonRpcRequest {
  const carrier: Record<string, unknown> = {};
  api.propagation.inject(context, carrier, META_SETTER);
  if (carrier.traceparent === undefined && carrier.tracestate === undefined && carrier.baggage === undefined) return request;
  const params = request.params ?? {};
  const meta = params._meta as Record<string, unknown> | undefined;
  return { ...request, params: { ...params, _meta: { ...meta, ...carrier } } };
}

// stdio is a pipe, HTTP runs over TCP (the conventions' `network.transport`);
// a URL names the server's address and port.
function peerOf(transport: Transport): PeerAttributes {
  const wire = transport.wire;
  const url = (transport as { url?: unknown }).url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const port = parsed === undefined ? undefined : parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return {
    transport: wire === 'stdio' ? 'pipe' : wire === undefined ? undefined : 'tcp',
    address: parsed?.hostname.replace(/^\[|\]$/g, ''),
    port,
  };
}
