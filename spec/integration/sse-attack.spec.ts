import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { firstValueFrom, type Subscription } from 'rxjs';
import { type ConnectionState, McpClient, McpProtocolError } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import type { FetchLike } from '../../src/http/fetch-like.js';
import { benignAnswer, onFirstCall, type Posted, type ScriptedSseServer, scriptedSseServer, type SseScript } from '../support/sse-script.js';

// An attacker's review of the HTTP+SSE transport: hand-written hostile
// servers (spec/support/sse-script.ts) doing what no honest server does, each
// test stating a guarantee SECURITY.md gives and showing where it does not hold.

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an attacker against the HTTP+SSE transport', () => {
  let server: ScriptedSseServer | undefined;
  const clients: McpClient[] = [];
  const subscriptions: Subscription[] = [];
  afterEach(async () => {
    subscriptions.splice(0).forEach((subscription) => subscription.unsubscribe());
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server?.close();
    server = undefined;
  });
  const start = async (script: SseScript): Promise<ScriptedSseServer> => (server = await scriptedSseServer(script));
  const connect = (url: string, options: Record<string, unknown> = {}): McpClient => {
    const client = McpClient.connectHttp({ url, httpTransport: 'sse', requestTimeoutMs: 30_000, probeTimeoutMs: 30_000, ...options });
    clients.push(client);
    return client;
  };
  const echo = async (mcp: McpClient, text: string): Promise<unknown> => (await firstValueFrom(mcp.callTool('echo', { text }))).content;

  it('refuses one message event over maxMessageBytes even when its data lines are interleaved with comments', async () => {
    // 64 data lines of 1 KiB, each followed by a comment line, in one event:
    // 64 KiB of answer against a limit of 4 KiB.
    const { url } = await start(
      onFirstCall((message, { res, stream }) => {
        res.writeHead(202);
        res.end('Accepted');
        const head = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'big' }], pad: [] } });
        const [open, close] = [head.slice(0, -3), head.slice(-3)];
        let line = 0;
        stream.write(`event: message\ndata: ${open}\n:\n`);
        const drip = setInterval(() => {
          if (stream.closed) return clearInterval(drip);
          if (line++ < 64) return stream.write(`data: ${line > 1 ? ',' : ''}"${'x'.repeat(1024)}"\n: keep-alive\n`);
          clearInterval(drip);
          stream.write(`data: ${close}\n\n`);
        }, 2);
      }),
    );
    const mcp = connect(url, { maxMessageBytes: 4096 });
    await firstValueFrom(mcp.describe());
    await expect(firstValueFrom(mcp.callTool('echo', { text: 'hi' }))).rejects.toBeInstanceOf(McpProtocolError);
  });

  it('does not re-open the session in a tight loop under listen() when the server drops the stream after every handshake', async () => {
    // An honest answer to initialize, then the stream ends: every session
    // lives for one round trip.
    const { url } = await start({
      post: (message, { stream, benign }) => {
        benign();
        if (message.method === 'initialize') setTimeout(() => stream.end(), 20);
        return true;
      },
    });
    const mcp = connect(url);
    const states: ConnectionState[] = [];
    subscriptions.push(mcp.state$.subscribe((state) => states.push(state)));
    subscriptions.push(mcp.listen({ toolsListChanged: true }).subscribe({ error: () => undefined }));
    await settle(3000);
    const gets = server?.seen.filter((request) => request.method === 'GET').length ?? 0;
    // SECURITY.md: a dropped stream is re-opened no sooner than 500 ms, doubling: at most a handful in 3 s.
    expect(gets).toBeLessThanOrEqual(5);
    expect(states.filter((state) => state === 'restarting').length).toBeLessThanOrEqual(5);
  }, 30_000);

  it('holds no connection open per message when the server accepts every POST and never ends the acceptance', async () => {
    const sockets = new Set<Socket>();
    const { url } = await start({
      post: (message, { res, stream }) => {
        sockets.add(res.socket as Socket);
        // 202 sent, body never ended; the answer comes on the stream as usual.
        res.writeHead(202, { 'Content-Type': 'text/plain' });
        res.write('Accep');
        if (message.id !== undefined && message.method !== undefined) stream.event('message', benignAnswer(message));
        return true;
      },
    });
    const mcp = connect(url);
    for (let i = 0; i < 20; i++) expect(await echo(mcp, `n${i}`)).toEqual([{ type: 'text', text: `n${i}` }]);
    // An acceptance's body is given a second to end.
    await settle(1500);
    const open = [...sockets].filter((socket) => !socket.destroyed).length;
    // One keep-alive connection or a few are fine; one held per message, forever, is not.
    expect(open).toBeLessThanOrEqual(4);
  }, 60_000);

  it('never lets the cancellation of a call reach the server before the call itself', async () => {
    // A slow link: the POST carrying the call takes 400 ms longer than others
    // (a proxy, a congested connection). The POST of the cancellation, sent on
    // a connection of its own, overtakes it; the server then ignores a
    // cancellation of an id it never saw, and runs the call to its end.
    const slowLink: FetchLike = async (target, init) => {
      if (typeof init.body === 'string' && init.body.includes('"tools/call"')) await settle(400);
      return (globalThis.fetch as unknown as FetchLike)(target, init);
    };
    const { url } = await start(
      onFirstCall((_message, { res }) => {
        res.writeHead(202);
        res.end('Accepted');
      }),
    );
    const mcp = connect(url, { fetch: slowLink });
    await firstValueFrom(mcp.describe());
    const call = mcp.callTool('echo', { text: 'expensive' }).subscribe({ error: () => undefined });
    await settle(50);
    call.unsubscribe();
    const methods = (): Array<string | undefined> => (server?.seen ?? []).filter((request) => request.method === 'POST').map((request) => (JSON.parse(request.body) as Posted).method);
    await eventually(() => methods().includes('tools/call') && methods().includes('notifications/cancelled'));
    expect(methods().indexOf('tools/call')).toBeLessThan(methods().indexOf('notifications/cancelled'));
  });

  it('is not wedged for good by a GET whose refusal drips forever: once the server is well again, the next call is answered', async () => {
    let wedge = true;
    const { url } = await start({
      get: (res) => {
        if (!wedge) return false;
        // Not a stream: a 503 page that never finishes.
        res.writeHead(503, { 'Content-Type': 'text/html' });
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 200);
        return true;
      },
    });
    const mcp = connect(url, { connectTimeoutMs: 1000, requestTimeoutMs: 3000, probeTimeoutMs: 3000 });
    await expect(firstValueFrom(mcp.describe())).rejects.toThrow();
    wedge = false;
    // The server is fine now: a new GET gets its stream and the call is answered.
    expect(await echo(mcp, 'back')).toEqual([{ type: 'text', text: 'back' }]);
  }, 30_000);

  it('answers calls after the POST of a notification is refused with an error page that drips forever', async () => {
    const { url } = await start({
      post: (message, { res }) => {
        if (message.method !== 'notifications/initialized') return false;
        res.writeHead(500, { 'Content-Type': 'text/html' });
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 200);
        return true;
      },
    });
    const mcp = connect(url, { connectTimeoutMs: 1000, requestTimeoutMs: 5000 });
    await firstValueFrom(mcp.describe());
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
  }, 30_000);

  it('does not POST a call the caller gave up on before its POST could start', async () => {
    // The server takes 1.5 s to accept notifications/initialized; calls made
    // meanwhile wait behind it. One is cancelled while it waits: the server
    // should never see it.
    const { url } = await start({
      post: (message, { res }) => {
        if (message.method !== 'notifications/initialized') return false;
        setTimeout(() => {
          res.writeHead(202);
          res.end('Accepted');
        }, 1500);
        return true;
      },
    });
    const mcp = connect(url);
    await firstValueFrom(mcp.describe());
    const call = mcp.callTool('echo', { text: 'given up' }).subscribe({ error: () => undefined });
    await settle(100);
    call.unsubscribe();
    await settle(2500);
    const methods = (server?.seen ?? []).filter((request) => request.method === 'POST').map((request) => (JSON.parse(request.body) as Posted).method);
    expect(methods).toContain('notifications/initialized');
    expect(methods).not.toContain('tools/call');
  }, 30_000);

  it('refuses an answer over maxMessageBytes on a Streamable HTTP stream when comments are interleaved with its data lines', async () => {
    // The same size check (src/transport/sse.ts) reads Streamable HTTP
    // answers: a 2025-11-25 server, hand-written, whose tools/call answer is
    // one 64 KiB SSE event cut by comment lines.
    const streamable = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      if (req.method !== 'POST') return res.writeHead(405).end();
      const message = JSON.parse(body) as Posted;
      if (message.method === 'initialize') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'session-1' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'streamable', version: '1' } } }));
      }
      if (message.method !== 'tools/call') return res.writeHead(message.id === undefined ? 202 : 400).end();
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const head = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'big' }], pad: [] } });
      res.write(`data: ${head.slice(0, -3)}\n:\n`);
      for (let line = 0; line < 64; line++) {
        res.write(`data: ${line > 0 ? ',' : ''}"${'x'.repeat(1024)}"\n: keep-alive\n`);
        await settle(2);
      }
      res.end(`data: ${head.slice(-3)}\n\n`);
    });
    await new Promise<void>((resolve) => streamable.listen(0, '127.0.0.1', resolve));
    try {
      const mcp = McpClient.connectHttp({ url: `http://127.0.0.1:${(streamable.address() as AddressInfo).port}/mcp`, maxMessageBytes: 4096, requestTimeoutMs: 30_000 });
      clients.push(mcp);
      expect((await firstValueFrom(mcp.describe())).wire).toBe('streamable-http');
      await expect(firstValueFrom(mcp.callTool('echo', { text: 'hi' }))).rejects.toBeInstanceOf(McpProtocolError);
    } finally {
      streamable.closeAllConnections();
      streamable.close();
    }
  });

  it('keeps memory bounded when the server floods the stream with pings and never accepts the answers', async () => {
    // 30,000 pings (about 2 MB from the server); the POST of each answer is
    // left hanging, so answers queue up behind the first one.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { url } = await start({ post: (message) => message.id !== undefined && message.method === undefined });
    const mcp = connect(url, { onWarn: () => undefined });
    await firstValueFrom(mcp.describe());
    const stream = server?.streams.at(-1);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let batch = 0; batch < 30; batch++) {
      let text = '';
      for (let i = 0; i < 1000; i++) text += `event: message\ndata: {"jsonrpc":"2.0","id":"p${batch}-${i}","method":"ping"}\n\n`;
      stream?.write(text);
      await settle(10);
    }
    await settle(2000);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    // What the server sent is about 2 MB; the client may keep a bounded queue, not 15x that.
    expect(grownMb).toBeLessThan(12);
  }, 60_000);
});
