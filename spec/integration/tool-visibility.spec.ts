import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIChatToolCalls,
  executeOpenAIResponsesToolCalls,
  LeaseTable,
  Leases,
  McpClient,
  Policy,
  type PolicyQuestion,
  Reasons,
  Registry,
  StdioTransport,
  toolsForAnthropic,
  toolsForGemini,
  toolsForOpenAIChat,
  toolsForOpenAIResponses,
  ToolSearch,
  UnknownKeys,
} from 'rxmcp';
import { aiSdkTools } from 'rxmcp/ai-sdk';
import { langchainTools } from 'rxmcp/langchain';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, fixture } from '../support/servers.js';

// MCP Apps tool visibility against real servers: the official example
// server-system-monitor (an app-only tool, poll-system-stats, and a tool
// with a view, get-system-info) and a fixture of our own built with the
// official server SDK (spec/fixtures/apps-server.mjs), whose UI tools exist
// only for a client that declares the extension.

const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const systemMonitor = {
  command: process.execPath,
  args: [join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js'), '--stdio'],
};
const call = (id: string, name: string, args: object = {}) => ({ id, type: 'function' as const, function: { name, arguments: args } });
const calledTools = (transport: RecordingTransport): unknown[] => transport.requests('tools/call').map((request) => request.params?.name);

describe('tool visibility against server-system-monitor', () => {
  let transport: RecordingTransport;
  let mcp: McpClient;
  beforeAll(() => {
    transport = new RecordingTransport(new StdioTransport(systemMonitor));
    mcp = new McpClient({ transport, extensions: APPS });
  });
  afterAll(() => mcp.close());

  it('lists poll-system-stats as app-only, and get-system-info with a view', async () => {
    const tools = await firstValueFrom(mcp.listTools());
    expect(tools.find((tool) => tool.name === 'poll-system-stats')?._meta).toMatchObject({ ui: { visibility: ['app'] } });
    expect(tools.find((tool) => tool.name === 'get-system-info')?._meta).toMatchObject({ ui: { resourceUri: expect.stringMatching(/^ui:\/\//) } });
  });

  it('keeps poll-system-stats out of toolsForLlm, every format and both adapters', async () => {
    const names = {
      toolsForLlm: (await mcp.toolsForLlm()).map((tool) => tool.function.name),
      realNames: (await mcp.toolsForLlm({ names: 'real' })).map((tool) => tool.function.name),
      responses: (await toolsForOpenAIResponses(mcp)).map((tool) => tool.name),
      responsesStrict: (await toolsForOpenAIResponses(mcp, { strict: true })).map((tool) => tool.name),
      chat: (await toolsForOpenAIChat(mcp)).map((tool) => tool.function.name),
      chatStrict: (await toolsForOpenAIChat(mcp, { strict: true })).map((tool) => tool.function.name),
      anthropic: (await toolsForAnthropic(mcp)).map((tool) => tool.name),
      gemini: (await toolsForGemini(mcp)).functionDeclarations.map((tool) => tool.name),
      aiSdk: Object.keys(await aiSdkTools(mcp)),
      langchain: (await langchainTools(mcp)).map((tool) => tool.name),
    };
    for (const [where, list] of Object.entries(names)) {
      expect([where, list.includes('get-system-info')]).toEqual([where, true]);
      expect([where, list.includes('poll-system-stats')]).toEqual([where, false]);
    }
    // Asked for by name, it is a tool the provider does not offer.
    await expect(aiSdkTools(mcp, { tools: ['poll-system-stats'] })).rejects.toThrow('the provider offers no tool "poll-system-stats"');
    await expect(langchainTools(mcp, { tools: ['poll-system-stats'] })).rejects.toThrow('the provider offers no tool "poll-system-stats"');
  });

  it('refuses a model\'s call to poll-system-stats as an unknown tool, in every way back, without reaching the server', async () => {
    const before = calledTools(transport).length;
    expect(await mcp.executeToolCalls([call('m1', 'poll-system-stats')])).toEqual([
      { role: 'tool', tool_call_id: 'm1', content: 'Unknown tool: poll-system-stats', is_error: true },
    ]);
    expect(await executeOpenAIResponsesToolCalls(mcp, [{ type: 'function_call', call_id: 'r1', name: 'poll-system-stats', arguments: '{}' }] as never)).toEqual([
      { type: 'function_call_output', call_id: 'r1', output: 'Unknown tool: poll-system-stats' },
    ]);
    expect((await executeOpenAIChatToolCalls(mcp, [call('c1', 'poll-system-stats')]))[0]).toMatchObject({ is_error: true, content: 'Unknown tool: poll-system-stats' });
    expect(await executeAnthropicToolCalls(mcp, [{ type: 'tool_use', id: 'a1', name: 'poll-system-stats', input: {} }] as never)).toEqual([
      { type: 'tool_result', tool_use_id: 'a1', content: 'Unknown tool: poll-system-stats', is_error: true },
    ]);
    expect(await executeGeminiToolCalls(mcp, [{ functionCall: { name: 'poll-system-stats', args: {} } }])).toEqual([
      { functionResponse: { name: 'poll-system-stats', response: { error: 'Unknown tool: poll-system-stats' } } },
    ]);
    expect(calledTools(transport).slice(before)).toEqual([]);
  });

  it('keeps poll-system-stats from a model behind ToolSearch: not found, not deferred, not run when called by name', async () => {
    const search = new ToolSearch({ provider: mcp, alwaysIncludeIf: () => true });
    expect((await search.search('poll system stats', { limit: 100 })).map((hit) => hit.name)).not.toContain('poll-system-stats');
    const [found] = await search.executeToolCalls([call('s1', 'tool_search', { query: 'poll system stats', limit: 20 })]);
    expect(found?.content).not.toContain('poll-system-stats');
    expect((await toolsForAnthropic(search, { deferLoading: true })).map((tool) => tool.name)).not.toContain('poll-system-stats');
    expect((await toolsForOpenAIResponses(new ToolSearch({ provider: mcp }), { deferLoading: true })).map((tool) => ('name' in tool ? tool.name : tool.type))).not.toContain('poll-system-stats');
    const before = calledTools(transport).length;
    expect(await search.executeToolCalls([call('s2', 'poll-system-stats')])).toEqual([{ role: 'tool', tool_call_id: 's2', content: 'Unknown tool: poll-system-stats', is_error: true }]);
    expect(calledTools(transport).slice(before)).toEqual([]);
    // Nor did the refused call load it.
    expect((await search.toolsForLlm()).map((tool) => tool.function.name)).not.toContain('poll-system-stats');
  });

  it('runs poll-system-stats for the app (caller: app)', async () => {
    const [answer] = await mcp.executeToolCalls([call('v1', 'poll-system-stats')], { caller: 'app', maxResultChars: Infinity });
    expect(answer).toMatchObject({ tool_call_id: 'v1', is_error: false });
    expect(answer?.content).toMatch(/memory/i);
    expect(calledTools(transport)).toContain('poll-system-stats');
  });

  it('passes the caller through Policy, UnknownKeys, Reasons, Leases and Registry: the app\'s call is asked about and runs', async () => {
    const questions: PolicyQuestion[] = [];
    const registry = new Registry().add(mcp, { prefix: 'sysmon' });
    const leases = new Leases({ inner: registry, table: new LeaseTable(), agentId: 'host' });
    const policy = new Policy({
      provider: new UnknownKeys({ provider: new Reasons({ provider: leases }) }),
      onAsk: (question) => {
        questions.push(question);
        return { action: 'allow-once' };
      },
    });
    expect((await policy.toolsForLlm()).map((tool) => tool.function.name)).not.toContain('sysmon_poll-system-stats');
    const before = calledTools(transport).length;
    const [fromApp] = await policy.executeToolCalls([call('v2', 'sysmon_poll-system-stats')], { names: 'real', caller: 'app', maxResultChars: Infinity });
    expect(fromApp).toMatchObject({ tool_call_id: 'v2', is_error: false });
    expect(questions).toEqual([expect.objectContaining({ kind: 'permission', tool: 'sysmon_poll-system-stats', arguments: {}, caller: 'app' })]);
    const [fromModel] = await policy.executeToolCalls([call('m2', 'sysmon_poll-system-stats')]);
    expect(fromModel).toMatchObject({ tool_call_id: 'm2', is_error: true, content: 'Unknown tool: poll-system-stats' });
    expect(questions[1]).toMatchObject({ tool: 'sysmon_poll-system-stats', caller: 'model' });
    expect(calledTools(transport).slice(before)).toEqual(['poll-system-stats']);
  });

  it('lets a Policy\'s answers and rules decide the app\'s call as they would the model\'s', async () => {
    const before = calledTools(transport).length;
    const policy = new Policy({ provider: new Registry().add(mcp, { prefix: 'sysmon' }), onAsk: () => ({ action: 'deny-once' }) });
    const [answer] = await policy.executeToolCalls([call('v3', 'sysmon_poll-system-stats')], { names: 'real', caller: 'app' });
    expect(answer).toMatchObject({ is_error: true, content: 'Denied by the user' });
    const ruled = (decision: 'allow' | 'deny') =>
      new Policy({
        provider: new Registry().add(mcp, { prefix: 'sysmon' }),
        rules: [{ tool: 'sysmon_poll-system-stats', decision, note: 'the view polls' }],
        onAsk: () => {
          throw new Error('a rule decides this call: nobody is asked');
        },
      });
    const [denied] = await ruled('deny').executeToolCalls([call('v4', 'sysmon_poll-system-stats')], { names: 'real', caller: 'app' });
    expect(denied).toMatchObject({ is_error: true, content: 'Denied by policy: the view polls' });
    expect(calledTools(transport).slice(before)).toEqual([]);
    const [allowed] = await ruled('allow').executeToolCalls([call('v5', 'sysmon_poll-system-stats')], { names: 'real', caller: 'app' });
    expect(allowed).toMatchObject({ is_error: false });
    expect(calledTools(transport).slice(before)).toEqual(['poll-system-stats']);
  });
});

describe.each([
  ['2026-07-28', 'modern' as const],
  ['2025-11-25', 'legacy' as const],
])('the apps fixture server in the %s era', (version, era) => {
  const clients: McpClient[] = [];
  const stderr: string[] = [];
  const connect = (options: { extensions?: typeof APPS } = { extensions: APPS }) => {
    const mcp = McpClient.connectStdio({ ...fixture('apps-server.mjs'), era, onStderr: (line) => stderr.push(line), ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('registers its UI tools only for a client that declares the extension', async () => {
    const declaring = connect();
    const plain = connect({});
    expect((await firstValueFrom(declaring.describe())).protocolVersion).toBe(version);
    expect((await firstValueFrom(declaring.listTools())).map((tool) => tool.name)).toEqual(['greet', 'show-board', 'refresh-board', 'note-for-model']);
    expect((await firstValueFrom(plain.listTools())).map((tool) => tool.name)).toEqual(['greet']);
  });

  it('shows the model what is for the model, and gives each caller only its own tools', async () => {
    const mcp = connect();
    expect((await mcp.toolsForLlm()).map((tool) => tool.function.name)).toEqual(['greet', 'show-board', 'note-for-model']);
    const fromModel = await mcp.executeToolCalls([call('m1', 'note-for-model'), call('m2', 'refresh-board'), call('m3', 'show-board')]);
    expect(fromModel.map((answer) => [answer.is_error, answer.content])).toEqual([
      [false, 'note-for-model ran'],
      [true, 'Unknown tool: refresh-board'],
      [false, 'show-board ran'],
    ]);
    const fromApp = await mcp.executeToolCalls([call('v1', 'note-for-model'), call('v2', 'refresh-board'), call('v3', 'greet', { who: 'x' })], { caller: 'app' });
    expect(fromApp.map((answer) => [answer.is_error, answer.content])).toEqual([
      [true, 'Tool note-for-model is not for apps: its visibility leaves out "app"'],
      [false, 'refresh-board ran'],
      [false, 'greet ran'],
    ]);
    // stderr is a pipe of its own: its lines may come after the answers.
    const called = () => stderr.filter((line) => line.startsWith('called '));
    await eventually(() => called().length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(called()).toEqual(['called note-for-model', 'called show-board', 'called refresh-board', 'called greet']);
  });
});

describe('portable names with tools kept from the model', () => {
  // "get weather" does not fit the portable rule and is shown as
  // get_weather_ufgpcjui, unless a tool of that very name takes it. Here
  // that tool is for the view only: the model's name must not depend on it.
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-visibility-'));
  const catalogue = join(dir, 'catalogue.json');
  writeFileSync(
    catalogue,
    JSON.stringify({
      tools: [
        { name: 'get weather', inputSchema: { type: 'object' } },
        { name: 'get_weather_ufgpcjui', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } },
      ],
    }),
  );
  const mcp = McpClient.connectStdio(fixture('catalogue-server.mjs', catalogue));
  afterAll(async () => {
    await mcp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('maps the names the model is shown over the tools it is shown, and reads its calls back the same way', async () => {
    const shown = (await mcp.toolsForLlm()).map((tool) => tool.function.name);
    expect(shown).toEqual(['get_weather_ufgpcjui']);
    const [answer] = await mcp.executeToolCalls([call('m1', shown[0] as string)]);
    expect(answer).toMatchObject({ is_error: false });
    expect(JSON.parse(answer?.content ?? '')).toEqual({ name: 'get weather', arguments: {} });
    const [fromApp] = await mcp.executeToolCalls([call('v1', 'get_weather_ufgpcjui')], { caller: 'app', names: 'real' });
    expect(JSON.parse(fromApp?.content ?? '')).toEqual({ name: 'get_weather_ufgpcjui', arguments: {} });
  });
});
