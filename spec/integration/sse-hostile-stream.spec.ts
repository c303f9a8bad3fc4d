import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, McpHttpError, McpNetworkError, McpProtocolError, McpTimeoutError } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { benignAnswer, onFirstCall, type ScriptedSseServer, scriptedSseServer, type SseScript } from '../support/sse-script.js';

// What an HTTP+SSE server sends once the endpoint is known, and how it
// answers the POSTs: hand-written servers (spec/support/sse-script.ts) that
// get it wrong in ways no real server does. Every call ends in an answer or a
// typed error, in bounded time, and the client goes on.

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the stream and the POSTs of a hostile HTTP+SSE server', () => {
  let server: ScriptedSseServer | undefined;
  const clients: McpClient[] = [];
  const warnings: string[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server?.close();
    server = undefined;
    warnings.length = 0;
  });
  const start = async (script: SseScript): Promise<ScriptedSseServer> => (server = await scriptedSseServer(script));
  const connect = (url: string, options: Record<string, unknown> = {}): McpClient => {
    const client = McpClient.connectHttp({ url, httpTransport: 'sse', requestTimeoutMs: 30_000, probeTimeoutMs: 30_000, onWarn: (warning) => warnings.push(warning), ...options });
    clients.push(client);
    return client;
  };
  const echo = async (mcp: McpClient, text: string): Promise<unknown> => (await firstValueFrom(mcp.callTool('echo', { text }))).content;

  it('takes only `message` events as messages: events of other types are skipped, even ones carrying an answer', async () => {
    const { url } = await start(
      onFirstCall((message, { stream, benign }) => {
        const forged = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'forged' }] } });
        stream.event('Message', forged);
        stream.event('notification', forged);
        stream.event('__proto__', '{"polluted":true}');
        stream.event('ping', 'x');
        benign();
      }),
    );
    const mcp = connect(url);
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('skips a message event that is not JSON, warning with its text quoted, and takes the answer after it', async () => {
    const { url } = await start(
      onFirstCall((_message, { stream, benign }) => {
        stream.event('message', '{not json \u001b]0;owned\u0007');
        benign();
      }),
    );
    const mcp = connect(url);
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
  });

  it.each([
    ['a result that is not an object', '"result":[1,2,3]'],
    ['an error whose code is a string', '"error":{"code":"bad","message":{"a":1}}'],
  ])('fails at once, with McpProtocolError, a call whose answer on the stream has %s, and answers the next', async (_what, member) => {
    const { url } = await start(
      onFirstCall((message, { res, stream }) => {
        res.writeHead(202);
        res.end('Accepted');
        stream.event('message', `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${member}}`);
      }),
    );
    const mcp = connect(url, { requestTimeoutMs: 10_000 });
    await firstValueFrom(mcp.describe());
    const started = Date.now();
    await expect(firstValueFrom(mcp.callTool('echo', { text: 'hi' }))).rejects.toBeInstanceOf(McpProtocolError);
    // Not the 10 s of requestTimeoutMs: the malformed answer names its call.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
  });

  it.each(['finite', 'endless'])('fails the call with McpProtocolError on a message event over maxMessageBytes (%s)', async (kind) => {
    const { url } = await start(
      onFirstCall((message, { res, stream }) => {
        res.writeHead(202);
        res.end('Accepted');
        if (kind === 'finite') return stream.event('message', JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(256 * 1024) }] } }));
        stream.write('event: message\ndata: ');
        // 8 MiB at most, if the client never lets go.
        let sent = 0;
        const pour = setInterval(() => {
          if (stream.closed || ++sent > 512) return clearInterval(pour);
          stream.write('x'.repeat(16 * 1024));
        }, 2);
      }),
    );
    const mcp = connect(url, { maxMessageBytes: 64 * 1024 });
    const started = Date.now();
    const failure = firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow('maxMessageBytes (65536)');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps the stream, and the call in flight, through keep-alive comments that add up to more than maxMessageBytes', async () => {
    const { url } = await start(
      onFirstCall((message, { res, stream }) => {
        res.writeHead(202);
        res.end('Accepted');
        // 200 comments of 14 characters, each in a chunk of its own, then the answer.
        let beats = 0;
        const beat = setInterval(() => {
          if (stream.closed) return clearInterval(beat);
          if (++beats <= 200) return stream.write(': keep-alive\n\n');
          clearInterval(beat);
          stream.event('message', benignAnswer(message));
        }, 2);
      }),
    );
    const mcp = connect(url, { maxMessageBytes: 1024 });
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(server?.streams).toHaveLength(1);
  });

  it('fails the handshake with a typed error, not a timeout, when the stream ends right after the endpoint, and does not reopen it in a loop', async () => {
    const { url } = await start({
      open: (stream) => {
        stream.event('endpoint', '/message');
        stream.end();
      },
    });
    const mcp = connect(url);
    const started = Date.now();
    const error = await firstValueFrom(mcp.describe()).then(() => undefined, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).not.toBeInstanceOf(McpTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
    await settle(2000);
    expect(server?.streams.length).toBeLessThanOrEqual(3);
    // The next call tries again, and fails the same way.
    await expect(firstValueFrom(mcp.callTool('echo', { text: 'hi' }))).rejects.toBeInstanceOf(McpClientError);
  });

  it('fails a call whose POST never answers with McpNetworkError within connectTimeoutMs, and answers the next', async () => {
    const { url } = await start(onFirstCall(() => undefined));
    const mcp = connect(url, { connectTimeoutMs: 1000 });
    await firstValueFrom(mcp.describe());
    const started = Date.now();
    await expect(firstValueFrom(mcp.callTool('echo', { text: 'hi' }))).rejects.toBeInstanceOf(McpNetworkError);
    // 1 s, with room for a loaded machine; requestTimeoutMs is 30 s.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
  });

  it('goes on when the POST of a notification is answered 202 but its body never ends', async () => {
    const { url } = await start({
      post: (message, { res }) => {
        if (message.method !== 'notifications/initialized') return false;
        res.writeHead(202, { 'Content-Type': 'text/plain' });
        res.flushHeaders();
        return true;
      },
    });
    const mcp = connect(url, { connectTimeoutMs: 1000, requestTimeoutMs: 15_000 });
    await firstValueFrom(mcp.describe());
    const started = Date.now();
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(Date.now() - started).toBeLessThan(8000);
  }, 30_000);

  it('fails a call whose POST is answered 500 with McpHttpError, and answers the next', async () => {
    const { url } = await start(
      onFirstCall((_message, { res }) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('boom');
      }),
    );
    const mcp = connect(url);
    const failure = firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
    await expect(failure).rejects.toBeInstanceOf(McpHttpError);
    await expect(failure).rejects.toMatchObject({ status: 500, body: 'boom' });
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
  });

  it('drops and reports answers for ids nobody asked, and gives the call its own answer', async () => {
    const { url } = await start(
      onFirstCall((message, { stream, benign }) => {
        const stolen = { content: [{ type: 'text', text: 'stolen' }] };
        stream.event('message', JSON.stringify({ jsonrpc: '2.0', id: 987654, result: stolen }));
        // The call's id with another type: the same number as a string.
        stream.event('message', JSON.stringify({ jsonrpc: '2.0', id: typeof message.id === 'number' ? String(message.id) : Number(message.id), result: stolen }));
        stream.event('message', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"stolen"}}');
        benign();
      }),
    );
    const mcp = connect(url);
    expect(await echo(mcp, 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
    await eventually(() => warnings.some((warning) => warning.includes('987654')));
    expect(await echo(mcp, 'again')).toEqual([{ type: 'text', text: 'again' }]);
  });

  it('answers a call whose answer comes before the POST is answered 202', async () => {
    // The SDK v1 writes the answer as soon as the handler returns, which may be before the 202 is flushed.
    const { url } = await start(
      onFirstCall((message, { res, stream }) => {
        stream.event('message', benignAnswer(message));
        setTimeout(() => {
          res.writeHead(202);
          res.end('Accepted');
        }, 200);
      }),
    );
    expect(await echo(connect(url), 'hi')).toEqual([{ type: 'text', text: 'hi' }]);
  });
});
