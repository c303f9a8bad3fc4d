import { context, propagation, type TextMapPropagator, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { inHostTrace } from '../../src/gateway/host-trace.js';

// What the gateway does with a host's `_meta` trace keys, seen from the
// upstream server (a real one, which echoes the trace keys it receives),
// under an SDK registered as NodeSDK registers it by default: the W3C
// trace-context and baggage propagators.

const traceEcho = { command: process.execPath, args: [join(__dirname, '../fixtures/trace-echo-server.mjs')] };
const HOST_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HOST_TRACEPARENT = `00-${HOST_TRACE_ID}-00f067aa0ba902b7-01`;

describe('a host\'s trace context, continued by the gateway to an upstream server', () => {
  let mcp: McpClient;
  const tracerProvider = new BasicTracerProvider();
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(tracerProvider);
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    mcp = McpClient.connectStdio(traceEcho);
  });
  afterAll(async () => {
    await mcp.close();
    await tracerProvider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  const received = async (meta: Record<string, unknown>): Promise<Record<string, string>> => {
    const result = await inHostTrace(meta, () => firstValueFrom(mcp.callTool('echo_meta', {})));
    return result.structuredContent as Record<string, string>;
  };

  it('keeps the host\'s trace, but never hands the host\'s baggage on to the upstream server', async () => {
    const keys = await received({ traceparent: HOST_TRACEPARENT, baggage: 'stolen.session=abc123,tenant=victim' });
    expect(keys.traceparent?.split('-')[1]).toBe(HOST_TRACE_ID);
    expect(keys.baggage).toBeUndefined();
  });

  it('still hands on the baggage the gateway\'s own application set', async () => {
    const own = propagation.setBaggage(context.active(), propagation.createBaggage({ deployment: { value: 'blue' } }));
    const keys = await context.with(own, () => received({ traceparent: HOST_TRACEPARENT, baggage: 'tenant=victim' }));
    expect(keys.baggage).toBe('deployment=blue');
  });

  it('answers the host when the registered propagator throws while reading its keys', async () => {
    const throwing: TextMapPropagator = {
      inject: () => undefined,
      extract: () => {
        throw new Error('the propagator broke');
      },
      fields: () => ['traceparent'],
    };
    propagation.disable();
    propagation.setGlobalPropagator(throwing);
    try {
      const keys = await received({ traceparent: HOST_TRACEPARENT });
      expect(keys).toEqual({});
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    }
  });
});
