import { firstValueFrom, lastValueFrom } from 'rxjs';
import { tmpdir } from 'node:os';
import { realpathSync } from 'node:fs';
import { McpCancelledError, McpClient, McpProtocolError, McpTimeoutError, StdioTransport } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, isAlive, modernServer } from '../support/servers.js';

describe('against the SDK v2 fixture (modern era)', () => {
  const stderr: string[] = [];
  const warnings: string[] = [];
  let stdio: StdioTransport;
  let wire: RecordingTransport;
  let mcp: McpClient;

  beforeAll(() => {
    stdio = new StdioTransport({ ...modernServer, onStderr: (line) => stderr.push(line) });
    wire = new RecordingTransport(stdio);
    mcp = new McpClient({ transport: wire, onWarn: (message) => warnings.push(message) });
  });
  afterAll(() => mcp.close());

  it('follows nextCursor through every page of tools/list', async () => {
    const tools = await firstValueFrom(mcp.listTools());
    expect(tools.map((tool) => tool.name)).toEqual([
      'echo', 'add', 'fail', 'sleep', 'image', 'environment',
      ...Array.from({ length: 12 }, (_, n) => `item-${String(n).padStart(2, '0')}`),
      'deploy', 'two-questions', 'state-only', 'nag', 'conversation', 'roots',
      'count', 'add-tool', 'edit-readme',
    ]);
    const pages = wire.requests('tools/list');
    expect(pages.map((request) => request.params?.cursor)).toEqual([undefined, '5', '10', '15', '20', '25']);
  });

  it('stamps every request with the modern _meta', async () => {
    await firstValueFrom(mcp.callTool('echo', { text: 'meta' }));
    const call = wire.requests('tools/call').at(-1);
    expect(call?.params?._meta).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'rxmcp' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
  });

  it('returns structuredContent, and a tool failure as a value', async () => {
    const sum = await firstValueFrom(mcp.callTool('add', { a: 2, b: 40 }));
    expect(sum).toEqual({ content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } });
    const failed = await firstValueFrom(mcp.callTool('fail'));
    expect(failed.isError).toBe(true);
    expect(failed.content[0]?.text).toBe('the tool broke on purpose');
  });

  it('returns non-text content blocks as the server sent them', async () => {
    const result = await firstValueFrom(mcp.callTool('image'));
    expect(result.content.map((block) => block.type)).toEqual(['image', 'resource_link']);
    expect(result.content[0]).toMatchObject({ data: 'iVBORw0KGgo=', mimeType: 'image/png' });
  });

  it('raises a JSON-RPC error as McpProtocolError with its code', async () => {
    const failure = firstValueFrom(mcp.readResource('fixture://nowhere'));
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toMatchObject({ method: 'resources/read', code: expect.any(Number) });
  });

  it('reads a templated resource, renders a prompt and completes an argument', async () => {
    const item = await firstValueFrom(mcp.readResource('fixture://items/7'));
    expect(JSON.parse(item.contents[0]?.text ?? '')).toEqual({ n: 7 });

    const prompt = await firstValueFrom(mcp.getPrompt('greet', { name: 'Ada', language: 'Esperanto' }));
    expect(prompt).toEqual({
      description: 'A greeting',
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada in Esperanto.' } }],
    });

    const completion = await firstValueFrom(
      mcp.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'Es' }),
    );
    expect(completion.completion.values).toEqual(['Esperanto', 'Estonian']);
  });

  it('times out a slow call and stays usable', async () => {
    const failure = firstValueFrom(mcp.callTool('sleep', { ms: 300 }, { timeoutMs: 50 }));
    await expect(failure).rejects.toBeInstanceOf(McpTimeoutError);
    await expect(failure).rejects.toMatchObject({ method: 'tools/call', timeoutMs: 50 });
    const echo = await firstValueFrom(mcp.callTool('echo', { text: 'still here' }));
    expect(echo.content[0]?.text).toBe('still here');
  });

  it('sends notifications/cancelled when the caller unsubscribes, and the server sees it', async () => {
    const before = stderr.length;
    const subscription = mcp.callTool('sleep', { ms: 10000 }).subscribe();
    await eventually(() => stderr.slice(before).some((line) => line.startsWith('started sleep')));
    const id = stderr.slice(before).find((line) => line.startsWith('started sleep'))?.split(' ')[2];
    subscription.unsubscribe();
    await eventually(() => stderr.includes(`cancelled ${id}`));
    expect(wire.cancelled.at(-1)).toBe(Number(id));
  });

  it('errors with McpCancelledError when the caller aborts its signal', async () => {
    const before = stderr.length;
    const controller = new AbortController();
    const failure = lastValueFrom(mcp.callTool('sleep', { ms: 10000 }, { signal: controller.signal }));
    await eventually(() => stderr.slice(before).some((line) => line.startsWith('started sleep')));
    controller.abort();
    await expect(failure).rejects.toBeInstanceOf(McpCancelledError);
    await eventually(() => stderr.slice(before).some((line) => line.startsWith('cancelled')));
  });

  it('cancels a timed-out call on the server too', async () => {
    const before = stderr.length;
    const failure = firstValueFrom(mcp.callTool('sleep', { ms: 10000 }, { timeoutMs: 100 }));
    await expect(failure).rejects.toBeInstanceOf(McpTimeoutError);
    const id = wire.requests('tools/call').at(-1)?.id;
    await eventually(() => stderr.slice(before).includes(`cancelled ${id}`));
    expect(warnings).toEqual([]);
  });
});

describe('the stdio child process', () => {
  it('gets env layered over the inherited environment, in cwd', async () => {
    process.env.RXMCP_INHERITED = 'from-parent';
    const cwd = realpathSync(tmpdir());
    const mcp = McpClient.connectStdio({ ...modernServer, cwd, env: { RXMCP_EXTRA: 'layered' } });
    try {
      const result = await firstValueFrom(mcp.callTool('environment', { names: ['RXMCP_INHERITED', 'RXMCP_EXTRA'] }));
      expect(result.structuredContent).toEqual({ cwd, env: { RXMCP_INHERITED: 'from-parent', RXMCP_EXTRA: 'layered' } });
    } finally {
      await mcp.close();
      delete process.env.RXMCP_INHERITED;
    }
  });

  it('gets env alone with inheritEnv: false', async () => {
    process.env.RXMCP_INHERITED = 'from-parent';
    const mcp = McpClient.connectStdio({ ...modernServer, inheritEnv: false, env: { RXMCP_EXTRA: 'only this' } });
    try {
      const result = await firstValueFrom(mcp.callTool('environment', { names: ['RXMCP_INHERITED', 'RXMCP_EXTRA', 'PATH'] }));
      expect(result.structuredContent).toMatchObject({ env: { RXMCP_INHERITED: null, RXMCP_EXTRA: 'only this', PATH: null } });
    } finally {
      await mcp.close();
      delete process.env.RXMCP_INHERITED;
    }
  });

  it('is gone after close(), and close() is idempotent', async () => {
    const stdio = new StdioTransport(modernServer);
    const mcp = new McpClient({ transport: stdio });
    await firstValueFrom(mcp.describe());
    const pid = stdio.pid as number;
    expect(isAlive(pid)).toBe(true);
    await Promise.all([mcp.close(), mcp.close()]);
    await mcp.close();
    expect(isAlive(pid)).toBe(false);
  });
});
