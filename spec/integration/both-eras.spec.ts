import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { everythingServer, modernServer } from '../support/servers.js';

/** Connects to one server, started before the suite and stopped after it. */
interface Peer {
  connect(): Promise<McpClient>;
  stop(): Promise<void>;
}

const stdio = (server: typeof modernServer): Peer => ({
  connect: async () => McpClient.connectStdio({ ...server, clientName: 'rxmcp-spec' }),
  stop: async () => undefined,
});

const http = (fixture: string): Peer => {
  let running: RunningServer | undefined;
  return {
    connect: async () => {
      running = await startHttpServer(fixture);
      return McpClient.connectHttp({ url: running.url, clientName: 'rxmcp-spec' });
    },
    stop: async () => running?.stop(),
  };
};

// The same calls against modern servers and legacy ones, over stdio and
// Streamable HTTP: the caller does not have to care which era or wire.
describe.each([
  ['the SDK v2 fixture over stdio', stdio(modernServer), 'modern', 'rxmcp-fixture', 'text'],
  ['server-everything over stdio', stdio(everythingServer), 'legacy', 'mcp-servers/everything', 'message'],
  ['the dual-era SDK v2 fixture over HTTP', http('http-server.mjs'), 'modern', 'rxmcp-fixture', 'text'],
  ['the legacy-only SDK v2 fixture over HTTP', http('legacy-http-server.mjs'), 'legacy', 'rxmcp-fixture', 'text'],
  ['server-everything over HTTP', http('everything-http.mjs'), 'legacy', 'mcp-servers/everything', 'message'],
])('against %s', (_name, peer, era, serverName, echoKey) => {
  let mcp: McpClient;
  beforeAll(async () => {
    mcp = await peer.connect();
  });
  afterAll(async () => {
    await mcp.close();
    await peer.stop();
  });

  it(`detects the ${era} era and describes the server`, async () => {
    const description = await firstValueFrom(mcp.describe());
    expect(description.era).toBe(era);
    expect(description.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    expect(description.serverInfo?.name).toBe(serverName);
    expect(description.capabilities).toHaveProperty('tools');
  });

  it('lists tools and calls echo', async () => {
    const tools = await firstValueFrom(mcp.listTools());
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object' });
    const argument = echo?.inputSchema.properties && Object.keys(echo.inputSchema.properties)[0];
    const result = await firstValueFrom(mcp.callTool('echo', { [argument as string]: 'hello, world' }));
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.type).toBe('text');
    expect(result.content[0]?.text).toContain('hello, world');
  });

  it('returns results without protocol bookkeeping', async () => {
    const result = await firstValueFrom(mcp.callTool('echo', { [echoKey]: 'x' }));
    for (const key of ['resultType', '_meta', 'ttlMs', 'cacheScope', 'requestState', 'inputRequests']) {
      expect(result).not.toHaveProperty(key);
    }
  });

  it('lists and reads resources, and lists prompts and templates', async () => {
    const resources = await firstValueFrom(mcp.listResources());
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const read = await firstValueFrom(mcp.readResource(first.uri));
    expect(read.contents[0]?.uri).toBe(first.uri);
    expect((await firstValueFrom(mcp.listResourceTemplates())).length).toBeGreaterThan(0);
    expect((await firstValueFrom(mcp.listPrompts())).length).toBeGreaterThan(0);
  });

  it('pings: true for legacy, false ("method not found") for modern', async () => {
    expect(await firstValueFrom(mcp.ping())).toBe(era === 'legacy');
  });

  it('answers many concurrent calls, each with its own answer', async () => {
    const texts = Array.from({ length: 60 }, (_, i) => `call-${i}`);
    const results = await Promise.all(texts.map((text) => firstValueFrom(mcp.callTool('echo', { [echoKey]: text }))));
    results.forEach((result, i) => expect(result.content[0]?.text).toContain(texts[i]));
  });
});
