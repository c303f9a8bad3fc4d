import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { HttpTransport, McpClient, McpClientError, McpNetworkError, McpProtocolError, McpTimeoutError } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// A hostile server against rxmcp's own node:http requests (Node, no fetch of
// the caller): compressed bodies that break after the answer or halfway, and
// headers past what node:http reads. Each must end in an answer or a typed
// error, never in an exception nobody catches (which would end the host).

describe('an attacker against HTTP requests on Node without a fetch of the caller', () => {
  let server: RunningServer;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => {
    uncaught.push(error);
  };
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await server.stop();
  });
  beforeEach(() => {
    uncaught.length = 0;
  });
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it.each(['gzip-garbage-after-answer', 'gzip-reset-after-answer'])(
    'takes the answer of %s, and what breaks in the body left after it throws nowhere',
    async (tool) => {
      const mcp = McpClient.connectHttp({ url: server.url });
      try {
        expect((await firstValueFrom(mcp.callTool(tool))).content).toEqual([{ type: 'text', text: 'answered' }]);
        // The rest of the body arrives (and breaks) while it is drained.
        await settle(700);
        expect(uncaught).toEqual([]);
        expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
      } finally {
        await mcp.close();
      }
    },
  );

  it.each(['gzip-corrupt', 'gzip-reset', 'reset-mid-body'])('fails a call whose answer is %s with a typed error, and answers the next', async (tool) => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      const failed = await firstValueFrom(mcp.callTool(tool)).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      await settle(100);
      expect(uncaught).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a redirect to another origin whose gzip body does not inflate, and nothing throws from the body left unread', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await expect(firstValueFrom(mcp.callTool('redirect-away-gzip'))).rejects.toThrow(/redirects to another origin/);
      await settle(700);
      expect(uncaught).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses an SSE event that inflates from brotli past maxMessageBytes, and stays usable', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 1_000_000 });
    try {
      await expect(firstValueFrom(mcp.callTool('brotli-bomb-event'))).rejects.toThrow(/sent a message longer than maxMessageBytes \(1000000\)/);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a header value from the options that holds CR LF, naming the header but never its value', async () => {
    // A key read from a file with its newline, or one with something appended.
    const mcp = McpClient.connectHttp({ url: server.url, headers: { 'X-Api-Key': 'sekrit-key-1234\r\nX-Injected: 1' } });
    try {
      const failed = await firstValueFrom(mcp.describe()).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      expect((failed as Error).message).toContain('X-Api-Key');
      expect(inspect(failed, { depth: 5 })).not.toContain('sekrit-key-1234');
    } finally {
      await mcp.close();
    }
  });

  it('sends a tool name holding CR LF as one encoded Mcp-Name header, injecting nothing', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      const start = server.stderr.length;
      const failed = await firstValueFrom(mcp.callTool('x\r\nX-Injected: 1')).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      const seen = () => server.stderr.slice(start).filter((line) => line.startsWith('mcp-name '));
      // The server's log comes by another pipe than its answer.
      await eventually(() => seen().length > 0, 3000);
      expect(seen()).toEqual([`mcp-name ${JSON.stringify(`=?base64?${Buffer.from('x\r\nX-Injected: 1').toString('base64')}?=`)} injected false`]);
    } finally {
      await mcp.close();
    }
  });

  it('fails a call whose answer has 64 KiB of headers with a typed error, and answers the next', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      const failed = await firstValueFrom(mcp.callTool('header-flood')).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });
});

describe('an attacker answering notifications with a body that never ends', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs', 'hold-notifications');
  });
  afterAll(() => server.stop());

  it('cuts the body within a second or so and warns, naming the notification', async () => {
    const warnings: string[] = [];
    const transport = new HttpTransport({ url: server.url, onWarn: (message) => warnings.push(message) });
    try {
      // A 2026-07-28 transport (the client sends none of its own there): a notification is its own POST.
      transport.outbound.next({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      await eventually(() => server.stderr.includes('notification hung up'), 5000);
      expect(warnings).toEqual([expect.stringMatching(/^notification notifications\/roots\/list_changed failed: .*did not end within 1000 ms/)]);
    } finally {
      await transport.close();
    }
  });
});

