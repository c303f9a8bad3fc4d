import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// `rxmcp serve`, with an OpenTelemetry SDK registered as an application
// would (`node --require`), in front of a server that echoes the trace
// context it receives; the official client v2 is the host and sends a
// traceparent of its own in `_meta`. One trace runs from the host to the
// upstream server.

jest.setTimeout(60_000);

const root = join(__dirname, '..', '..');
const HOST_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HOST_SPAN_ID = '00f067aa0ba902b7';

describe.each(['modern', 'legacy'] as const)('rxmcp serve with a %s host that sends a traceparent', (era) => {
  let folder: string;
  let client: Client;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'rxmcp-gateway-trace-'));
    const config = join(folder, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { trace: { command: process.execPath, args: [join(root, 'spec/fixtures/trace-echo-server.mjs')] } } }));
    const policy = join(folder, 'policy.json');
    writeFileSync(policy, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
    client = new Client({ name: 'traced-host', version: '1.0.0' }, (era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) as never);
    const env = { ...(process.env as Record<string, string>), NODE_OPTIONS: `--require ${join(root, 'spec/fixtures/otel-register.cjs')}` };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(root, 'bin/rxmcp.mjs'), 'serve', '--config', config, '--policy', policy], env, stderr: 'pipe' }));
  });
  afterAll(async () => {
    await client.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('continues the host\'s trace: the upstream receives a traceparent of the same trace, from the gateway\'s own client span', async () => {
    const result = await client.callTool({ name: 'trace_echo_meta', arguments: {}, _meta: { traceparent: `00-${HOST_TRACE_ID}-${HOST_SPAN_ID}-01` } });
    const received = receivedTraceparent(result);
    const [, traceId, parentId, flags] = received.split('-');
    expect(traceId).toBe(HOST_TRACE_ID);
    // The upstream's parent is the gateway's client span, itself inside the host's trace.
    expect(parentId).toMatch(/^[0-9a-f]{16}$/);
    expect(parentId).not.toBe(HOST_SPAN_ID);
    expect(flags).toBe('01');
  });

  it.each([
    ['a malformed traceparent', { traceparent: '00-zz-not-a-trace' }],
    ['a traceparent of all zeros', { traceparent: `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01` }],
    ['a huge traceparent and tracestate', { traceparent: `00-${HOST_TRACE_ID}-${HOST_SPAN_ID}-01${'x'.repeat(100_000)}`, tracestate: 'a=b,'.repeat(50_000) }],
    ['trace keys that are not strings', { traceparent: { toString: 'x' }, tracestate: ['a=b'], baggage: 42 }],
  ])('answers a host that sends %s, and starts a fresh trace for it', async (_name, meta) => {
    const result = await client.callTool({ name: 'trace_echo_meta', arguments: {}, _meta: meta as Record<string, unknown> });
    const received = receivedTraceparent(result);
    expect(received).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(received).not.toContain(HOST_TRACE_ID);
    expect(received).not.toContain('0'.repeat(32));
  });

  it('starts a trace of its own for a host that sends none', async () => {
    const result = await client.callTool({ name: 'trace_echo_meta', arguments: {} });
    const received = receivedTraceparent(result);
    expect(received).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(received).not.toContain(HOST_TRACE_ID);
  });
});

// What the upstream echoed: the traceparent of the request that reached it.
function receivedTraceparent(result: unknown): string {
  const text = (result as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? '';
  try {
    return (JSON.parse(text) as { traceparent?: string }).traceparent ?? '';
  } catch {
    throw new Error(`the upstream did not answer with its trace keys: ${text}`);
  }
}
