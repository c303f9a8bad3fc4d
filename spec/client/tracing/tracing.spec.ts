import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient, type McpClientError } from '../../../src/index.js';
import { everythingServer } from '../../support/servers.js';
import { startHttpServer } from '../../support/http-servers.js';
import { type InstalledOtel, installOtel, named, traceparentOf } from '../../support/otel.js';

const traceEcho = { command: process.execPath, args: [join(__dirname, '../../fixtures/trace-echo-server.mjs')] };
const FORGED_TRACE_ID = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';

let otel: InstalledOtel;
beforeAll(() => {
  otel = installOtel();
});
afterAll(async () => {
  await otel.uninstall();
});
beforeEach(() => otel.reset());

// A span of the test itself, which the client's spans should join.
async function inSpan<T>(name: string, run: () => Promise<T>): Promise<{ value: T; root: ReadableSpan }> {
  const tracer = trace.getTracer('spec');
  const span = tracer.startSpan(name);
  const value = await context.with(trace.setSpan(context.active(), span), run);
  span.end();
  return { value, root: named(otel.spans(), name)[0] as ReadableSpan };
}

function only(name: string): ReadableSpan {
  const spans = named(otel.spans(), name);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

describe.each([
  ['the 2026-07-28 era', 'modern', '2026-07-28', 'server/discover'],
  ['the 2025-11-25 era', 'legacy', '2025-11-25', 'initialize'],
] as const)('tracing a client of an SDK v2 server in %s', (_name, era, version, first) => {
  let mcp: McpClient;
  beforeAll(() => {
    mcp = McpClient.connectStdio({ ...traceEcho, ...(era === 'legacy' ? { era } : {}) });
  });
  afterAll(async () => {
    await mcp.close();
  });

  it('makes a client span for the first request, named by its method, inside the caller\'s trace', async () => {
    const { root } = await inSpan('app', () => firstValueFrom(mcp.describe()));
    const span = only(first);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes['mcp.method.name']).toBe(first);
    expect(span.attributes['network.transport']).toBe('pipe');
    expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });

  it('names a tool call after its tool, with the conventions\' attributes, and carries its traceparent to the server', async () => {
    const { value: result, root } = await inSpan('app', () => firstValueFrom(mcp.callTool('echo_meta', {})));
    const span = only('tools/call echo_meta');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo_meta',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': version,
      'network.transport': 'pipe',
    });
    expect(typeof span.attributes['jsonrpc.request.id']).toBe('string');
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    // The server's span joins the trace as a child of this one.
    expect(result.structuredContent).toEqual({ traceparent: traceparentOf(span) });
  });

  it('spans tools/list, a prompt by its name and a resource read with its uri', async () => {
    await firstValueFrom(mcp.listTools({ refresh: true }));
    await firstValueFrom(mcp.getPrompt('greet', { name: 'Ada' }));
    await firstValueFrom(mcp.readResource('note://one'));
    expect(only('tools/list').attributes['mcp.method.name']).toBe('tools/list');
    expect(only('prompts/get greet').attributes['gen_ai.prompt.name']).toBe('greet');
    expect(only('resources/read').attributes['mcp.resource.uri']).toBe('note://one');
  });

  it('marks a JSON-RPC error with its code as error.type and the span status as an error', async () => {
    const error = (await firstValueFrom(mcp.readResource('note://missing')).catch((caught: unknown) => caught)) as McpClientError & { code: number };
    const span = only('resources/read');
    expect(span.attributes['error.type']).toBe(String(error.code));
    expect(span.attributes['rpc.response.status_code']).toBe(String(error.code));
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('marks a tool that answered isError with error.type tool_error', async () => {
    const result = await firstValueFrom(mcp.callTool('fail', {}));
    expect(result.isError).toBe(true);
    const span = only('tools/call fail');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records neither arguments nor results unless asked', async () => {
    await firstValueFrom(mcp.callTool('echo_meta', { secret: 'hunter2' }));
    const text = JSON.stringify(otel.spans().map((span) => span.attributes));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('gen_ai.tool.call');
  });

  it('keeps a server\'s error message, which may quote the arguments, out of the span unless asked', async () => {
    const error = (await firstValueFrom(mcp.getPrompt('reject', { secret: 'hunter2' })).catch((caught: unknown) => caught)) as McpClientError & { code: number };
    expect(error.message).toContain('hunter2');
    const span = only('prompts/get reject');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe(String(error.code));
    expect(JSON.stringify([span.status, span.attributes, span.events])).not.toContain('hunter2');
  });

  it('runs a bridge batch under one span that parents the calls it makes', async () => {
    const answers = await mcp.executeToolCalls([
      { id: 'a', function: { name: 'echo_meta', arguments: '{}' } },
      { id: 'b', function: { name: 'fail', arguments: '{}' } },
    ]);
    expect(answers.map((answer) => answer.is_error)).toEqual([false, true]);
    const batch = only('execute_tool_calls');
    expect(batch.attributes).toMatchObject({ 'rxmcp.tool_calls.count': 2, 'rxmcp.tool_calls.failed': 1 });
    const calls = [only('tools/call echo_meta'), only('tools/call fail')];
    for (const call of calls) {
      expect(call.spanContext().traceId).toBe(batch.spanContext().traceId);
      expect(call.parentSpanContext?.spanId).toBe(batch.spanContext().spanId);
    }
  });

  it('never lets a traceparent the server sends back take over the client\'s trace', async () => {
    let seenInProgress: string | undefined;
    const { root } = await inSpan('app', async () => {
      const forged = await firstValueFrom(
        mcp.callTool('forge', {}, { onProgress: () => (seenInProgress = trace.getActiveSpan()?.spanContext().traceId) }),
      );
      expect(JSON.stringify(forged)).not.toContain('evil');
      return firstValueFrom(mcp.callTool('echo_meta', {}));
    });
    expect(seenInProgress).not.toBe(FORGED_TRACE_ID);
    const spans = otel.spans();
    expect(spans.map((span) => span.spanContext().traceId)).not.toContain(FORGED_TRACE_ID);
    const after = only('tools/call echo_meta');
    expect(after.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(after.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(only('tools/call forge').parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });
});

describe('tracing a client of server-everything (2025-11-25)', () => {
  it('spans the handshake, the listing and a call, each a client span of one trace', async () => {
    const mcp = McpClient.connectStdio(everythingServer);
    try {
      const { root } = await inSpan('app', async () => {
        await firstValueFrom(mcp.listTools());
        return firstValueFrom(mcp.callTool('echo', { message: 'hi' }));
      });
      for (const name of ['initialize', 'tools/list', 'tools/call echo']) {
        const spans = named(otel.spans(), name);
        expect(spans.length).toBeGreaterThan(0);
        for (const span of spans) {
          expect(span.kind).toBe(SpanKind.CLIENT);
          expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
        }
      }
      expect(only('tools/call echo').attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'mcp.protocol.version': '2025-11-25' });
    } finally {
      await mcp.close();
    }
  });
});

describe('tracing a client over Streamable HTTP', () => {
  it('names the transport tcp and the server by its address and port', async () => {
    const server = await startHttpServer('http-server.mjs');
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.listTools());
      // The fixture lists its tools a page at a time: a span per page.
      const pages = named(otel.spans(), 'tools/list');
      expect(pages.length).toBeGreaterThan(0);
      for (const page of pages) {
        expect(page.attributes).toMatchObject({ 'network.transport': 'tcp', 'server.address': '127.0.0.1', 'server.port': Number(new URL(server.url).port) });
      }
    } finally {
      await mcp.close();
      await server.stop();
    }
  });
});

