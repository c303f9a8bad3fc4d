import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient, McpHttpError, type AuthOptions, type StoredTokens, type TokenStore } from '../../src/index.js';
import type { FetchLike } from '../../src/http/fetch-like.js';

const TOKEN = 'secret-access-token-5b1e';

function listen(handler: (headers: IncomingHttpHeaders, respond: (status: number, headers: Record<string, string>) => void) => void): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => handler(request.headers, (status, headers) => response.writeHead(status, headers).end()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

describe('where a token may go', () => {
  const seenElsewhere: (string | undefined)[] = [];
  let elsewhere: Server;
  let redirecting: Server;

  beforeAll(async () => {
    elsewhere = await listen((headers, respond) => {
      seenElsewhere.push(headers.authorization);
      respond(404, {});
    });
    redirecting = await listen((_headers, respond) => respond(307, { Location: urlOf(elsewhere) }));
  });

  afterAll(async () => {
    await new Promise((resolve) => elsewhere.close(resolve));
    await new Promise((resolve) => redirecting.close(resolve));
  });

  it('does not follow a redirect with a token, even to this machine', async () => {
    const stored: StoredTokens = { accessToken: TOKEN, issuer: 'http://127.0.0.1:1', clientId: 'c' };
    const tokenStore: TokenStore = { get: () => stored, set: () => undefined, clear: () => undefined };
    const warnings: string[] = [];
    const mcp = McpClient.connectHttp({ url: urlOf(redirecting), auth: { tokenStore }, probeTimeoutMs: 3000, onWarn: (line) => warnings.push(line) });
    try {
      const failure = await firstValueFrom(mcp.describe()).then(
        () => undefined,
        (error: unknown) => error,
      );
      // The probe reads a refusal as a legacy server and tries the handshake, which is refused the same way.
      expect(failure).toBeInstanceOf(McpHttpError);
      expect((failure as McpHttpError).status).toBe(307);
      expect(seenElsewhere).toEqual([]);
      expect(`${String(failure)} ${warnings.join(' ')}`).not.toContain(TOKEN);
    } finally {
      await mcp.close();
    }
  });
});

// A server that looks remote (https://mcp.example.com, with its authorization
// server at https://auth.example.com) but answers from 127.0.0.1: the test's
// fetch stands in for DNS and TLS. It points discovery wherever a test says;
// a recording listener on another loopback port shows whether anything went
// there. Private addresses are never contacted: the test's fetch answers for
// them, and records that it was asked.
describe('where discovery and token requests may go', () => {
  const MCP = 'https://mcp.example.com/mcp';
  const ISSUER = 'https://auth.example.com';
  const SECRET = 'pre-registered-secret-9c1d';
  let pointTo: { resourceMetadata?: string; authorizationServer: string; tokenEndpoint?: string; metadataRedirect?: string };
  let hostile: Server;
  let recorder: Server;
  const recorded: { method: string; url: string; authorization?: string }[] = [];
  const asked: string[] = [];

  beforeAll(async () => {
    hostile = await new Promise<Server>((resolve) => {
      const server = createServer((request, response) => {
        request.resume();
        const host = request.headers['x-test-host'];
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (host === 'mcp.example.com' && request.url === '/.well-known/oauth-protected-resource/mcp') {
          return json(200, { resource: MCP, authorization_servers: [pointTo.authorizationServer] });
        }
        if (host === 'mcp.example.com' && request.url === '/mcp') {
          const metadata = pointTo.resourceMetadata ?? 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
          return json(401, { error: 'unauthorized' }, { 'www-authenticate': `Bearer resource_metadata="${metadata}"` });
        }
        if (host === 'auth.example.com' && request.url === '/.well-known/oauth-authorization-server') {
          if (pointTo.metadataRedirect) return response.writeHead(302, { location: pointTo.metadataRedirect }).end();
          return json(200, {
            issuer: ISSUER,
            token_endpoint: pointTo.tokenEndpoint ?? `${ISSUER}/token`,
            token_endpoint_auth_methods_supported: ['client_secret_basic'],
          });
        }
        json(404, {});
      });
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    recorder = createServer((request, response) => {
      recorded.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization });
      request.resume();
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => hostile.close(resolve));
    await new Promise((resolve) => recorder.close(resolve));
  });

  beforeEach(() => {
    recorded.length = 0;
    asked.length = 0;
  });

  const recorderOrigin = () => `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;

  // mcp.example.com and auth.example.com reach the hostile server; 127.0.0.1 is
  // fetched for real (the recorder); anything else is answered here unsent.
  const routing: FetchLike = async (url, init) => {
    asked.push(url);
    const target = new URL(url);
    if (target.hostname === 'mcp.example.com' || target.hostname === 'auth.example.com') {
      const port = (hostile.address() as AddressInfo).port;
      const headers = { ...(init.headers as Record<string, string>), 'x-test-host': target.hostname };
      return fetch(`http://127.0.0.1:${port}${target.pathname}${target.search}`, { ...init, headers } as RequestInit) as never;
    }
    if (target.hostname === '127.0.0.1') return fetch(url, init as RequestInit) as never;
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }) as never;
  };

  async function failureOf(auth: AuthOptions): Promise<unknown> {
    const mcp = McpClient.connectHttp({ url: MCP, fetch: routing, auth, probeTimeoutMs: 5000 });
    try {
      return await firstValueFrom(mcp.callTool('add', { a: 1, b: 2 })).then(
        () => undefined,
        (error: unknown) => error,
      );
    } finally {
      await mcp.close();
    }
  }

  const machine: AuthOptions = { grant: 'client_credentials', clientId: 'bot', clientSecret: SECRET };

  it('does not fetch resource metadata on this machine for a server that is not', async () => {
    pointTo = { resourceMetadata: `${recorderOrigin()}/.well-known/oauth-protected-resource`, authorizationServer: ISSUER };
    const failure = await failureOf(machine);
    expect(failure).toBeInstanceOf(McpAuthError);
    expect(failure).toMatchObject({ step: 'resource-metadata', message: expect.stringContaining('on this machine') });
    expect(recorded).toEqual([]);
  });

  it('does not ask an authorization server on this machine for its metadata', async () => {
    pointTo = { authorizationServer: recorderOrigin() };
    const failure = await failureOf(machine);
    expect(failure).toBeInstanceOf(McpAuthError);
    expect(failure).toMatchObject({ step: 'server-metadata', message: expect.stringContaining('on this machine') });
    expect(recorded).toEqual([]);
  });

  it('never posts the client secret to a token endpoint on this machine', async () => {
    pointTo = { authorizationServer: ISSUER, tokenEndpoint: `${recorderOrigin()}/token` };
    const failure = await failureOf(machine);
    expect(failure).toBeInstanceOf(McpAuthError);
    expect(failure).toMatchObject({ step: 'token' });
    expect(recorded).toEqual([]);
    expect(String(failure)).not.toContain(SECRET);
  });

  it('does not follow a metadata redirect, so a redirect cannot lead past these checks', async () => {
    pointTo = { authorizationServer: ISSUER, metadataRedirect: `${recorderOrigin()}/.well-known/oauth-authorization-server` };
    expect(await failureOf(machine)).toBeInstanceOf(McpAuthError);
    expect(recorded).toEqual([]);
  });

  it.each([
    ['a private address', 'https://10.0.0.1', 'in a private network'],
    ['a private address spelled in hex', 'https://0xa000001', 'in a private network'],
    ['the cloud metadata service', 'https://169.254.169.254', 'link-local'],
    ['a mapped IPv6 loopback address', 'https://[::ffff:127.0.0.1]', 'on this machine'],
    ['an .internal name', 'https://metadata.google.internal', 'in a private network'],
  ])('does not contact %s the server names', async (_what, authorizationServer, why) => {
    pointTo = { authorizationServer };
    const failure = await failureOf(machine);
    expect(failure).toBeInstanceOf(McpAuthError);
    expect((failure as Error).message).toContain(why);
    const host = new URL(authorizationServer).host;
    expect(asked.filter((url) => new URL(url).host === host)).toEqual([]);
  });

  it('contacts a private address when auth.allowPrivateNetwork says so', async () => {
    pointTo = { authorizationServer: 'https://10.0.0.1' };
    const failure = await failureOf({ ...machine, allowPrivateNetwork: true });
    // The test's fetch answers for 10.0.0.1 with 404s: no metadata there.
    expect(failure).toMatchObject({ step: 'server-metadata', message: expect.stringContaining('publishes no OAuth or OpenID metadata') });
    expect(asked).toContain('https://10.0.0.1/.well-known/oauth-authorization-server');
  });
});
