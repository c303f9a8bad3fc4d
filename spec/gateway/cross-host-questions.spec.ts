import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../src/gateway/index.js';
import { type InputHooks, McpClient, Policy, Registry } from '../../src/index.js';
import { officialClient, textOf } from './gateway-support.js';

// Two hosts share one gateway over HTTP, and their calls overlap on one
// legacy stdio server, whose questions the wire ties to no call. A question
// asked for one host's call must never be put to the other host.

let registry: Registry;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const hooks: InputHooks = {
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onSample: (request) => gateway.upstreamHooks.onSample(request),
    onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
  };
  const config = { mcpServers: { late: { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'late-question-server.mjs')] } } };
  registry = Registry.fromConfig(config, { client: hooks });
  const policy = new Policy({ provider: registry, rules: [{ tool: '*', decision: 'allow' }], onAsk: (question) => gateway.ask(question) });
  const servers = Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as unknown as { client(): McpClient }).client()]));
  gateway = new Gateway({ provider: policy, servers });
  served = await gateway.listen({ port: 0, bearerToken: false });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await served?.close();
  await registry?.close();
});

it("never puts one host's upstream question to another host whose call started later", async () => {
  const http = () => ({ connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
  const seenByA: string[] = [];
  const seenByB: string[] = [];
  const a = await officialClient('modern', http(), (params) => (seenByA.push(String(params.message)), { action: 'accept', content: { ok: true } }));
  const b = await officialClient('modern', http(), (params) => (seenByB.push(String(params.message)), { action: 'accept', content: { ok: true } }));
  try {
    const first = a.callTool({ name: 'late_later', arguments: { secret: 'alice-0451' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = b.callTool({ name: 'late_wait', arguments: {} });
    const [resultA, resultB] = await Promise.all([first, second]);
    expect(seenByB).toEqual([]);
    expect(textOf(resultB)).toBe('waited');
    // Nobody can tell whose it is, so it is declined rather than guessed.
    expect(textOf(resultA)).not.toContain('"accept"');
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);
