import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import {
  McpCancelledError,
  McpClient,
  McpClientError,
  McpHttpError,
  McpNetworkError,
  McpProtocolError,
  McpTimeoutError,
  McpUnsupportedVersionError,
} from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// One suite, two servers built from the same SDK v2 fixture: createMcpHandler
// serves both eras (the client must pick modern), and the SDK's session
// transport serves 2025-11-25 only (the client must fall back, unasked).
describe.each([
  ['dual-era (createMcpHandler)', 'http-server.mjs', 'modern', '2026-07-28'],
  ['legacy-only with sessions', 'legacy-http-server.mjs', 'legacy', '2025-11-25'],
])('Streamable HTTP against the SDK v2 fixture, %s', (_name, fixture, era, version) => {
  let server: RunningServer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await startHttpServer(fixture);
    mcp = McpClient.connectHttp({ url: server.url, logLevel: 'info' });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it(`describes, lists, calls, reads and renders in the ${era} era`, async () => {
    const description = await firstValueFrom(mcp.describe());
    expect(description).toMatchObject({ era, protocolVersion: version, serverInfo: { name: 'rxmcp-fixture' } });
    const tools = await firstValueFrom(mcp.listTools());
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'add', 'regional', 'grüße']));
    expect(await firstValueFrom(mcp.callTool('add', { a: 1, b: 2 }))).toEqual({ content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } });
    expect((await firstValueFrom(mcp.readResource('fixture://items/2'))).contents[0]?.text).toBe('{"n":2}');
    expect((await firstValueFrom(mcp.getPrompt('greet', { name: 'Ada', language: 'English' }))).messages[0]?.content.text).toBe('Greet Ada in English.');
    expect((await firstValueFrom(mcp.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'Est' }))).completion.values).toEqual(['Estonian']);
  });

  it('takes progress and log messages from an SSE response, before the answer', async () => {
    const timeline: string[] = [];
    const watching = mcp.progress$.subscribe((p) => timeline.push(`progress ${p.progress}`));
    watching.add(mcp.log$.subscribe((m) => timeline.push(`log ${String(m.data)}`)));
    await new Promise<void>((resolve, reject) =>
      mcp.callTool('count', { steps: 2 }, { progressToken: 'http-1' }).subscribe({ next: () => timeline.push('answer'), error: reject, complete: resolve }),
    );
    watching.unsubscribe();
    expect(timeline).toEqual(['progress 1', 'log step 1', 'progress 2', 'log step 2', 'answer']);
  });

  it('answers the server\'s questions through the hooks: elicitation, sampling and roots', async () => {
    const asking = McpClient.connectHttp({
      url: server.url,
      onElicit: (request) => ({ action: 'accept', content: JSON.stringify(request.params).includes('Who are you') ? { name: 'Ada' } : { confirm: true } }),
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'roses' }, model: 'test' }),
      onListRoots: () => ({ roots: [{ uri: 'file:///srv/project' }] }),
    });
    try {
      expect((await firstValueFrom(asking.callTool('deploy', { env: 'http' }))).content[0]?.text).toBe('deployed to http');
      const both = await firstValueFrom(asking.callTool('two-questions'));
      expect(both.structuredContent).toMatchObject({
        keys: ['poem', 'who'],
        responses: { who: { action: 'accept', content: { name: 'Ada' } }, poem: { content: { text: 'roses' } } },
      });
      expect((await firstValueFrom(asking.callTool('roots'))).content[0]?.text).toBe('file:///srv/project');
    } finally {
      await asking.close();
    }
  });

  it('cancels a call, and the server sees it cancelled', async () => {
    const before = server.stderr.length;
    const subscription = mcp.callTool('sleep', { ms: 10000 }).subscribe({ error: () => undefined });
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('started sleep')));
    subscription.unsubscribe();
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('cancelled')));
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('disconnected')));
  });

  it('times out, lets go of the stream, and stays usable', async () => {
    const before = server.stderr.length;
    await expect(firstValueFrom(mcp.callTool('sleep', { ms: 10000 }, { timeoutMs: 150 }))).rejects.toBeInstanceOf(McpTimeoutError);
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('disconnected')));
    expect((await firstValueFrom(mcp.callTool('echo', { text: 'after' }))).content[0]?.text).toBe('after');
  });

  it('errors with McpCancelledError when the signal aborts', async () => {
    const controller = new AbortController();
    const call = lastValueFrom(mcp.callTool('sleep', { ms: 10000 }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toBeInstanceOf(McpCancelledError);
  });

  it('hears a real change of the tool list through listen, until unsubscribed', async () => {
    const heard: string[] = [];
    const listening = mcp.listen({ toolsListChanged: true }).subscribe((n) => heard.push(n.method));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await firstValueFrom(mcp.callTool('announce'));
    await eventually(() => heard.length > 0);
    expect(heard).toEqual(['notifications/tools/list_changed']);
    listening.unsubscribe();
    await firstValueFrom(mcp.callTool('announce'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
  });
});

describe('Streamable HTTP in the modern era', () => {
  let server: RunningServer;
  let mcp: McpClient;
  const warnings: string[] = [];
  beforeAll(async () => {
    server = await startHttpServer('http-server.mjs');
    mcp = McpClient.connectHttp({ url: server.url, onWarn: (w) => warnings.push(w) });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it('leaves out a tool whose x-mcp-header breaks the rules, naming it and why', async () => {
    const tools = await firstValueFrom(mcp.listTools({ refresh: true }));
    expect(tools.map((t) => t.name)).not.toContain('bad-header');
    expect(warnings).toContain('left out tool "bad-header": x-mcp-header "Ratio" is on a parameter of type "number", not integer, string or boolean');
  });

  it('sends the mirrored headers, base64-encoding what is not plain ASCII', async () => {
    await firstValueFrom(mcp.listTools());
    const regional = await firstValueFrom(
      mcp.callTool('regional', { region: 'Hello, 世界', query: 'select 1', options: { verbose: true }, shard: 7 }),
    );
    expect(regional.structuredContent).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'regional',
      'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'mcp-param-verbose': 'true',
      'mcp-param-shard': '7',
    });
    const plain = await firstValueFrom(mcp.callTool('regional', { region: 'us-west1', query: 'q' }));
    expect(plain.structuredContent).toMatchObject({ 'mcp-param-region': 'us-west1' });
    expect(plain.structuredContent).not.toHaveProperty('mcp-param-shard');
    const named = await firstValueFrom(mcp.callTool('grüße'));
    expect(named.structuredContent).toMatchObject({ 'mcp-name': '=?base64?Z3LDvMOfZQ==?=' });
  });

  it('cancels by hanging up, and closes a listen stream on unsubscribe', async () => {
    const before = server.stderr.length;
    const subscription = mcp.callTool('sleep', { ms: 10000 }).subscribe({ error: () => undefined });
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('started sleep')));
    subscription.unsubscribe();
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('disconnected')));
    const listening = mcp.listen({ toolsListChanged: true }).subscribe();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const hangUps = server.stderr.filter((line) => line.startsWith('disconnected')).length;
    listening.unsubscribe();
    await eventually(() => server.stderr.filter((line) => line.startsWith('disconnected')).length > hangUps);
  });
});

