import { filter, firstValueFrom } from 'rxjs';
import { HttpTransport, McpClient, Registry, StdioTransport, type ToolProvider } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually, everythingServer, fixture } from '../support/servers.js';
import { spyOn } from '../support/spy-transport.js';

// A 2025-11-25 server that declared listChanged promised to say when its
// lists change: the client lists once per session, not once per model turn.
// The list requests are counted by the server itself (list-count-server.mjs,
// written with the official SDK), or on the wire of a real server.

const countServer = (...args: string[]) => fixture('list-count-server.mjs', ...args);
type Counts = Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list', number>;

/** The list requests the server has received so far, as it counts them. */
async function counts(mcp: McpClient): Promise<Counts> {
  const result = await firstValueFrom(mcp.callTool('lists', {}));
  const [block] = result.content;
  return JSON.parse(block?.type === 'text' ? (block.text as string) : '{}') as Counts;
}

/** One model turn: the catalogue shown, then one call run through the bridge. Resolves to the names shown. */
async function turn(provider: ToolProvider, tool = 'echo', args: Record<string, unknown> = { text: 'hi' }): Promise<string[]> {
  const shown = await provider.toolsForLlm();
  const [answer] = await provider.executeToolCalls([{ id: 'call_1', function: { name: tool, arguments: args } }]);
  if (answer?.content.startsWith('Error')) throw new Error(answer.content);
  return shown.map((tool) => tool.function.name);
}

/** The tools/list requests each of `turns` model turns cost, as the server counts them. */
async function listsPerTurn(mcp: McpClient, turns: number): Promise<number[]> {
  const per: number[] = [];
  for (let i = 0; i < turns; i++) {
    const before = (await counts(mcp))['tools/list'];
    await turn(mcp);
    per.push((await counts(mcp))['tools/list'] - before);
  }
  return per;
}

/** Resolves at the next notification of `method` from the server. */
function next(mcp: McpClient, method: string): Promise<unknown> {
  return firstValueFrom(mcp.notifications$.pipe(filter((note) => note.method === method)));
}

