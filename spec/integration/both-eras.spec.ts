import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { everythingServer, modernServer } from '../support/servers.js';

// The same calls, against a modern server and a legacy one: the caller does
// not have to care which era it is talking to.
describe.each([
  ['the SDK v2 fixture', modernServer, 'modern', 'rxmcp-fixture'],
  ['server-everything', everythingServer, 'legacy', 'mcp-servers/everything'],
])('against %s', (_name, server, era, serverName) => {
  let mcp: McpClient;
  beforeAll(() => {
    mcp = McpClient.connectStdio({ ...server, clientName: 'rxmcp-spec' });
  });
  afterAll(() => mcp.close());

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
    const result = await firstValueFrom(mcp.callTool('echo', { [era === 'modern' ? 'text' : 'message']: 'x' }));
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
    const key = era === 'modern' ? 'text' : 'message';
    const texts = Array.from({ length: 60 }, (_, i) => `call-${i}`);
    const results = await Promise.all(texts.map((text) => firstValueFrom(mcp.callTool('echo', { [key]: text }))));
    results.forEach((result, i) => expect(result.content[0]?.text).toContain(texts[i]));
  });
});