describe('the tracing option', () => {
  it('with captureContent, records a tool call\'s arguments and result', async () => {
    const mcp = McpClient.connectStdio({ ...traceEcho, tracing: { captureContent: true } });
    try {
      await firstValueFrom(mcp.callTool('echo_meta', { secret: 'opted-in' }));
      const span = only('tools/call echo_meta');
      expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"secret":"opted-in"}');
      expect(span.attributes['gen_ai.tool.call.result']).toContain('traceparent');
    } finally {
      await mcp.close();
    }
  });

  it('with captureContent, records a server\'s error message as the span\'s status', async () => {
    const mcp = McpClient.connectStdio({ ...traceEcho, tracing: { captureContent: true } });
    try {
      await firstValueFrom(mcp.getPrompt('reject', { secret: 'hunter2' })).catch(() => undefined);
      expect(only('prompts/get reject').status.message).toContain('hunter2');
    } finally {
      await mcp.close();
    }
  });

  it('set to false, makes no span and sends no traceparent', async () => {
    const mcp = McpClient.connectStdio({ ...traceEcho, tracing: false });
    try {
      const { value: result } = await inSpan('app', async () => {
        await mcp.executeToolCalls([{ id: 'a', function: { name: 'fail', arguments: {} } }]);
        return firstValueFrom(mcp.callTool('echo_meta', {}));
      });
      expect(result.structuredContent).toEqual({});
      expect(otel.spans().map((span) => span.name)).toEqual(['app']);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a value it cannot read', () => {
    expect(() => McpClient.connectStdio({ ...traceEcho, tracing: { content: true } as never })).toThrow('option tracing has an unknown key "content"');
    expect(() => McpClient.connectStdio({ ...traceEcho, tracing: 'yes' as never })).toThrow('option tracing must be false, true or an object');
  });
});

describe('the request duration metric', () => {
  it('records mcp.client.operation.duration in seconds, by method, tool and error type', async () => {
    const mcp = McpClient.connectStdio(traceEcho);
    try {
      await firstValueFrom(mcp.callTool('echo_meta', {}));
      await firstValueFrom(mcp.callTool('fail', {}));
    } finally {
      await mcp.close();
    }
    const metrics = (await otel.metrics()).scopeMetrics.flatMap((scope) => scope.metrics);
    const duration = metrics.find((metric) => metric.descriptor.name === 'mcp.client.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const points = (duration?.dataPoints ?? []).map((point) => point.attributes);
    expect(points).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo_meta' }),
        expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'fail', 'error.type': 'tool_error' }),
      ]),
    );
    // The request id is a span's business: a metric keyed by it would grow without bound.
    expect(points.every((attributes) => attributes['jsonrpc.request.id'] === undefined)).toBe(true);
  });
});
