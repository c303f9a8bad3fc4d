import { firstValueFrom } from 'rxjs';
import { McpClient, McpHttpError, McpProtocolError } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { elsewhere, type ScriptedSseServer, scriptedSseServer, type SseScript } from '../support/sse-script.js';

// Where an HTTP+SSE server says to send the conversation: the `endpoint`
// event, from hand-written servers (spec/support/sse-script.ts) that name
// places no real server names. Whatever the event says, the conversation
// stays on the URL's own origin, and a stream that never names an endpoint
// ends the connect within connectTimeoutMs.

const secrets = { 'X-Api-Key': 'key-123' };

describe('the endpoint an HTTP+SSE server names', () => {
  let server: ScriptedSseServer | undefined;
  let away: Awaited<ReturnType<typeof elsewhere>> | undefined;
  const clients: McpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server?.close();
    await away?.close();
    server = away = undefined;
  });
  const start = async (script: SseScript): Promise<ScriptedSseServer> => (server = await scriptedSseServer(script));
  // `found`: no httpTransport option, as a user starts, so the client has to find the stream itself.
  const connect = (url: string, options: Record<string, unknown> = {}, wire: 'sse' | 'found' = 'sse'): McpClient => {
    const pinned = wire === 'sse' ? { httpTransport: 'sse' as const } : {};
    const client = McpClient.connectHttp({ url, ...pinned, headers: secrets, requestTimeoutMs: 30_000, probeTimeoutMs: 30_000, ...options });
    clients.push(client);
    return client;
  };
  const gets = (): number => server?.seen.filter((request) => request.method === 'GET').length ?? 0;

  it.each([
    ['pinned to sse', 'sse'],
    ['found with no option', 'found'],
  ] as const)('refuses an endpoint on another port, naming it, and sends nothing there (%s)', async (_how, wire) => {
    away = await elsewhere();
    const endpoint = `${away.origin}/message`;
    const { url } = await start({ open: (stream) => stream.event('endpoint', endpoint) });
    const failure = firstValueFrom(connect(url, {}, wire).describe());
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow(JSON.stringify(endpoint));
    expect(gets()).toBe(1);
    expect(away.seen).toEqual([]);
  });

  it('refuses an endpoint with another scheme on the same host and port', async () => {
    const { url, origin } = await start({ open: (stream, own) => stream.event('endpoint', `${own.replace('http:', 'https:')}/message`) });
    const failure = firstValueFrom(connect(url).describe());
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow(JSON.stringify(`${origin.replace('http:', 'https:')}/message`));
    expect(server?.posts()).toEqual([]);
  });

  it('refuses a protocol-relative endpoint (//host/x) that leads to another port, and sends nothing there', async () => {
    away = await elsewhere();
    const relative = `//${new URL(away.origin).host}/x`;
    const { url } = await start({ open: (stream) => stream.event('endpoint', relative) });
    const failure = firstValueFrom(connect(url).describe());
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    // Named as sent or as resolved: either way this much of it shows.
    await expect(failure).rejects.toThrow(relative);
    expect(away.seen).toEqual([]);
  });

  it('refuses an endpoint on its own origin that carries user:pass@, and posts nothing', async () => {
    const { url } = await start({ open: (stream, own) => stream.event('endpoint', own.replace('http://', 'http://user:pass@') + '/message') });
    await expect(firstValueFrom(connect(url).describe())).rejects.toBeInstanceOf(McpProtocolError);
    expect(server?.posts()).toEqual([]);
    expect(server?.seen.map((request) => request.headers.authorization)).toEqual([undefined]);
  });

  it.each(['http://[oops/message', 'http://exa mple.com/message'])('refuses an endpoint that is not a URL (%j), naming it', async (endpoint) => {
    const { url } = await start({ open: (stream) => stream.event('endpoint', endpoint) });
    const failure = firstValueFrom(connect(url).describe());
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow(JSON.stringify(endpoint));
    expect(server?.posts()).toEqual([]);
  });

  it('refuses an endpoint event longer than maxMessageBytes, without waiting for its end', async () => {
    // Same origin and a valid URL but for its length; its last line never comes.
    const { url } = await start({ open: (stream) => stream.write(`event: endpoint\ndata: /message?pad=${'x'.repeat(64 * 1024)}`) });
    const failure = firstValueFrom(connect(url, { maxMessageBytes: 16 * 1024 }).describe());
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow('maxMessageBytes (16384)');
    expect(server?.posts()).toEqual([]);
  });

  it.each([
    ['a stream that stays silent', () => undefined],
    ['a stream of keep-alive comments', (stream: { write(text: string): void; closed: boolean }) => {
      const beat = setInterval(() => (stream.closed ? clearInterval(beat) : stream.write(': keep-alive\n\n')), 100);
    }],
    ['an endpoint event that never ends', (stream: { write(text: string): void }) => stream.write('event: endpoint\ndata: /message')],
  ])('gives up on %s within connectTimeoutMs, with McpProtocolError, and lets the stream go', async (_what, open) => {
    const { url } = await start({ open });
    const started = Date.now();
    await expect(firstValueFrom(connect(url, { connectTimeoutMs: 500 }).describe())).rejects.toBeInstanceOf(McpProtocolError);
    // 500 ms, with room for a loaded machine; requestTimeoutMs and probeTimeoutMs are 30 s.
    expect(Date.now() - started).toBeLessThan(6000);
    await eventually(() => server?.streams.every((stream) => stream.closed) === true);
    expect(server?.posts()).toEqual([]);
  });

  it.each([
    ['a message event', 'message'],
    ['an event with no type (a message, to SSE)', undefined],
  ])('refuses a stream whose first event is %s, not the endpoint', async (_what, type) => {
    const answer = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}';
    const { url } = await start({
      open: (stream) => {
        stream.event(type, answer);
        stream.event('endpoint', '/message');
      },
    });
    await expect(firstValueFrom(connect(url).describe())).rejects.toBeInstanceOf(McpProtocolError);
    expect(server?.posts()).toEqual([]);
  });

  it.each([
    ['a path on its own origin', () => '/moved'],
    ['another port', () => `${away?.origin}/message`],
  ])('keeps the first endpoint when a second endpoint event names %s', async (_what, second) => {
    away = await elsewhere();
    const { url } = await start({
      post: (message, { stream, benign }) => {
        benign();
        if (message.method === 'initialize' || message.method === 'tools/call') stream.event('endpoint', second());
        return true;
      },
    });
    const mcp = connect(url);
    expect((await firstValueFrom(mcp.callTool('echo', { text: 'one' }))).content).toEqual([{ type: 'text', text: 'one' }]);
    expect((await firstValueFrom(mcp.callTool('echo', { text: 'two' }))).content).toEqual([{ type: 'text', text: 'two' }]);
    const posts = server?.posts() ?? [];
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(posts)).toEqual(new Set(['/message']));
    expect(away.seen).toEqual([]);
  });

  it.each([
    ['pinned to sse', 'sse'],
    ['found with no option', 'found'],
  ] as const)('refuses a redirect of the GET stream to another port, naming it, and sends nothing there (%s)', async (_how, wire) => {
    away = await elsewhere();
    const location = `${away.origin}/sse`;
    const { url } = await start({
      get: (res) => {
        res.writeHead(302, { Location: location });
        res.end();
      },
    });
    const failure = firstValueFrom(connect(url, {}, wire).describe());
    await expect(failure).rejects.toBeInstanceOf(McpHttpError);
    await expect(failure).rejects.toThrow(JSON.stringify(location));
    if (wire === 'sse') await expect(failure).rejects.toMatchObject({ status: 302, location });
    expect(gets()).toBe(1);
    expect(away.seen).toEqual([]);
  });
});
