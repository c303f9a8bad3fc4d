import { context, propagation, type Span, type SpanContext, trace, TraceFlags, type TextMapPropagator, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../../src/index.js';

// An application's OpenTelemetry SDK is not ours: a broken exporter, a span
// processor that throws, a propagator with a bug. Whatever it throws, a
// call made through the client is answered as it would be without tracing.

const traceEcho = { command: process.execPath, args: [join(__dirname, '../../fixtures/trace-echo-server.mjs')] };

type Breaks = 'startSpan' | 'end' | 'setStatus' | 'inject' | 'nothing';
let breaks: Breaks = 'nothing';

function broken(where: Breaks): void {
  if (breaks === where) throw new Error(`the SDK broke in ${where}`);
}

const SPAN_CONTEXT: SpanContext = { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: TraceFlags.SAMPLED };

function span(): Span {
  const self: Span = {
    spanContext: () => SPAN_CONTEXT,
    setAttribute: () => self,
    setAttributes: () => self,
    addEvent: () => self,
    addLink: () => self,
    addLinks: () => self,
    setStatus: () => (broken('setStatus'), self),
    updateName: () => self,
    end: () => broken('end'),
    isRecording: () => true,
    recordException: () => undefined,
  };
  return self;
}

const tracer: Tracer = {
  startSpan: () => (broken('startSpan'), span()),
  startActiveSpan: (() => {
    throw new Error('not used');
  }) as Tracer['startActiveSpan'],
};
const provider: TracerProvider = { getTracer: () => tracer };
const propagator: TextMapPropagator = {
  inject: (_context, carrier, setter) => {
    broken('inject');
    setter.set(carrier, 'traceparent', `00-${SPAN_CONTEXT.traceId}-${SPAN_CONTEXT.spanId}-01`);
  },
  extract: (given) => given,
  fields: () => ['traceparent'],
};

describe('a client traced by an SDK that throws', () => {
  let mcp: McpClient;
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(propagator);
    mcp = McpClient.connectStdio(traceEcho);
  });
  afterAll(async () => {
    breaks = 'nothing';
    await mcp.close();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  afterEach(() => (breaks = 'nothing'));

  it.each(['startSpan', 'end', 'inject'] as const)('answers a tool call when the SDK throws in %s', async (where) => {
    await firstValueFrom(mcp.describe());
    breaks = where;
    const result = await firstValueFrom(mcp.callTool('echo_meta', {}));
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toBeDefined();
  });

  it('reports a JSON-RPC error as the server\'s answer when the SDK throws in setStatus', async () => {
    await firstValueFrom(mcp.describe());
    breaks = 'setStatus';
    const error = await firstValueFrom(mcp.readResource('note://missing')).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: unknown }).code).toEqual(expect.any(Number));
  });

  it.each(['startSpan', 'end'] as const)('answers every call of a bridge batch when the SDK throws in %s', async (where) => {
    await firstValueFrom(mcp.describe());
    breaks = where;
    const answers = await mcp.executeToolCalls([
      { id: 'a', function: { name: 'echo_meta', arguments: '{}' } },
      { id: 'b', function: { name: 'fail', arguments: '{}' } },
    ]);
    expect(answers.map((answer) => [answer.tool_call_id, answer.is_error])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });
});
