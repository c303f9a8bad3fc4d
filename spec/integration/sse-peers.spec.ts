import { firstValueFrom, toArray, take } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { mcpProxy, serverEverythingSse, type SsePeer, supergateway } from '../support/sse-peers.js';

// Published servers that serve HTTP+SSE (the 2024-11-05 transport), each found
// by connectHttp with nothing but its URL, as a user who does not know which
// transport a URL serves would write it.

jest.setTimeout(30000);

describe('server-everything in its sse mode', () => {
  let server: SsePeer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await serverEverythingSse();
    mcp = McpClient.connectHttp({ url: `${server.origin}/sse`, clientName: 'rxmcp-spec' });
  }, 30000);
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it('is found with no option set, and describes itself as reached over HTTP+SSE', async () => {
    const description = await firstValueFrom(mcp.describe());
    expect(description.wire).toBe('sse');
    expect(description.era).toBe('legacy');
    expect(description.serverInfo?.name).toBe('mcp-servers/everything');
  });

  it('lists its tools and calls one', async () => {
    const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
    expect((await firstValueFrom(mcp.callTool('get-sum', { a: 2, b: 40 }))).content[0]?.text).toContain('42');
  });

  it('reads a resource and gets a prompt', async () => {
    const resource = (await firstValueFrom(mcp.listResources()))[0];
    const read = await firstValueFrom(mcp.readResource(resource?.uri as string));
    expect(read.contents[0]?.uri).toBe(resource?.uri);
    const prompt = await firstValueFrom(mcp.getPrompt('simple-prompt'));
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'This is a simple prompt without arguments.' });
  });

  it('reports the progress of a long call, sent on the event stream', async () => {
    const progress = firstValueFrom(mcp.progress$.pipe(take(3), toArray()));
    await firstValueFrom(mcp.callTool('trigger-long-running-operation', { duration: 1, steps: 3 }, { progressToken: 'sse-steps' }));
    expect((await progress).map((event) => [event.progressToken, event.progress, event.total])).toEqual([
      ['sse-steps', 1, 3],
      ['sse-steps', 2, 3],
      ['sse-steps', 3, 3],
    ]);
  });

  it('asks for input on the event stream, and gets the answer of onElicit', async () => {
    const questions: string[] = [];
    const asking = McpClient.connectHttp({
      url: `${server.origin}/sse`,
      onElicit: ({ params }) => {
        questions.push(String(params.message));
        return { action: 'accept', content: { name: 'Ada Lovelace' } };
      },
    });
    try {
      // server-everything adds the tool once the client has said it can answer questions.
      const offered = async (): Promise<boolean> => (await firstValueFrom(asking.listTools({ refresh: true }))).some((tool) => tool.name === 'trigger-elicitation-request');
      for (let tries = 0; tries < 50 && !(await offered()); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      const result = await firstValueFrom(asking.callTool('trigger-elicitation-request'));
      expect(questions).toHaveLength(1);
      expect(result.content.map((block) => block.text).join('\n')).toContain('- Name: Ada Lovelace');
    } finally {
      await asking.close();
    }
  });

  it('ends its event stream on the server when closed', async () => {
    const connected = () => server.stderr.filter((line) => line.startsWith('Client Connected:'));
    const before = connected().length;
    const other = McpClient.connectHttp({ url: `${server.origin}/sse` });
    await firstValueFrom(other.listTools());
    // The server's stderr comes down its own pipe and can trail its answers.
    await eventually(() => connected().length > before);
    const session = connected().at(-1)?.split(/\s+/).at(-1) as string;
    await other.close();
    await eventually(() => server.stderr.some((line) => line.startsWith('Client Disconnected:') && line.endsWith(session)), 5000);
  });
});

// The SDK v2 fixture over stdio, served to HTTP by a bridge.
function servesTheFixture(connect: () => McpClient): void {
  it('is found with no option set, and describes itself as reached over HTTP+SSE', async () => {
    const description = await firstValueFrom(connect().describe());
    expect(description.wire).toBe('sse');
    expect(description.serverInfo?.name).toBe('rxmcp-fixture');
  });

  it('lists every page of tools and calls one', async () => {
    const names = (await firstValueFrom(connect().listTools())).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'item-00', 'item-11']));
    expect((await firstValueFrom(connect().callTool('add', { a: 2, b: 40 }))).structuredContent).toEqual({ sum: 42 });
  });

  it('reads a resource and renders a prompt', async () => {
    expect((await firstValueFrom(connect().readResource('fixture://readme'))).contents[0]?.text).toBe('# Fixture');
    const prompt = await firstValueFrom(connect().getPrompt('greet', { name: 'Ada', language: 'Esperanto' }));
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Greet Ada in Esperanto.' });
  });
}

describe('mcp-proxy in front of a stdio server', () => {
  let server: SsePeer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await mcpProxy();
    mcp = McpClient.connectHttp({ url: `${server.origin}/sse`, clientName: 'rxmcp-spec' });
  }, 30000);
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  describe('on /sse', () => servesTheFixture(() => mcp));

  it('on /mcp, where it serves Streamable HTTP, is reached over Streamable HTTP', async () => {
    const modern = McpClient.connectHttp({ url: `${server.origin}/mcp`, clientName: 'rxmcp-spec' });
    try {
      expect((await firstValueFrom(modern.describe())).wire).toBe('streamable-http');
      expect((await firstValueFrom(modern.callTool('echo', { text: 'over /mcp' }))).content[0]?.text).toBe('over /mcp');
    } finally {
      await modern.close();
    }
  });
});

describe('supergateway with its default output, in front of a stdio server', () => {
  let server: SsePeer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await supergateway();
    mcp = McpClient.connectHttp({ url: `${server.origin}/sse`, clientName: 'rxmcp-spec' });
  }, 30000);
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  servesTheFixture(() => mcp);

  it('cancels a call on the stdio server behind it when the caller unsubscribes', async () => {
    const said = (pattern: RegExp): string | undefined => server.stderr.map((line) => pattern.exec(line)?.[1]).find((id) => id !== undefined);
    const call = mcp.callTool('sleep', { ms: 30000 }).subscribe({ error: () => undefined });
    await eventually(() => said(/started sleep (\S+)/) !== undefined, 10000);
    call.unsubscribe();
    await eventually(() => said(/cancelled (\S+)/) === said(/started sleep (\S+)/), 10000);
  });
});