describe('lists kept until they change, over stdio (official SDK server)', () => {
  let mcp: McpClient;
  afterEach(() => mcp.close());

  it('lists the tools in the first turn and in no turn after', async () => {
    mcp = McpClient.connectStdio(countServer());
    expect(await listsPerTurn(mcp, 4)).toEqual([1, 0, 0, 0]);
  });

  it('lists once more after the server says its tools changed, and shows the new tool', async () => {
    mcp = McpClient.connectStdio(countServer());
    await listsPerTurn(mcp, 2);
    const changed = next(mcp, 'notifications/tools/list_changed');
    await firstValueFrom(mcp.callTool('add-tool', { name: 'late-arrival' }));
    await changed;
    const before = (await counts(mcp))['tools/list'];
    expect(await turn(mcp, 'late-arrival', {})).toContain('late-arrival');
    expect((await counts(mcp))['tools/list'] - before).toBe(1);
    expect(await listsPerTurn(mcp, 2)).toEqual([0, 0]);
  });

  it('coalesces a flood of list_changed into one list in the next turn', async () => {
    mcp = McpClient.connectStdio(countServer());
    await listsPerTurn(mcp, 1);
    // The flood comes before the tool's answer on the one channel stdio has.
    await turn(mcp, 'flood', { count: 500 });
    expect(await listsPerTurn(mcp, 3)).toEqual([1, 0, 0]);
  });

  it('keeps prompts, resources and templates the same way', async () => {
    mcp = McpClient.connectStdio(countServer());
    for (let i = 0; i < 3; i++) {
      await firstValueFrom(mcp.listPrompts());
      await firstValueFrom(mcp.listResources());
      await firstValueFrom(mcp.listResourceTemplates());
    }
    expect(await counts(mcp)).toMatchObject({ 'prompts/list': 1, 'resources/list': 1, 'resources/templates/list': 1 });
    const prompts = next(mcp, 'notifications/prompts/list_changed');
    const resources = next(mcp, 'notifications/resources/list_changed');
    await firstValueFrom(mcp.callTool('add-prompt', { name: 'farewell' }));
    await firstValueFrom(mcp.callTool('add-resource', { name: 'notes' }));
    await Promise.all([prompts, resources]);
    expect((await firstValueFrom(mcp.listPrompts())).map((prompt) => prompt.name)).toContain('farewell');
    expect((await firstValueFrom(mcp.listResources())).map((resource) => resource.uri)).toContain('fixture://notes');
    await firstValueFrom(mcp.listPrompts());
    await firstValueFrom(mcp.listResources());
    expect(await counts(mcp)).toMatchObject({ 'prompts/list': 2, 'resources/list': 2 });
  });

  it('still lists on refresh: true, and keeps what that list found', async () => {
    mcp = McpClient.connectStdio(countServer());
    await firstValueFrom(mcp.listTools());
    await firstValueFrom(mcp.listTools({ refresh: true }));
    await firstValueFrom(mcp.listTools({ refresh: true }));
    await firstValueFrom(mcp.listTools());
    expect((await counts(mcp))['tools/list']).toBe(3);
  });

  it('lists again after the server restarts', async () => {
    mcp = McpClient.connectStdio({ ...countServer(), restart: { maxAttempts: 2, delayMs: 10 } });
    expect(await listsPerTurn(mcp, 2)).toEqual([1, 0]);
    const states: string[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    await firstValueFrom(mcp.callTool('exit', {}));
    await eventually(() => states.includes('restarting'));
    // The fresh process counts from zero: one list in its first turn, none after.
    expect(await listsPerTurn(mcp, 3)).toEqual([1, 0, 0]);
    expect((await counts(mcp))['tools/list']).toBe(1);
  });

  it('keeps listing every read for a server that did not declare listChanged', async () => {
    mcp = McpClient.connectStdio(countServer('--quiet'));
    // toolsForLlm and the batch each list, as before.
    expect(await listsPerTurn(mcp, 3)).toEqual([2, 2, 2]);
  });

  it('gives a Registry of clients and Registry.fromConfig the same: one list per server, then none', async () => {
    const a = spyOn(new StdioTransport(countServer()));
    const b = spyOn(new StdioTransport(countServer()));
    const registry = new Registry().add(new McpClient({ transport: a.transport }), { prefix: 'a' }).add(new McpClient({ transport: b.transport }), { prefix: 'b' });
    const fromConfig = Registry.fromConfig({ mcpServers: { c: countServer(), d: countServer() } });
    mcp = McpClient.connectStdio(countServer()); // closed by afterEach
    try {
      for (let i = 0; i < 3; i++) {
        await turn(registry, 'a_echo');
        await turn(fromConfig, 'd_echo');
      }
      expect([a, b].map((spy) => spy.sent.filter((method) => method === 'tools/list').length)).toEqual([1, 1]);
      const [answer] = await fromConfig.executeToolCalls([{ id: 'call_c', function: { name: 'c_lists', arguments: {} } }]);
      expect(JSON.parse(answer?.content ?? '{}')['tools/list']).toBe(1);
    } finally {
      await Promise.all([registry.close(), fromConfig.close()]);
    }
  });
});

describe('lists kept until they change, over Streamable HTTP (official SDK server, 2025-11-25 sessions)', () => {
  let server: RunningServer;
  let mcp: McpClient;
  afterEach(async () => {
    await mcp.close();
    await server.stop();
  });

  it('lists once while the GET stream is open, and again once after a change announced on it', async () => {
    server = await startHttpServer('list-count-server.mjs', '--http');
    mcp = McpClient.connectHttp({ url: server.url });
    expect(await listsPerTurn(mcp, 3)).toEqual([1, 0, 0]);
    const changed = next(mcp, 'notifications/tools/list_changed');
    await firstValueFrom(mcp.callTool('add-tool', { name: 'late-arrival' }));
    await changed;
    expect(await turn(mcp, 'late-arrival', {})).toContain('late-arrival');
    expect(await listsPerTurn(mcp, 2)).toEqual([0, 0]);
    expect((await counts(mcp))['tools/list']).toBe(2);
  });

  it('keeps listing every read when the server refuses the GET stream', async () => {
    server = await startHttpServer('list-count-server.mjs', '--http', '--no-get');
    mcp = McpClient.connectHttp({ url: server.url });
    expect(await listsPerTurn(mcp, 3)).toEqual([2, 2, 2]);
  });

  it('lists again once the GET stream dropped, and keeps the list again once it is back', async () => {
    server = await startHttpServer('list-count-server.mjs', '--http');
    const transport = new HttpTransport({ url: server.url });
    const states: boolean[] = [];
    transport.unsolicited$.subscribe((open) => states.push(open));
    mcp = new McpClient({ transport });
    expect(await listsPerTurn(mcp, 2)).toEqual([1, 0]);
    await firstValueFrom(mcp.callTool('drop-stream', {}));
    await eventually(() => states.lastIndexOf(false) > states.indexOf(true));
    const before = (await counts(mcp))['tools/list'];
    await turn(mcp);
    expect((await counts(mcp))['tools/list'] - before).toBeGreaterThanOrEqual(1);
    await eventually(() => states.at(-1) === true);
    expect(await listsPerTurn(mcp, 3)).toEqual([1, 0, 0]);
  });

  it('lists again in a new session after the server ended the old one', async () => {
    server = await startHttpServer('list-count-server.mjs', '--http');
    mcp = McpClient.connectHttp({ url: server.url, onWarn: () => undefined });
    expect(await listsPerTurn(mcp, 2)).toEqual([1, 0]);
    await firstValueFrom(mcp.callTool('expire', {}));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = (await counts(mcp))['tools/list'];
    await turn(mcp);
    expect((await counts(mcp))['tools/list'] - before).toBeGreaterThanOrEqual(1);
  });
});

describe('lists kept until they change, against server-everything (stdio)', () => {
  let mcp: McpClient;
  afterEach(() => mcp.close());

  /** The tools/list requests each of `turns` model turns put on the wire. */
  async function sentPerTurn(sent: string[], turns: number): Promise<number[]> {
    const per: number[] = [];
    for (let i = 0; i < turns; i++) {
      const before = sent.filter((method) => method === 'tools/list').length;
      await turn(mcp);
      per.push(sent.filter((method) => method === 'tools/list').length - before);
    }
    return per;
  }

  // server-everything registers tools once initialized, each announced with a
  // list_changed: resolves once they have been quiet for 300 ms.
  async function announcementsOver(): Promise<void> {
    let last = 0;
    const watching = mcp.notifications$.subscribe(() => (last = Date.now()));
    await firstValueFrom(mcp.describe());
    last = Math.max(last, Date.now());
    await eventually(() => Date.now() - last > 300);
    watching.unsubscribe();
  }

  it('sends tools/list in the first turn only', async () => {
    const spy = spyOn(new StdioTransport(everythingServer));
    mcp = new McpClient({ transport: spy.transport });
    await announcementsOver();
    expect(await sentPerTurn(spy.sent, 4)).toEqual([1, 0, 0, 0]);
  });

  it('reads a list its own announcements overtook once more, then keeps it', async () => {
    // The first list races the announcements right after the handshake: one it heard while its pages came in is not kept.
    const spy = spyOn(new StdioTransport(everythingServer));
    mcp = new McpClient({ transport: spy.transport });
    const [first, ...rest] = await sentPerTurn(spy.sent, 4);
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(2);
    expect(rest).toEqual([0, 0, 0]);
  });

  it('takes list_changed that came before the first list in its stride', async () => {
    // Declaring elicitation makes server-everything register more tools once initialized.
    const spy = spyOn(new StdioTransport(everythingServer));
    mcp = new McpClient({ transport: spy.transport, onElicit: () => ({ action: 'decline' }) });
    await announcementsOver();
    expect(await turn(mcp)).toContain('trigger-elicitation-request');
    expect(await sentPerTurn(spy.sent, 2)).toEqual([0, 0]);
    expect(spy.sent.filter((method) => method === 'tools/list')).toHaveLength(1);
  });

  it('lists resources again after a tool adds one', async () => {
    const spy = spyOn(new StdioTransport(everythingServer));
    mcp = new McpClient({ transport: spy.transport });
    const before = await firstValueFrom(mcp.listResources());
    await firstValueFrom(mcp.listResources());
    expect(spy.sent.filter((method) => method === 'resources/list')).toHaveLength(1);
    const changed = next(mcp, 'notifications/resources/list_changed');
    await firstValueFrom(mcp.callTool('gzip-file-as-resource', { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resourceLink' }));
    await changed;
    const after = await firstValueFrom(mcp.listResources());
    expect(after.length).toBe(before.length + 1);
    expect(spy.sent.filter((method) => method === 'resources/list')).toHaveLength(2);
  });
});
