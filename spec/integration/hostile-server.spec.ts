import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, McpProtocolError } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { hostileServer, UNECHOABLE_IDS } from '../support/hostile-corpus.js';

// Single hostile answers from spec/fixtures/hostile-server.mjs, each with what
// the user sees. The whole corpus runs in spec/properties/hostile-answers.spec.ts.

const stdio = (hostileCase: string, options: Record<string, unknown> = {}): McpClient =>
  McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--case', hostileCase], ...options });

// A model's arguments too deep to serialise fail their own call with a
// message, and the next call of the batch runs; the client is closed after.
async function expectDeepArgumentsRefused(mcp: McpClient): Promise<void> {
  try {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const messages = await mcp.executeToolCalls([
      { id: 'c1', function: { name: 'echo', arguments: deep } },
      { id: 'c2', function: { name: 'echo', arguments: { text: 'next' } } },
    ]);
    expect(messages[0]).toMatchObject({ tool_call_id: 'c1', is_error: true });
    expect(messages[0]?.content).toMatch(/^tools\/call could not be sent: /);
    expect(messages[1]).toMatchObject({ tool_call_id: 'c2', is_error: false, content: 'next' });
  } finally {
    await mcp.close();
  }
}

describe('a hostile server over stdio', () => {
  it('cannot choose the prototype of a tool result with "__proto__"', async () => {
    const mcp = stdio('proto-result');
    try {
      const result = await firstValueFrom(mcp.callTool('echo'));
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(result.isError).toBeUndefined();
      expect('polluted' in result).toBe(false);
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
      const [message] = await mcp.executeToolCalls([{ id: 'c1', function: { name: 'echo', arguments: {} } }]);
      expect(message?.is_error).toBe(false);
    } finally {
      await mcp.close();
    }
  });

  it('hands on no "__proto__" member inside capabilities, serverInfo, read contents, prompt messages or a completion, in either era', async () => {
    const own = (value: unknown) => Object.hasOwn(value as object, '__proto__');
    for (const legacy of [false, true]) {
      const shaken = McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--case', 'proto-capabilities', ...(legacy ? ['--legacy'] : [])] });
      const nested = McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--case', 'proto-nested', ...(legacy ? ['--legacy'] : [])] });
      try {
        const { capabilities, serverInfo } = await firstValueFrom(shaken.describe());
        expect([own(capabilities), own(serverInfo)]).toEqual([false, false]);
        const [contents] = (await firstValueFrom(nested.readResource('file:///a.txt'))).contents;
        const prompt = await firstValueFrom(nested.getPrompt('greet'));
        const { completion } = await firstValueFrom(nested.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: '' }));
        expect([own(contents), own(prompt.messages[0]), own(prompt.messages[0]?.content), own(completion)]).toEqual([false, false, false, false]);
        expect(Object.assign({}, contents, prompt.messages[0], completion)).not.toHaveProperty('polluted');
      } finally {
        await Promise.all([shaken.close(), nested.close()]);
      }
    }
  });

  it('refuses a malformed page that follows a good one it keeps, when the list is forced, and serves no stale catalogue after', async () => {
    // The good page comes with ttlMs: the client keeps it, then the server turns.
    const mcp = McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--ttl', '60000'] });
    try {
      expect((await firstValueFrom(mcp.listTools())).map((tool) => tool.name)).toEqual(['echo']);
      await firstValueFrom(mcp.callTool('select_case', { case: 'wrong-tools-list-tools.0.name-other' }));
      // Unforced, the kept page answers; forced, the server's new page is checked and refused.
      expect((await firstValueFrom(mcp.listTools())).map((tool) => tool.name)).toEqual(['echo']);
      await expect(firstValueFrom(mcp.listTools({ refresh: true }))).rejects.toThrow(/^malformed tools\/list result/);
      // The forced read dropped what was kept: the next read goes to the server, and is refused too.
      await expect(firstValueFrom(mcp.listTools())).rejects.toBeInstanceOf(McpProtocolError);
      await firstValueFrom(mcp.callTool('select_case', { case: 'none' }));
      expect((await firstValueFrom(mcp.listTools({ refresh: true }))).map((tool) => tool.name)).toEqual(['echo']);
    } finally {
      await mcp.close();
    }
  });

  it('fails a list of endless fresh pages at maxListItems (100000 by default), naming the method and the limit', async () => {
    const mcp = stdio('endless-pages');
    try {
      const failure = firstValueFrom(mcp.listTools({ timeoutMs: 30_000 }));
      await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
      await expect(failure).rejects.toThrow('tools/list has more than 100000 items (maxListItems)');
      // The connection goes on.
      expect((await firstValueFrom(mcp.callTool('echo', { text: 'after' }))).content[0]?.text).toBe('after');
    } finally {
      await mcp.close();
    }
  });

  it('fails a list past maxListPages, and a repeated cursor, with McpProtocolError', async () => {
    const mcp = stdio('endless-small-pages', { maxListPages: 40 });
    const repeating = stdio('repeated-cursor');
    try {
      await expect(firstValueFrom(mcp.listPrompts({ timeoutMs: 30_000 }))).rejects.toThrow('prompts/list has more than 40 pages (maxListPages)');
      await expect(firstValueFrom(repeating.listResources())).rejects.toThrow('resources/list repeated the cursor "again"');
    } finally {
      await Promise.all([mcp.close(), repeating.close()]);
    }
  });

  it('fails a list past maxListItems set by the caller', async () => {
    const mcp = stdio('endless-small-pages', { maxListItems: 25 });
    try {
      const failure = firstValueFrom(mcp.listResourceTemplates({ timeoutMs: 30_000 }));
      await expect(failure).rejects.toMatchObject({ name: 'McpProtocolError', method: 'resources/templates/list' });
      await expect(failure).rejects.toThrow('resources/templates/list has more than 25 items (maxListItems)');
    } finally {
      await mcp.close();
    }
  });

  it('answers a model\'s arguments nested 100,000 levels deep with an error message, and runs the next call', async () => {
    await expectDeepArgumentsRefused(stdio('none'));
  });

  it('refuses list limits that are not whole numbers', () => {
    expect(() => stdio('none', { maxListPages: -1 })).toThrow(McpClientError);
    expect(() => stdio('none', { maxListItems: 1.5 })).toThrow('option maxListItems must be a whole number, 0 or more; got 1.5');
  });

  it('shows tools named with escapes, "__proto__", nothing, 100,000 dots or another tool\'s shown name under distinct portable names, and runs calls made under them', async () => {
    const mcp = stdio('tool-names');
    try {
      const shown = (await mcp.toolsForLlm()).map((tool) => tool.function.name);
      expect(shown).toHaveLength(7);
      expect(new Set(shown).size).toBe(7);
      for (const name of shown) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
      // Names that fit stay, the name another tool's would map to among them; that tool's is salted.
      expect(shown.slice(0, 1)).toEqual(['echo']);
      expect(shown[2]).toBe('__proto__');
      expect(shown[5]).toBe('get_weather_ufgpcjui');
      expect(shown[6]).toMatch(/^get_weather_[0-9a-v]{8}$/);
      expect(shown[6]).not.toBe(shown[5]);
      expect(shown[1]).toMatch(/^bell_2J_[0-9a-v]{8}$/);
      const answers = await mcp.executeToolCalls(shown.map((name, n) => ({ id: `c${n}`, function: { name, arguments: {} } })));
      // The tool named nothing is shown and read back, and then refused as a call without a name.
      expect(answers.map((answer) => answer.is_error)).toEqual([false, false, false, true, false, false, false]);
      expect(answers[3]?.content).toBe('Malformed tool call: it needs an id and a function name');
    } finally {
      await mcp.close();
    }
  });

  it('fails at once a call whose answer has a result that is not an object', async () => {
    const mcp = stdio('result-not-object');
    try {
      const started = Date.now();
      await expect(firstValueFrom(mcp.callTool('echo', {}, { timeoutMs: 20_000 }))).rejects.toThrow(
        'the server sent a malformed response: its result is not an object',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await mcp.close();
    }
  });
});

