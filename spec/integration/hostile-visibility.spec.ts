import { firstValueFrom } from 'rxjs';
import { McpClient, toolsForOpenAIResponses } from '../../src/index.js';
import { hostileServer } from '../support/hostile-corpus.js';

// Tool visibility (MCP Apps) in shapes no honest server sends, from the
// hostile corpus (spec/fixtures/hostile-corpus.cjs), with what the user sees.

const call = (id: string, name: string) => ({ id, function: { name, arguments: {} } });

describe('a hostile server\'s tool visibility', () => {
  const clients: McpClient[] = [];
  const warnings: string[] = [];
  const connect = (hostileCase: string) => {
    const mcp = McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--case', hostileCase], onWarn: (warning) => warnings.push(warning) });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('shows the model only the tools whose visibility it can read and that include it, and warns once about the others, whatever the fetches', async () => {
    const mcp = connect('visibility-shapes');
    expect((await firstValueFrom(mcp.listTools())).length).toBe(10);
    expect((await mcp.toolsForLlm()).map((tool) => tool.function.name)).toEqual(['proto-ui', 'model-and-unknown']);
    expect((await toolsForOpenAIResponses(mcp, { strict: true })).map((tool) => tool.name)).toEqual(['proto-ui', 'model-and-unknown']);
    const unreadable = warnings.filter((warning) => warning.includes('visibility'));
    expect(unreadable).toEqual([
      '7 tool(s) kept from the model and from apps, their _meta.ui.visibility unreadable: "echo", "as-string", "as-object", "as-null", "too-long", …',
    ]);
  });

  it('refuses each caller the tools not for it, and runs the rest', async () => {
    const mcp = connect('visibility-shapes');
    const names = ['echo', 'as-null', 'meta-string', 'proto-entries', 'proto-ui', 'model-and-unknown'];
    const fromModel = await mcp.executeToolCalls(names.map((name, n) => call(`m${n}`, name)));
    expect(fromModel.map((answer) => [answer.is_error, answer.content])).toEqual([
      [true, 'Unknown tool: echo'],
      [true, 'Unknown tool: as-null'],
      [true, 'Unknown tool: meta-string'],
      [true, 'Unknown tool: proto-entries'],
      [false, 'ok'],
      [false, 'ok'],
    ]);
    const fromApp = await mcp.executeToolCalls(names.map((name, n) => call(`a${n}`, name)), { caller: 'app' });
    expect(fromApp.map((answer) => [answer.is_error, answer.content])).toEqual([
      [true, 'Tool echo is not for apps: its visibility leaves out "app"'],
      [true, 'Tool as-null is not for apps: its visibility leaves out "app"'],
      [true, 'Tool meta-string is not for apps: its visibility leaves out "app"'],
      [false, 'ok'],
      [false, 'ok'],
      [true, 'Tool model-and-unknown is not for apps: its visibility leaves out "app"'],
    ]);
  });

  it('keeps a tool listing "model" 300,000 times from everybody, at once', async () => {
    const mcp = connect('visibility-huge');
    await firstValueFrom(mcp.listTools());
    const started = performance.now();
    expect(await mcp.toolsForLlm()).toEqual([]);
    expect(await mcp.executeToolCalls([call('m1', 'echo')])).toEqual([{ role: 'tool', tool_call_id: 'm1', content: 'Unknown tool: echo', is_error: true }]);
    // Generous for a loaded machine: reading 300,000 entries for each call would be far slower still.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