describe('Streamable HTTP faults', () => {
  let server: RunningServer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
    mcp = McpClient.connectHttp({ url: server.url, connectTimeoutMs: 300, requestTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it('maps a 500 without a body to McpHttpError', async () => {
    const failure = firstValueFrom(mcp.callTool('status500'));
    await expect(failure).rejects.toBeInstanceOf(McpHttpError);
    await expect(failure).rejects.toMatchObject({ status: 500, body: '' });
  });

  it('keeps a bounded body of a non-JSON error', async () => {
    await expect(firstValueFrom(mcp.callTool('status502'))).rejects.toMatchObject({
      name: 'McpHttpError',
      status: 502,
      body: '<html><body>Bad gateway</body></html>',
    });
  });

  it('maps a 400 with a JSON-RPC error body (no id) to McpProtocolError', async () => {
    const failure = firstValueFrom(mcp.callTool('modern400'));
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toMatchObject({ code: -32602 });
  });

  it('maps -32022 to McpUnsupportedVersionError with the versions named', async () => {
    const failure = firstValueFrom(mcp.callTool('unsupported'));
    await expect(failure).rejects.toBeInstanceOf(McpUnsupportedVersionError);
    await expect(failure).rejects.toMatchObject({ supported: ['2099-01-01'] });
  });

  it('refuses a 200 that is not JSON-RPC', async () => {
    await expect(firstValueFrom(mcp.callTool('notjson'))).rejects.toBeInstanceOf(McpProtocolError);
  });

  it('fails a call whose stream breaks mid-event, and stays usable', async () => {
    await expect(firstValueFrom(mcp.callTool('cut'))).rejects.toBeInstanceOf(McpNetworkError);
    await expect(firstValueFrom(mcp.callTool('ended'))).rejects.toThrow(/ended before its answer/);
    expect((await firstValueFrom(mcp.callTool('trickle'))).content[0]?.text).toBe('trickled ✓ 日本');
  });

  it('reads an answer trickled in 3-byte pieces, with comments, CRLF and multi-line data', async () => {
    const progress: number[] = [];
    const watching = mcp.progress$.subscribe((p) => progress.push(p.progress));
    expect((await firstValueFrom(mcp.callTool('trickle', {}, { progressToken: 3 }))).content[0]?.text).toBe('trickled ✓ 日本');
    watching.unsubscribe();
    expect(progress).toEqual([1]);
  });

  it('times out a stream that never answers, and the server sees the hang-up', async () => {
    const before = server.stderr.length;
    await expect(firstValueFrom(mcp.callTool('never', {}, { timeoutMs: 200 }))).rejects.toBeInstanceOf(McpTimeoutError);
    await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('disconnected')));
  });

  it('gives up on a response that does not start within connectTimeoutMs', async () => {
    await expect(firstValueFrom(mcp.callTool('slow-headers'))).rejects.toThrow(/no response within 300 ms/);
  });

  it('refreshes the tool list once and retries after a HeaderMismatch', async () => {
    const lists = () => server.stderr.filter((line) => line === 'tools/list').length;
    const before = lists();
    expect((await firstValueFrom(mcp.callTool('zoned', { zone: 'eu-1' }))).content[0]?.text).toBe('zone eu-1');
    expect(lists()).toBe(before + 1);
    expect((await firstValueFrom(mcp.callTool('zoned', { zone: 'eu-2' }))).content[0]?.text).toBe('zone eu-2');
    expect(lists()).toBe(before + 1);
  });

  it.each(['huge', 'huge-event'])('refuses a %s answer over maxMessageBytes, and stays usable', async (tool) => {
    const bounded = McpClient.connectHttp({ url: server.url, maxMessageBytes: 1_000_000 });
    try {
      await expect(firstValueFrom(bounded.callTool(tool))).rejects.toThrow(/sent a message longer than maxMessageBytes \(1000000\)/);
      expect((await firstValueFrom(bounded.callTool('trickle'))).content[0]?.text).toBe('trickled ✓ 日本');
    } finally {
      await bounded.close();
    }
  });

  it('names the URL when nothing listens there', async () => {
    const nowhere = McpClient.connectHttp({ url: 'http://127.0.0.1:9/mcp' });
    const failure = firstValueFrom(nowhere.describe());
    await expect(failure).rejects.toBeInstanceOf(McpNetworkError);
    await expect(failure).rejects.toMatchObject({ url: 'http://127.0.0.1:9/mcp' });
    await nowhere.close();
  });

  it('retries once when a -32022 refuses the very version it lists, and connects', async () => {
    const refusing = await startHttpServer('http-faults.mjs', 'refuse-first');
    const client = McpClient.connectHttp({ url: refusing.url });
    try {
      expect(await firstValueFrom(client.describe())).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
      // The server's stderr comes down its own pipe and can trail its answers.
      await eventually(() => refusing.stderr.some((line) => line !== 'connection'));
      expect(refusing.stderr.filter((line) => line !== 'connection')).toEqual(['refused 2026-07-28']);
    } finally {
      await client.close();
      await refusing.stop();
    }
  });

});