describe('a hostile legacy server\'s own requests over stdio', () => {
  it('are never answered under an id JSON cannot echo exactly (1e400, 2^53 + 1, 1.5, -0, a string of 2,000 characters): each is refused with a warning, and the call goes on', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({
      ...hostileServer,
      args: [...hostileServer.args, '--legacy', '--case', 'unechoable-request-ids'],
      onWarn: (message) => warnings.push(message),
    });
    try {
      expect((await firstValueFrom(mcp.callTool('echo'))).content).toEqual([{ type: 'text', text: 'ok' }]);
      // The server reports every answer it received, in stdin order: the client's to its requests came first.
      const report = await firstValueFrom(mcp.callTool('received_answers'));
      expect(JSON.parse((report.content[0] as { text: string }).text)).toEqual([]);
      const refused = warnings.filter((warning) => warning.includes('cannot be echoed exactly'));
      expect(refused).toHaveLength(UNECHOABLE_IDS.length * 2);
    } finally {
      await mcp.close();
    }
  });
});

describe('a hostile server over 2026-07-28 HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('hostile-server.mjs', '--http');
  });
  afterAll(() => server.stop());

  const http = (hostileCase: string, options: Record<string, unknown> = {}): McpClient =>
    McpClient.connectHttp({ url: `${server.url}?case=${hostileCase}`, ...options });

  it('answers a tools/list whose inputSchema nests 5,000 levels deep, and the next call works', async () => {
    const mcp = http('deep-input-schema-5000');
    try {
      const tools = await firstValueFrom(mcp.listTools({ timeoutMs: 20_000 }));
      expect(tools.map((tool) => tool.name)).toEqual(['echo']);
      expect((await firstValueFrom(mcp.callTool('echo', { text: 'next' }))).content[0]?.text).toBe('next');
    } finally {
      await mcp.close();
    }
  });

  it('fails a call whose header-mismatch refresh repeats its cursor, instead of looping', async () => {
    const mcp = http('header-mismatch-repeated-cursor');
    try {
      await expect(firstValueFrom(mcp.callTool('echo', {}, { timeoutMs: 20_000 }))).rejects.toThrow('tools/list repeated the cursor "again"');
    } finally {
      await mcp.close();
    }
  });

  it('keeps the header-mismatch refresh within maxListPages', async () => {
    const mcp = http('header-mismatch-endless-pages', { maxListPages: 3 });
    try {
      await expect(firstValueFrom(mcp.callTool('echo', {}, { timeoutMs: 20_000 }))).rejects.toThrow('tools/list has more than 3 pages (maxListPages)');
    } finally {
      await mcp.close();
    }
  });
});

describe('a hostile model over 2025-11-25 HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('hostile-server.mjs', '--http');
  });
  afterAll(() => server.stop());

  it('answers arguments nested 100,000 levels deep with an error message, and runs the next call', async () => {
    const mcp = McpClient.connectHttp({ url: `${server.url}?case=none&legacy` });
    await expectDeepArgumentsRefused(mcp);
  });
});
