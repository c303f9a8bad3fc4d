import { execFileSync } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { type RunningInspect, startInspect } from '../support/inspect.js';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';
import { eventually, isAlive } from '../support/servers.js';

// `rxmcp inspect` as a plain HTTP client meets it (the page itself is
// driven in Chromium by spec/e2e/inspect.spec.ts): the built CLI with
// server-everything over stdio behind it, its guard, its probe of the four
// ways a connection fails, and its end on Ctrl-C.

jest.setTimeout(60_000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A GET or POST with any Host and Origin (fetch will not send a Host of its own choosing). */
function send(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: body === undefined ? 'GET' : 'POST', headers }, (incoming) => {
      let text = '';
      incoming.on('data', (chunk) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Listens on a free port, answering every request with `answer`. */
async function plainServer(answer: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server };
}

describe('rxmcp inspect', () => {
  let inspect: RunningInspect;

  beforeAll(async () => {
    inspect = await startInspect(['--', process.execPath, everything, 'stdio']);
  });

  afterAll(async () => {
    await inspect?.stop();
  });

  it('prints the page\'s URL with its token, and serves the page to it, framed by no one', async () => {
    const response = await fetch(inspect.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`src="page.js?token=${inspect.token}"`);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses every request without the token, or with another', async () => {
    expect((await fetch(`${inspect.origin}/`)).status).toBe(401);
    expect((await fetch(`${inspect.origin}/page.js`)).status).toBe(401);
    expect((await fetch(`${inspect.origin}/?token=${'x'.repeat(43)}`)).status).toBe(401);
    expect((await fetch(`${inspect.origin}/api/target`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await fetch(`${inspect.origin}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('refuses a foreign Host (a rebound name) and a foreign Origin, token or not', async () => {
    const port = new URL(inspect.origin).port;
    expect((await send(inspect.url, { Host: `rebound.example:${port}` })).status).toBe(403);
    expect((await send(inspect.url, { Host: `127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
    expect((await send(inspect.url, { Origin: 'http://attacker.example' })).status).toBe(403);
    expect((await send(inspect.url, { Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await send(inspect.url, { Host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses a POST that is not JSON, which another site\'s page could send unasked', async () => {
    const refused = await send(`${inspect.origin}/api/probe`, { Authorization: `Bearer ${inspect.token}`, 'Content-Type': 'text/plain' }, '{"url":"http://127.0.0.1:9/"}');
    expect(refused.status).toBe(415);
  });

  it('tells the page its target: the stdio server, behind the gateway', async () => {
    const response = await fetch(`${inspect.origin}/api/target`, { headers: { Authorization: `Bearer ${inspect.token}` } });
    expect(await response.json()).toEqual({ kind: 'gateway', command: `${process.execPath} ${everything} stdio` });
  });

  it('serves the stdio server at /mcp to a client with the token, and to no other', async () => {
    const mcp = McpClient.connectHttp({ url: `${inspect.origin}/mcp`, headers: { Authorization: `Bearer ${inspect.token}` } });
    const stranger = McpClient.connectHttp({ url: `${inspect.origin}/mcp` });
    try {
      const tools = await firstValueFrom(mcp.listTools());
      expect(tools.map((tool) => tool.name)).toContain('echo');
      const result = await firstValueFrom(mcp.callTool('echo', { message: 'through the gateway' }));
      expect(result.content[0]?.text).toBe('Echo: through the gateway');
      await expect(firstValueFrom(stranger.listTools())).rejects.toThrow();
    } finally {
      await Promise.all([mcp.close(), stranger.close()]);
    }
  });

  describe('its probe of a URL the page could not connect to', () => {
    let withoutCors: RunningServer;
    let withCors: RunningServer;
    let oauth: OAuthServers;
    let html: { url: string; server: Server };
    let closedPort: string;

    beforeAll(async () => {
      [withoutCors, withCors, oauth, html] = await Promise.all([
        startHttpServer('http-server.mjs'),
        startHttpServer('cors-http-server.mjs'),
        startOAuthServers(),
        plainServer((res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><h1>a web site</h1>')),
      ]);
      const closed = await plainServer(() => undefined);
      closedPort = closed.url;
      await new Promise((resolve) => closed.server.close(resolve));
    });

    afterAll(async () => {
      html?.server.close();
      await Promise.all([withoutCors?.stop(), withCors?.stop(), oauth?.stop()]);
    });

    const probe = async (url: string, transport = 'auto'): Promise<unknown> => {
      const response = await fetch(`${inspect.origin}/api/probe`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${inspect.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, transport, headers: {} }),
      });
      return response.status === 200 ? response.json() : response.status;
    };

    it('finds nothing listening on a closed port', async () => {
      expect(await probe(closedPort)).toEqual({ kind: 'refused' });
    });

    it('finds a web page, not an MCP endpoint', async () => {
      expect(await probe(html.url)).toEqual({ kind: 'not-mcp', status: 200, contentType: 'text/html' });
    });

    it('finds an MCP server that does not let the page\'s origin call it', async () => {
      expect(await probe(withoutCors.url)).toEqual({ kind: 'cors', status: 200 });
    });

    it('finds a server that wants a sign-in', async () => {
      expect(await probe(oauth.url)).toEqual({ kind: 'sign-in', status: 401 });
    });

    it('finds an MCP server open to the page', async () => {
      expect(await probe(withCors.url)).toEqual({ kind: 'ok', status: 200 });
    });

    it('takes http and https URLs alone', async () => {
      expect(await probe('file:///etc/passwd')).toBe(400);
      expect(await probe(withCors.url, 'gopher')).toBe(400);
    });
  });

  it('says in one line which package a stdio server needs where the server SDK is not installed, and serves nothing', () => {
    let failed: { status: number | null; stdout: string; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, ['--import', join(root, 'spec/fixtures/hide-package.mjs'), join(root, 'bin/rxmcp.mjs'), 'inspect', '--no-open', '--', process.execPath, everything, 'stdio'], {
        env: { ...process.env, HIDE_PACKAGE: '@modelcontextprotocol/server' },
        encoding: 'utf8',
        timeout: 20_000,
      });
    } catch (error) {
      failed = error as { status: number | null; stdout: string; stderr: string };
    }
    // 3, as every rxmcp command that could not do its work.
    expect(failed?.status).toBe(3);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^rxmcp: inspect reaches a stdio server through its gateway, which needs the optional package @modelcontextprotocol\/server: npm install @modelcontextprotocol\/server/)]);
  });

  it('stops on Ctrl-C with exit code 130, and its stdio server with it', async () => {
    const own = await startInspect(['--', process.execPath, everything, 'stdio']);
    const mcp = McpClient.connectHttp({ url: `${own.origin}/mcp`, headers: { Authorization: `Bearer ${own.token}` } });
    await firstValueFrom(mcp.listTools());
    await mcp.close();
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(own.child.pid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    expect(children.length).toBeGreaterThan(0);
    expect(await own.stop()).toBe(130);
    await eventually(() => children.every((pid) => !isAlive(pid)));
  });
});