describe('HTTP options', () => {
  it('refuses a header that would replace a protocol header, and a bad URL', () => {
    expect(() => McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', headers: { 'mcp-method': 'x' } })).toThrow(/set by the protocol/);
    // The body's framing is rxmcp's: a caller's Content-Length or Transfer-Encoding would disagree with it (two framings smuggle requests).
    expect(() => McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', headers: { 'Transfer-Encoding': 'chunked' } })).toThrow(/set by the protocol/);
    expect(() => McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', headers: { 'content-LENGTH': '2' } })).toThrow(/set by the protocol/);
    expect(() => McpClient.connectHttp({ url: 'ftp://example/mcp' })).toThrow(/http or https URL/);
  });

  it('names the TLS server after a Host header the caller gives, as node:https does', async () => {
    const tls = join(__dirname, '..', 'fixtures', 'tls');
    const named: string[] = [];
    // Called with the name a client asks for in its hello (none for an address). The certificate is self-signed,
    // so the handshake then fails at the client: the name it asked for is what is checked.
    const server = createHttpsServer({
      cert: readFileSync(join(tls, 'cert.pem')),
      key: readFileSync(join(tls, 'key.pem')),
      SNICallback: (name, done) => {
        named.push(name);
        done(null, undefined);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = McpClient.connectHttp({ url: `https://127.0.0.1:${port}/mcp`, headers: { Host: 'real.example' }, connectTimeoutMs: 5_000 });
    try {
      await expect(firstValueFrom(client.listTools())).rejects.toThrow();
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named)).toEqual(new Set(['real.example']));
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a connect timeout that is not a duration a timer can wait', () => {
    const url = 'http://127.0.0.1:1/mcp';
    // Past 2^31 - 1 ms Node fires a timer at once: every request would time out as it began.
    expect(() => McpClient.connectHttp({ url, connectTimeoutMs: 2 ** 31 })).toThrow('option connectTimeoutMs must be at most 2147483647 ms');
    expect(() => McpClient.connectHttp({ url, connectTimeoutMs: -1 })).toThrow('option connectTimeoutMs must be a number of milliseconds');
    expect(() => McpClient.connectHttp({ url, connectTimeoutMs: '5000' as never })).toThrow(McpClientError);
    expect(() => McpClient.connectHttp({ url, reconnect: { maxDelayMs: 2 ** 31 } })).toThrow('option reconnect.maxDelayMs must be at most');
    expect(() => McpClient.connectHttp({ url, connectTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it('refuses a stdio kill grace that is not a duration a timer can wait', () => {
    // Past 2^31 - 1 ms, close() would signal the server after 1 ms instead of waiting.
    expect(() => McpClient.connectStdio({ command: 'node', killGraceMs: 2 ** 31 })).toThrow('option killGraceMs must be at most 2147483647 ms');
    expect(() => McpClient.connectStdio({ command: 'node', killGraceMs: -1 })).toThrow(McpClientError);
    expect(() => McpClient.connectStdio({ command: 'node', killGraceMs: 'soon' as never })).toThrow(McpClientError);
  });

  it('sends the caller\'s headers on every request, through the fetch it is given', async () => {
    const seen: Array<Record<string, string>> = [];
    const fetch = async (_url: string, init: Record<string, unknown>) => {
      seen.push(init.headers as Record<string, string>);
      const body = JSON.parse(init.body as string) as { id: number };
      const result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
      const text = JSON.stringify({ jsonrpc: '2.0', id: body.id, result });
      return { status: 200, ok: true, headers: { get: () => 'application/json' }, body: null, text: async () => text };
    };
    const mcp = McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', fetch, headers: { Authorization: 'Bearer t0ken' } });
    await firstValueFrom(mcp.describe());
    await mcp.close();
    expect(seen[0]).toMatchObject({ Authorization: 'Bearer t0ken', 'Mcp-Method': 'server/discover', 'MCP-Protocol-Version': '2026-07-28' });
  });
});