describe('an attacker holding, breaking or flooding the body of an answer (no fetch of the caller)', () => {
  let server: RunningServer;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => {
    uncaught.push(error);
  };
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onRejection);
    await server.stop();
  });
  beforeEach(() => {
    uncaught.length = 0;
    rejections.length = 0;
  });
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const hangUps = () => server.stderr.filter((line) => line.startsWith('disconnected')).length;

  it.each(['stall-json', 'stall-gzip'])('hangs up a %s body when the call is unsubscribed while it is read, and answers the next', async (tool) => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const before = hangUps();
      const errors: unknown[] = [];
      const subscription = mcp.callTool(tool).subscribe({ error: (error: unknown) => errors.push(error) });
      // The headers and the first bytes are in: the body is being read.
      await settle(200);
      subscription.unsubscribe();
      await eventually(() => hangUps() > before, 3000);
      await settle(100);
      expect(errors).toEqual([]);
      expect(uncaught).toEqual([]);
      expect(rejections).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it.each(['stall-json', 'stall-gzip'])('times out a %s body and hangs it up', async (tool) => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const before = hangUps();
      await expect(firstValueFrom(mcp.callTool(tool, {}, { timeoutMs: 200 }))).rejects.toBeInstanceOf(McpTimeoutError);
      await eventually(() => hangUps() > before, 3000);
      expect(uncaught).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('hangs up a request cancelled before its response started', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const before = hangUps();
      const subscription = mcp.callTool('slow-headers').subscribe({ error: () => undefined });
      await settle(100);
      subscription.unsubscribe();
      await eventually(() => hangUps() > before, 3000);
      await settle(600);
      expect(uncaught).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it.each(['reset-at-headers', 'gzip-reset-at-headers', 'sse-reset-at-headers', 'gzip-sse-reset-at-headers'])('fails a call whose body is %s with McpNetworkError before its timeout, throws nowhere, and answers the next', async (tool) => {
    const mcp = McpClient.connectHttp({ url: server.url, requestTimeoutMs: 5000 });
    try {
      for (let round = 0; round < 5; round++) {
        const failed = await firstValueFrom(mcp.callTool(tool)).catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(McpNetworkError);
        expect((failed as Error).message).toMatch(/the response (body|stream) broke/);
      }
      await settle(100);
      expect(uncaught).toEqual([]);
      expect(rejections).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('cancels 60 calls at every stage (before the response, mid-body, as the answer comes), leaves no body held, and answers the next', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const start = server.stderr.length;
      const tools = ['stall-json', 'stall-gzip', 'slow-headers', 'end-after-answer', 'open-after-answer', 'gzipped', 'trickle'];
      const held = ['stall-json', 'stall-gzip', 'slow-headers'];
      const errors: unknown[] = [];
      for (let i = 0; i < 60; i++) {
        const tool = tools[i % tools.length]!;
        const subscription = mcp.callTool(tool).subscribe({ error: (error: unknown) => errors.push(error) });
        setTimeout(() => subscription.unsubscribe(), (i * 37) % 400);
      }
      // Every call the server got whose answer never comes in time is hung up.
      const heldIds = () =>
        server.stderr
          .slice(start)
          .filter((line) => held.some((tool) => line.startsWith(`called ${tool} `)))
          .map((line) => line.split(' ')[2]);
      const hungUp = () => new Set(server.stderr.slice(start).filter((line) => line.startsWith('disconnected ')).map((line) => line.split(' ')[1]));
      await settle(700);
      expect(heldIds().length).toBeGreaterThan(0);
      await eventually(() => heldIds().every((id) => hungUp().has(id)), 5000);
      await settle(1200);
      expect(errors).toEqual([]);
      expect(uncaught).toEqual([]);
      expect(rejections).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses an answer over maxMessageBytes that came whole, and sends the next call on the same connection', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 1000 });
    try {
      await firstValueFrom(mcp.describe());
      const connections = () => server.stderr.filter((line) => line === 'connection').length;
      const before = connections();
      await expect(firstValueFrom(mcp.callTool('wide-text', { chars: 5000 }))).rejects.toThrow(/longer than maxMessageBytes \(1000\)/);
      // What is left of the body is let go of, and its connection goes back to be used again.
      await settle(1000);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
      expect(connections()).toBe(before);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a body of bytes that are no UTF-8 past maxMessageBytes, and one within it as not JSON-RPC', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 10_000 });
    try {
      await expect(firstValueFrom(mcp.callTool('invalid-utf8', { bytes: 10_001 }))).rejects.toThrow(/longer than maxMessageBytes \(10000\)/);
      await expect(firstValueFrom(mcp.callTool('invalid-utf8', { bytes: 10_000 }))).rejects.toBeInstanceOf(McpProtocolError);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a body of wide characters past maxMessageBytes that then stalls, hangs it up, and answers the next', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 100_000 });
    try {
      await firstValueFrom(mcp.describe());
      const before = hangUps();
      await expect(firstValueFrom(mcp.callTool('wide-stall', { chars: 100_001 }))).rejects.toThrow(/longer than maxMessageBytes \(100000\)/);
      // The rest never comes: left to drain, it is cut within about a second.
      await eventually(() => hangUps() > before, 3000);
      expect(uncaught).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });
});

describe("a caller's own fetch, against a body that never ends", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
  });
  afterAll(() => server.stop());

  it('is given a real AbortSignal, which aborts when the call is unsubscribed', async () => {
    const signals: unknown[] = [];
    const fetch = (url: string, init: Record<string, unknown>) => {
      signals.push(init.signal);
      return globalThis.fetch(url, init as RequestInit);
    };
    const mcp = McpClient.connectHttp({ url: server.url, fetch });
    try {
      await firstValueFrom(mcp.describe());
      const before = server.stderr.filter((line) => line.startsWith('disconnected')).length;
      const subscription = mcp.callTool('stall-json').subscribe({ error: () => undefined });
      await settle(200);
      const signal = signals[signals.length - 1];
      expect(signal).toBeInstanceOf(AbortSignal);
      expect((signal as AbortSignal).aborted).toBe(false);
      subscription.unsubscribe();
      expect((signal as AbortSignal).aborted).toBe(true);
      await eventually(() => server.stderr.filter((line) => line.startsWith('disconnected')).length > before, 3000);
    } finally {
      await mcp.close();
    }
  });

  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
});

describe('an authorization server whose token answer never ends, and a call cancelled while it signs in', () => {
  let server: Server;
  let origin = '';
  const events: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (request.url === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        if (request.url === '/.well-known/oauth-authorization-server') return json(200, { issuer: origin, token_endpoint: `${origin}/token` });
        if (request.url === '/token') {
          events.push('token asked');
          response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
          response.write('{"access_token":');
          response.on('close', () => events.push('token hung up'));
          return;
        }
        return json(401, { error: 'unauthorized' }, { 'WWW-Authenticate': 'Bearer' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hangs up the token request when the only call waiting for it is unsubscribed, and rejects nothing unhandled', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => {
      rejections.push(reason);
    };
    process.on('unhandledRejection', onRejection);
    const mcp = McpClient.connectHttp({ url: `${origin}/mcp`, era: 'modern', auth: { grant: 'client_credentials', clientId: 'bot', clientSecret: 'bot-secret' } });
    try {
      const errors: unknown[] = [];
      const subscription = mcp.listTools().subscribe({ error: (error: unknown) => errors.push(error) });
      await eventually(() => events.includes('token asked'), 3000);
      subscription.unsubscribe();
      await eventually(() => events.includes('token hung up'), 3000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await mcp.close();
    }
  });
});

describe('an endpoint that moves within its origin, with credentials in its URL', () => {
  let server: Server;
  let port = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push(`${request.url} ${request.headers.host} ${request.headers.authorization ?? '-'}`);
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string };
        if (message.id === undefined) return response.writeHead(202).end();
        // The first request is sent on to another path (and query) of the same origin, with other credentials.
        if (request.url === '/mcp') return response.writeHead(307, { Location: `http://other:pw2@127.0.0.1:${port}/moved?x=1` }).end();
        const result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private', tools: [] };
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends each request to the path, query and credentials of the URL it is for, never those of the last one', async () => {
    const mcp = McpClient.connectHttp({ url: `http://first:pw1@127.0.0.1:${port}/mcp` });
    try {
      await firstValueFrom(mcp.describe());
      await firstValueFrom(mcp.listTools());
      const basic = (userinfo: string) => `Basic ${Buffer.from(userinfo).toString('base64')}`;
      expect(seen).toEqual([
        `/mcp 127.0.0.1:${port} ${basic('first:pw1')}`,
        `/moved?x=1 127.0.0.1:${port} ${basic('other:pw2')}`,
        `/moved?x=1 127.0.0.1:${port} ${basic('other:pw2')}`,
      ]);
    } finally {
      await mcp.close();
    }
  });
});
