import { firstValueFrom } from 'rxjs';
import { Gateway } from '../../src/gateway/index.js';
import { type InputRequest, McpClient } from '../../src/index.js';
import { fixture } from '../support/servers.js';

// Sampling that offers tools (SEP-1577) through the gateway: the official-SDK
// fixture behind it (2025-11-25 era, stdio) asks its client's model with a
// get_weather tool, and real rxmcp hosts call over HTTP. The question goes
// only to a host that declared sampling.tools; a host that did not is never
// shown the tools (a 2026-07-28 host is told with -32021 what to declare).

const TOOL = 'plan-trip-raw';

let upstream: McpClient;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
const hosts: McpClient[] = [];

function host(options: { era?: 'legacy'; withTools: boolean; asked: InputRequest[] }): McpClient {
  const client = McpClient.connectHttp({
    url: served.url,
    ...(options.era ? { era: options.era } : {}),
    onSample: (request: InputRequest) => {
      options.asked.push(request);
      return { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }], model: 'test-model', stopReason: 'toolUse' };
    },
    sampleWithTools: options.withTools,
  });
  hosts.push(client);
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

beforeAll(() => {
  upstream = McpClient.connectStdio({
    ...fixture('sampling-tools-server.mjs'),
    era: 'legacy',
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onSample: (request) => gateway.upstreamHooks.onSample(request),
    onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
    sampleWithTools: true,
  });
});

beforeEach(async () => {
  gateway = new Gateway({ provider: upstream, servers: { '': upstream } });
  served = await gateway.listen({ port: 0, bearerToken: false });
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((client) => client.close()));
  await gateway?.close();
  await served?.close();
});

afterAll(async () => {
  await upstream?.close();
});

describe('sampling with tools from an upstream server, through the gateway', () => {
  it('2025-11-25 client/sampling, Tools in Sampling: reaches a host that declared sampling.tools, tools and all, and its tool_use goes back', async () => {
    const asked: InputRequest[] = [];
    const client = host({ era: 'legacy', withTools: true, asked });
    const result = await firstValueFrom(client.callTool(TOOL, { city: 'Oslo' }));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params.tools).toEqual([expect.objectContaining({ name: 'get_weather' })]);
    expect(textOf(result)).toMatch(/^answered .*"tool_use".*get_weather/);
  });

  it('2025-11-25 client/sampling, Capabilities: a 2025-era host without sampling.tools is never shown the tools; the server hears a refusal', async () => {
    const asked: InputRequest[] = [];
    const client = host({ era: 'legacy', withTools: false, asked });
    const result = await firstValueFrom(client.callTool(TOOL, { city: 'Oslo' }));
    expect(asked).toHaveLength(0);
    expect(textOf(result)).toMatch(/^refused /);
  });

  it('2026-07-28 basic, capabilities: refuses the call of a 2026-07-28 host without sampling.tools with -32021 naming it', async () => {
    const asked: InputRequest[] = [];
    const client = host({ withTools: false, asked });
    await expect(firstValueFrom(client.callTool(TOOL, { city: 'Oslo' }))).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: { tools: {} } } } });
    expect(asked).toHaveLength(0);
  });
});
