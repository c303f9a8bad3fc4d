import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpHttpError } from '../../src/index.js';
import type { FetchLike } from '../../src/http/fetch-like.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// Redirects of the MCP endpoint, through a redirecting front
// (redirect-front.mjs) before the SDK fixture servers: followed within the
// endpoint's origin and remembered; refused, with nothing sent, anywhere else.

const secrets = { 'X-Api-Key': 'key-123', Authorization: 'Bearer token-456' };

/** A listener on another port of 127.0.0.1 that records every request it gets. */
async function recorder(): Promise<{ url: string; seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }>; close(): Promise<void> }> {
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/steal`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Two calls through a front that redirects the GET stream to /mcp/get/: one
// before the stream has gone there, one after; then the client is closed.
async function callAcrossTheGetRedirect(front: { url: string; stderr: string[] }): Promise<void> {
  const mcp = McpClient.connectHttp({ url: front.url });
  try {
    expect((await firstValueFrom(mcp.callTool('add', { a: 2, b: 3 }))).content).toEqual([{ type: 'text', text: '5' }]);
    await eventually(() => front.stderr.includes('GET /mcp/get/'));
    expect((await firstValueFrom(mcp.callTool('add', { a: 3, b: 4 }))).content).toEqual([{ type: 'text', text: '7' }]);
  } finally {
    await mcp.close();
  }
}

describe('redirects of the MCP endpoint', () => {
  const running: RunningServer[] = [];
  const start = async (name: string, ...args: string[]) => {
    const server = await startHttpServer(name, ...args);
    running.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
  });
  const redirects = (front: RunningServer) => front.stderr.filter((line) => line.includes(' -> '));

  it.each([
    ['its own requests (node:http)', undefined],
    ["Node's own fetch", globalThis.fetch as unknown as FetchLike],
  ])('follows /mcp to /mcp/ in the modern era with %s, and sends later requests straight there', async (_name, fetch) => {
    const backend = await start('http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'slash');
    const mcp = McpClient.connectHttp({ url: front.url, headers: secrets, ...(fetch ? { fetch } : {}) });
    try {
      expect(await firstValueFrom(mcp.describe())).toMatchObject({ era: 'modern', serverInfo: { name: 'rxmcp-fixture' } });
      expect((await firstValueFrom(mcp.callTool('add', { a: 1, b: 2 }))).content).toEqual([{ type: 'text', text: '3' }]);
      expect((await firstValueFrom(mcp.listTools())).length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
    expect(redirects(front)).toEqual([`POST /mcp -> ${front.url}/`]);
    expect(new Set(front.stderr.filter((line) => !line.includes(' -> ')))).toEqual(new Set(['POST /mcp/']));
  });

  it('follows /mcp to /mcp/ in the legacy era: POST, GET and DELETE all go to the new URL, with the session', async () => {
    const backend = await start('legacy-http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'slash');
    const mcp = McpClient.connectHttp({ url: front.url, headers: secrets });
    try {
      expect(await firstValueFrom(mcp.describe())).toMatchObject({ era: 'legacy' });
      expect((await firstValueFrom(mcp.callTool('add', { a: 1, b: 2 }))).content).toEqual([{ type: 'text', text: '3' }]);
    } finally {
      await mcp.close();
    }
    await eventually(() => backend.stderr.some((line) => line.startsWith('deleted ')));
    await eventually(() => front.stderr.includes('DELETE /mcp/'));
    expect(redirects(front)).toEqual([`POST /mcp -> ${front.url}/`]);
    const methods = new Set(front.stderr.filter((line) => !line.includes(' -> ')));
    expect(methods).toEqual(new Set(['POST /mcp/', 'GET /mcp/', 'DELETE /mcp/']));
  });

  it.each([301, 308])('follows a %i of each method in the legacy era, resending POSTs with their body', async (status) => {
    const backend = await start('legacy-http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'per-method', '--status', String(status));
    await callAcrossTheGetRedirect(front);
    await eventually(() => backend.stderr.some((line) => line.startsWith('deleted ')));
    await eventually(() => front.stderr.includes('DELETE /mcp/delete/'));
    expect(redirects(front)).toEqual(['POST /mcp -> /mcp/post/', 'GET /mcp/post/ -> /mcp/get/', 'DELETE /mcp/get/ -> /mcp/delete/']);
    // Once moved, a request goes to the new URL first.
    const posts = front.stderr.slice(front.stderr.indexOf('GET /mcp/get/')).filter((line) => line.startsWith('POST'));
    expect(posts.length).toBeGreaterThan(0);
    expect(new Set(posts)).toEqual(new Set(['POST /mcp/get/']));
    expect(front.stderr.at(-1)).toBe('DELETE /mcp/delete/');
  });

  it('follows a 303 of the GET stream there, but keeps the endpoint where it was', async () => {
    const backend = await start('legacy-http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'per-method', '--only', 'GET', '--status', '303');
    await callAcrossTheGetRedirect(front);
    await eventually(() => front.stderr.some((line) => line.startsWith('DELETE ')));
    expect(redirects(front)).toEqual(['GET /mcp -> /mcp/get/']);
    const after = front.stderr.slice(front.stderr.indexOf('GET /mcp/get/'));
    expect(new Set(after.filter((line) => !line.startsWith('GET')))).toEqual(new Set(['POST /mcp', 'DELETE /mcp']));
  });

  it('refuses a redirect to another port, naming it, and sends nothing there', async () => {
    const elsewhere = await recorder();
    try {
      const backend = await start('http-server.mjs');
      const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'away', '--away', elsewhere.url);
      const mcp = McpClient.connectHttp({ url: front.url, headers: secrets });
      try {
        const failure = firstValueFrom(mcp.describe());
        await expect(failure).rejects.toBeInstanceOf(McpHttpError);
        await expect(failure).rejects.toMatchObject({ status: 307, location: elsewhere.url });
        await expect(failure).rejects.toThrow(`redirects to another origin, which is not followed: ${JSON.stringify(elsewhere.url)}`);
      } finally {
        await mcp.close();
      }
      // The front's log comes through a pipe, which may lag behind its answer.
      await eventually(() => redirects(front).length > 0);
      expect(redirects(front)).toEqual([`POST /mcp -> ${elsewhere.url}`]);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a redirect to another port in the middle of a legacy session: no session id, key or token goes there', async () => {
    const elsewhere = await recorder();
    try {
      const backend = await start('legacy-http-server.mjs');
      // Through: the probe, initialize, notifications/initialized and the GET stream.
      const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'away', '--after', '4', '--away', elsewhere.url);
      const warnings: string[] = [];
      const mcp = McpClient.connectHttp({ url: front.url, headers: secrets, onWarn: (w) => warnings.push(w) });
      try {
        expect(await firstValueFrom(mcp.describe())).toMatchObject({ era: 'legacy' });
        await eventually(() => front.stderr.includes('GET /mcp'));
        const failure = firstValueFrom(mcp.callTool('add', { a: 1, b: 2 }));
        await expect(failure).rejects.toBeInstanceOf(McpHttpError);
        await expect(failure).rejects.toMatchObject({ location: elsewhere.url });
      } finally {
        await mcp.close();
      }
      await eventually(() => redirects(front).length === 2);
      expect(redirects(front)).toEqual([`POST /mcp -> ${elsewhere.url}`, `DELETE /mcp -> ${elsewhere.url}`]);
      expect(warnings.some((w) => w.startsWith('ending the session failed: HTTP 307'))).toBe(true);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a 303 for a POST, which would turn the message into a GET', async () => {
    const backend = await start('http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'slash', '--status', '303');
    const mcp = McpClient.connectHttp({ url: front.url });
    try {
      const failure = firstValueFrom(mcp.describe());
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      await expect(failure).rejects.toMatchObject({ status: 303 });
      await expect(failure).rejects.toThrow(`a POST cannot be redirected to be read with GET: ${JSON.stringify(`${front.url}/`)}`);
    } finally {
      await mcp.close();
    }
    await eventually(() => front.stderr.length > 0);
    expect(front.stderr).toEqual([`POST /mcp -> ${front.url}/`]);
  });

  it('gives up after five redirects', async () => {
    const backend = await start('http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'loop');
    const mcp = McpClient.connectHttp({ url: front.url });
    try {
      const failure = firstValueFrom(mcp.describe());
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      await expect(failure).rejects.toThrow(/more than 5 redirects; the last to "[^"]*\/mcp\/6"/);
    } finally {
      await mcp.close();
    }
    await eventually(() => front.stderr.length >= 6);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(front.stderr).toHaveLength(6);
  });

  it('fails clearly when the fetch given hides a redirect, as a browser does', async () => {
    const backend = await start('http-server.mjs');
    const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'slash');
    // A browser answers redirect: 'manual' with an opaque response: status 0, no headers, no body.
    const browserLike: FetchLike = async (url, init) => {
      const response = await fetch(url, init as RequestInit);
      if (init.redirect !== 'manual' || response.status < 300 || response.status >= 400) return response;
      await response.text();
      return { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers(), body: null, text: async () => '' };
    };
    const mcp = McpClient.connectHttp({ url: front.url, fetch: browserLike });
    try {
      const failure = firstValueFrom(mcp.describe());
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      await expect(failure).rejects.toMatchObject({ status: 0 });
      await expect(failure).rejects.toThrow(/hid a redirect \(an opaque redirect/);
    } finally {
      await mcp.close();
    }
  });

  it('refuses the answer of a fetch that followed a redirect to another origin on its own', async () => {
    const elsewhere = await recorder();
    try {
      const backend = await start('http-server.mjs');
      const front = await start('redirect-front.mjs', '--backend', backend.url, '--mode', 'away', '--away', elsewhere.url);
      // As an XHR-based polyfill does: redirect: 'manual' is not honoured.
      const following: FetchLike = (url, init) => fetch(url, { ...(init as RequestInit), redirect: 'follow' }) as unknown as ReturnType<FetchLike>;
      const mcp = McpClient.connectHttp({ url: front.url, fetch: following });
      try {
        const failure = firstValueFrom(mcp.describe());
        await expect(failure).rejects.toBeInstanceOf(McpHttpError);
        await expect(failure).rejects.toThrow(`followed a redirect to another origin on its own: ${JSON.stringify(elsewhere.url)}`);
      } finally {
        await mcp.close();
      }
      // The fetch went there before rxmcp could say no; only its answer was refused.
      expect(elsewhere.seen.length).toBeGreaterThan(0);
    } finally {
      await elsewhere.close();
    }
  });
});
