import { firstValueFrom, map, type Observable, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { McpClient, McpServerGoneError, type ProgressEvent, Registry } from 'rxmcp';
import { FakeTransport, InProcessTransport, ProgressKit, testKit } from 'rxmcp/testing';

describe('FakeTransport', () => {
  it('scripts rounds by request, records what was sent, and pushes notifications', async () => {
    const transport = new FakeTransport().modern().on('tools/call', (_request, previous) =>
      previous === 0
        ? { result: { resultType: 'input_required', requestState: 'again' } }
        : { result: { resultType: 'complete', content: [{ type: 'text', text: 'second round' }] }, delayMs: 5 },
    );
    const mcp = new McpClient({ transport });
    const notes = firstValueFrom(mcp.notifications$);
    expect((await firstValueFrom(mcp.callTool('t'))).content[0]?.text).toBe('second round');
    transport.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect((await notes).method).toBe('notifications/tools/list_changed');
    expect(transport.requests('tools/call').map((r) => r.params?.requestState)).toEqual([undefined, 'again']);
  });

  it('dies as a server exit would', async () => {
    const transport = new FakeTransport().legacy().on('tools/call', 'silence');
    const mcp = new McpClient({ transport, probeTimeoutMs: 50 });
    const call = firstValueFrom(mcp.callTool('t'));
    setTimeout(() => transport.exit(2, 'out of memory'), 100);
    await expect(call).rejects.toBeInstanceOf(McpServerGoneError);
    await expect(call).rejects.toMatchObject({ exitCode: 2, stderrTail: 'out of memory' });
  });
});

function inProcessServer(): McpServer {
  const server = new McpServer({ name: 'in-process', version: '1.0.0' });
  server.registerTool('hello', { description: 'Greets', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
    content: [{ type: 'text', text: `hello, ${name}` }],
  }));
  new ProgressKit({ steps: 3 }).register(server);
  return server;
}

describe('InProcessTransport', () => {
  it('puts a client in front of a live SDK server, with no wire (modern era)', async () => {
    const mcp = new McpClient({ transport: new InProcessTransport({ server: inProcessServer }) });
    expect((await firstValueFrom(mcp.describe())).era).toBe('modern');
    expect((await firstValueFrom(mcp.callTool('hello', { name: 'Ada' }))).content[0]?.text).toBe('hello, Ada');
    await mcp.close();
  });

  it('serves the legacy era to a client that opens with initialize', async () => {
    const transport = new InProcessTransport({ server: inProcessServer });
    const answer = firstValueFrom(transport.inbound);
    transport.outbound.next({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await answer).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'in-process' } } });
    await transport.close();
  });

  it('runs a ProgressKit on the schedule the test chose', async () => {
    const mcp = new McpClient({ transport: new InProcessTransport({ server: inProcessServer }) });
    const reports = mcp.progress$.pipe(map((p: ProgressEvent) => `${p.progress}/${p.total}`), toArray());
    const collected = firstValueFrom(reports);
    const result = await firstValueFrom(mcp.callTool('progress', { steps: 4 }, { progressToken: 'p' }));
    await mcp.close();
    expect(result.content[0]?.text).toBe('done after 4 steps');
    expect(await collected).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });
});

describe('testKit', () => {
  it('answers one tool of every shape through the bridge', async () => {
    const kit = testKit();
    const names = (await kit.toolsForLlm()).map((tool) => tool.function.name);
    expect(names).toEqual(['text', 'structured', 'image', 'audio', 'embedded_resource', 'resource_link', 'fails', 'throws', 'slow', 'read_only', 'writes']);
    const answers = await kit.executeToolCalls(
      [['text', { text: 'hi' }], ['structured', { a: 1, b: 2 }], ['image', {}], ['audio', {}], ['embedded_resource', {}], ['resource_link', {}], ['fails', {}], ['throws', {}], ['slow', { ms: 5 }]].map(
        ([name, args], i) => ({ id: String(i), function: { name: name as string, arguments: args as object } }),
      ),
    );
    expect(answers.map((a) => [a.content, a.is_error])).toEqual([
      ['hi', false],
      ['3', false],
      ['[image: image/png, 70 bytes]', false],
      ['[audio: audio/wav, 44 bytes]', false],
      ['# Test', false],
      ['[resource link: test://readme (readme)]', false],
      ['it failed', true],
      ['the handler threw', true],
      ['waited 5 ms', false],
    ]);
    expect(kit.toolAnnotations('read_only')).toEqual({ readOnlyHint: true, idempotentHint: true });
  });
});

describe('the agent test in docs/testing.md', () => {
  // Stands for the user's agent: one turn that calls a remote and a local tool.
  const myAgentTurn = (tools: Registry) =>
    tools.executeToolCalls([
      { id: '1', function: { name: 'remote_progress', arguments: '{"steps":2}' } },
      { id: '2', function: { name: 'kit_text', arguments: { text: 'local' } } },
    ]);

  it('runs with TestKit and InProcessTransport', async () => {
    const server = () => {
      const s = new McpServer({ name: 'under-test', version: '1.0.0' });
      new ProgressKit({ steps: 3 }).register(s);
      return s;
    };
    const remote = new McpClient({ transport: new InProcessTransport({ server }) });
    const tools = new Registry().add(remote, { prefix: 'remote' }).add(testKit(), { prefix: 'kit' });
    const answers = await myAgentTurn(tools);
    expect(answers.map((a) => [a.content, a.is_error])).toEqual([
      ['done after 2 steps', false],
      ['local', false],
    ]);
    await remote.close();
  });
});

describe('the marble recipe in docs/testing.md', () => {
  // The user's code under test: progress as a percentage, for a progress bar.
  const percent = (progress$: Observable<ProgressEvent>) => progress$.pipe(map(({ progress, total }) => Math.round((100 * progress) / (total ?? 100))));

  it('tests code that consumes progress$ with TestScheduler', () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(({ hot, expectObservable }) => {
      const progress$ = hot<ProgressEvent>('-a-b-c|', {
        a: { progressToken: 't', progress: 1, total: 4 },
        b: { progressToken: 't', progress: 2, total: 4 },
        c: { progressToken: 't', progress: 4, total: 4 },
      });
      expectObservable(percent(progress$)).toBe('-x-y-z|', { x: 25, y: 50, z: 100 });
    });
  });
});
