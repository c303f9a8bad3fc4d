import { firstValueFrom } from 'rxjs';
import { McpCapabilityError, McpClient, Registry } from '../../src/index.js';
import { StdioTransport } from '../../src/transport/stdio-transport.js';
import { fixture } from '../support/servers.js';
import { spyOn } from '../support/spy-transport.js';

// Servers written with the official SDK v2 that declare one capability
// (spec/fixtures/one-capability-server.mjs), in both eras: the client must
// refuse every method of a capability they did not declare, before sending
// anything, and keep the connection usable.
function connect(offers: 'tools' | 'prompts', era: 'modern' | 'legacy'): { mcp: McpClient; sent: string[] } {
  const { transport, sent } = spyOn(new StdioTransport(fixture('one-capability-server.mjs', offers)));
  return { mcp: new McpClient({ transport, era, requestTimeoutMs: 10000 }), sent };
}

async function refused(call: Promise<unknown>): Promise<McpCapabilityError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpCapabilityError);
  return error as McpCapabilityError;
}

describe.each([['modern' as const], ['legacy' as const]])('a %s server that declares tools alone', (era) => {
  let mcp: McpClient;
  let sent: string[];
  beforeAll(async () => {
    ({ mcp, sent } = connect('tools', era));
    expect((await firstValueFrom(mcp.describe())).era).toBe(era);
  });
  afterAll(() => mcp.close());

  it('2025-11-25 basic/lifecycle, Capability Negotiation: only uses capabilities that were successfully negotiated (prompts, resources refused unsent)', async () => {
    const before = sent.length;
    expect(await refused(firstValueFrom(mcp.listPrompts()))).toMatchObject({ capability: 'prompts', method: 'prompts/list', code: 'MCP_CAPABILITY' });
    expect(await refused(firstValueFrom(mcp.getPrompt('greet', { name: 'x' })))).toMatchObject({ capability: 'prompts', method: 'prompts/get' });
    expect(await refused(firstValueFrom(mcp.listResources()))).toMatchObject({ capability: 'resources', method: 'resources/list' });
    expect(await refused(firstValueFrom(mcp.listResourceTemplates()))).toMatchObject({ capability: 'resources', method: 'resources/templates/list' });
    expect(await refused(firstValueFrom(mcp.readResource('file:///etc/passwd')))).toMatchObject({ capability: 'resources', method: 'resources/read' });
    expect(sent.slice(before)).toEqual([]);
    // What it did declare still works on the same connection.
    expect((await firstValueFrom(mcp.callTool('echo', { text: 'still here' }))).content[0]).toMatchObject({ text: 'still here' });
    expect((await firstValueFrom(mcp.listTools())).map((tool) => tool.name)).toEqual(['echo']);
  });

  it('2025-11-25 server/utilities/completion: complete is refused without the completions capability, nothing sent', async () => {
    const before = sent.length;
    const error = await refused(firstValueFrom(mcp.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'a' })));
    expect(error).toMatchObject({ capability: 'completions', method: 'completion/complete' });
    expect(error.message).toMatch(/did not declare the completions capability/);
    expect(sent.slice(before)).toEqual([]);
  });

  it('2025-11-25 server/resources, Subscriptions: updates of a resource are refused without resources.subscribe, nothing sent', async () => {
    const before = sent.length;
    const error = await refused(firstValueFrom(mcp.listen({ resourceSubscriptions: ['file:///notes.md'] })));
    expect(error).toMatchObject({ capability: 'resources.subscribe', method: era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe' });
    expect(sent.slice(before)).toEqual([]);
  });
});

describe('logging that was not negotiated', () => {
  it('2025-11-25 server/utilities/logging: setLogLevel on a legacy server without logging fails with McpCapabilityError, nothing sent', async () => {
    const { mcp, sent } = connect('tools', 'legacy');
    try {
      await firstValueFrom(mcp.describe());
      const before = sent.length;
      expect(await refused(firstValueFrom(mcp.setLogLevel('debug')))).toMatchObject({ capability: 'logging', method: 'logging/setLevel' });
      expect(sent.slice(before)).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});

describe.each([['modern' as const], ['legacy' as const]])('a %s server that declares prompts alone', (era) => {
  it('refuses its tools with McpCapabilityError, but offers an empty catalogue to a model and to a Registry', async () => {
    const { mcp: prompts, sent } = connect('prompts', era);
    const { mcp: tools } = connect('tools', era);
    try {
      expect((await firstValueFrom(prompts.listPrompts())).map((prompt) => prompt.name)).toEqual(['greet']);
      const before = sent.length;
      expect(await refused(firstValueFrom(prompts.listTools()))).toMatchObject({ capability: 'tools', method: 'tools/list' });
      expect(await refused(firstValueFrom(prompts.callTool('echo', { text: 'x' })))).toMatchObject({ capability: 'tools', method: 'tools/call' });
      expect(sent.slice(before)).toEqual([]);
      // As a provider: no tools, not a failure.
      expect(await prompts.toolsForLlm()).toEqual([]);
      expect(await firstValueFrom(prompts.toolAnnotations('echo'))).toBeUndefined();
      const registry = new Registry().add(prompts, { prefix: 'p' }).add(tools, { prefix: 't' });
      expect((await registry.toolsForLlm()).map((tool) => tool.function.name)).toEqual(['t_echo']);
      const [answer] = await registry.executeToolCalls([{ id: '1', function: { name: 't_echo', arguments: { text: 'via registry' } } }]);
      expect(answer).toMatchObject({ is_error: false });
      expect(answer?.content).toContain('via registry');
    } finally {
      await Promise.all([prompts.close(), tools.close()]);
    }
  });
});

describe('a call begun before the era is known', () => {
  it('is refused once the probe says what the server offers, never sent', async () => {
    const { mcp, sent } = connect('tools', 'modern');
    try {
      expect(await refused(firstValueFrom(mcp.listPrompts()))).toMatchObject({ capability: 'prompts' });
      expect(sent.filter((method) => method === 'prompts/list')).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});
