import { createServer, request as httpRequest, type Server } from 'node:http';
import { type RunningInspect, startInspect } from '../support/inspect.js';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';
import { eventually } from '../support/servers.js';

// What `rxmcp inspect` serves for MCP Apps views and sign-in, as a plain
// HTTP client meets it (the page itself is driven in Chromium by
// spec/e2e/inspect-views.spec.ts): the second origin where views run, the
// sign-in window's redirect page, and the registration of the page as an
// OAuth client.

jest.setTimeout(60_000);

/** A GET or POST with any Host and Origin (fetch will not send a Host of its own choosing). */
function send(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: body === undefined ? 'GET' : 'POST', headers }, (incoming) => {
      let text = '';
      incoming.on('data', (chunk) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe("rxmcp inspect's second origin, redirect page and client registration", () => {
  let inspect: RunningInspect;
  let sandbox: string;
  let sandboxPort: string;
  let own: Record<string, string>;

  beforeAll(async () => {
    inspect = await startInspect([]);
    own = { Authorization: `Bearer ${inspect.token}` };
    const views = (await (await fetch(`${inspect.origin}/api/views`, { headers: own })).json()) as { sandboxPort: number; sandboxPath: string };
    sandboxPort = String(views.sandboxPort);
    sandbox = `http://127.0.0.1:${sandboxPort}${views.sandboxPath}`;
  });

  afterAll(async () => {
    await inspect?.stop();
  });

  it('serves the sandbox proxy on another port, framed by the page\'s origin alone and taking orders from it alone', async () => {
    expect(new URL(sandbox).origin).not.toBe(inspect.origin);
    const response = await fetch(sandbox);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(`frame-ancestors ${inspect.origin}`);
    expect(await response.text()).toContain(JSON.stringify(inspect.origin));
    // At the other loopback name, the page there and no other.
    const named = await send(sandbox, { Host: `localhost:${sandboxPort}` });
    expect(named.headers['content-security-policy']).toBe(`frame-ancestors http://localhost:${new URL(inspect.origin).port}`);
  });

  it('refuses a foreign Host or Origin at the sandbox, and serves nothing else there', async () => {
    expect((await send(sandbox, { Host: `rebound.example:${sandboxPort}` })).status).toBe(403);
    expect((await send(sandbox, { Host: `[::1]:${sandboxPort}` })).status).toBe(403);
    expect((await send(sandbox, { Origin: 'http://attacker.example' })).status).toBe(403);
    expect((await fetch(sandbox.replace('/sandbox.html', '/'))).status).toBe(404);
    expect((await fetch(sandbox, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('lets the page frame the sandbox at the name the page was loaded by, and nothing else', async () => {
    const page = await fetch(inspect.url);
    expect(page.headers.get('content-security-policy')).toContain(`frame-src http://127.0.0.1:${sandboxPort};`);
    const named = await send(inspect.url, { Host: `localhost:${new URL(inspect.origin).port}` });
    expect(named.headers['content-security-policy']).toContain(`frame-src http://localhost:${sandboxPort};`);
  });

  it('serves the sign-in redirect page and its script without the token, and nothing else', async () => {
    const page = await fetch(`${inspect.origin}/signed-in?code=abc&state=xyz`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/signed-in.js"');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${inspect.origin}/signed-in.js`)).status).toBe(200);
    // Host and Origin are checked all the same; every other path still wants the token.
    expect((await send(`${inspect.origin}/signed-in`, { Host: `rebound.example:${new URL(inspect.origin).port}` })).status).toBe(403);
    expect((await send(`${inspect.origin}/signed-in`, { Origin: 'http://attacker.example' })).status).toBe(403);
    expect((await fetch(`${inspect.origin}/api/views`)).status).toBe(401);
    expect((await fetch(`${inspect.origin}/signed-in`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  describe('its registration of the page as a client', () => {
    let oauth: OAuthServers;
    let hostile: Server;
    let hostileUrl: string;

    beforeAll(async () => {
      oauth = await startOAuthServers();
      // A "server" whose metadata names itself as its authorization server, and whose registration answers with a flood of markup.
      hostile = createServer((req, res) => {
        const origin = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
        if (req.url?.startsWith('/.well-known/oauth-protected-resource')) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [origin] }));
        else if (req.url === '/.well-known/oauth-authorization-server')
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: origin, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register` }));
        else res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client_metadata', error_description: `<script>alert(1)</script>${'x'.repeat(100_000)}` }));
      });
      await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
      hostileUrl = `http://127.0.0.1:${(hostile.address() as { port: number }).port}/mcp`;
    });

    afterAll(async () => {
      hostile?.close();
      await oauth?.stop();
    });

    const register = (url: unknown): Promise<Response> =>
      fetch(`${inspect.origin}/api/register`, { method: 'POST', headers: { ...own, 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) });

    it('registers a public client whose one redirect URI is the inspector\'s redirect page', async () => {
      const response = await register(oauth.url);
      expect(response.status).toBe(200);
      const client = (await response.json()) as Record<string, unknown>;
      expect(client).toEqual({ issuer: oauth.issuer, clientId: expect.any(String) });
      await eventually(() => oauth.authorizationServer.stderr.some((line) => line.includes(`client=${client.clientId as string}`) && line.includes(`redirect_uris=${inspect.origin}/signed-in`)));
    });

    it('says why a registration failed, in bounded words, and takes http(s) URLs alone', async () => {
      const refused = await register(hostileUrl);
      expect(refused.status).toBe(502);
      const { error } = (await refused.json()) as { error: string };
      expect(error).toContain('refused to register the client');
      expect(error.length).toBeLessThanOrEqual(500);
      expect((await register('file:///etc/passwd')).status).toBe(400);
      expect((await register(42)).status).toBe(400);
      expect((await fetch(`${inspect.origin}/api/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: oauth.url }) })).status).toBe(401);
    });
  });
});
