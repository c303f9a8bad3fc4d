import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { DpopKey } from '../../src/auth/dpop-key.js';
import { McpAuthError, McpClient, type StoredTokens, type TokenStore } from '../../src/index.js';

// Servers that misuse DPoP. An MCP server that keeps demanding nonces: one
// it changes every time, and ones no client should put in a proof; the
// client retries once with a usable nonce, never loops, and never quotes the
// nonce, the token or the proof back. And an authorization server that
// hands a DPoP-bound token to a client that asked for a bearer one.

const TOKEN = 'dpop-bound-access-token-7c2d';

/** A server that answers every request with `use_dpop_nonce` and the nonce `nonceFor(n)`, noting each request's headers. */
async function demanding(nonceFor: (count: number) => string): Promise<{ server: Server; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push(request.headers);
      response
        .writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce", error_description="nonce needed"', 'DPoP-Nonce': nonceFor(seen.length), 'Content-Type': 'application/json' })
        .end('{"error":"use_dpop_nonce"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen };
}

const payloadOf = (proof: unknown): Record<string, unknown> => JSON.parse(Buffer.from(String(proof).split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('a server that demands DPoP nonces', () => {
  let pair: CryptoKeyPair;
  let tokenStore: TokenStore;
  beforeAll(async () => {
    pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    // Tokens already bound to this key: every request carries one, with a proof.
    const stored: StoredTokens = { accessToken: TOKEN, issuer: 'http://127.0.0.1:1', clientId: 'c', dpop: { thumbprint: (await DpopKey.of(pair)).thumbprint } };
    tokenStore = { get: () => stored, set: () => undefined, clear: () => undefined };
  });

  async function attempt(nonceFor: (count: number) => string, store = tokenStore): Promise<{ error: unknown; seen: IncomingHttpHeaders[] }> {
    const { server, seen } = await demanding(nonceFor);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?tenant=7`;
    const mcp = McpClient.connectHttp({ url, era: 'modern', auth: { tokenStore: store, dpop: pair } });
    try {
      const error = await firstValueFrom(mcp.listTools()).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      return { error, seen };
    } finally {
      await mcp.close();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('retries once with a fresh nonce, then gives up rather than loop', async () => {
    const { error, seen } = await attempt((count) => `nonce-${count}`);
    expect(error).toBeInstanceOf(McpAuthError);
    expect((error as McpAuthError).step).toBe('request');
    expect((error as McpAuthError).message).toMatch(/asks for a DPoP nonce again after one retry with it/);
    expect(seen).toHaveLength(2);
    const [first, second] = seen.map((headers) => payloadOf(headers.dpop));
    expect(seen.every((headers) => headers.authorization === `DPoP ${TOKEN}`)).toBe(true);
    expect(first?.nonce).toBeUndefined();
    expect(second?.nonce).toBe('nonce-1');
    expect(second?.jti).not.toBe(first?.jti);
    expect(second?.htu).toBe(`http://127.0.0.1:${new URL(`http://${seen[1]?.host}`).port}/mcp`);
    expect(String(error)).not.toContain(TOKEN);
    expect(String(error)).not.toContain('nonce-');
  });

  it.each([
    ['of 513 characters', 'n'.repeat(513)],
    ['holding a quote and a backslash', 'a"b\\c'],
    ['that is empty', ''],
  ])('refuses a nonce %s without putting it in a proof or an error', async (_name, nonce) => {
    const { error, seen } = await attempt(() => nonce);
    expect(error).toBeInstanceOf(McpAuthError);
    expect((error as McpAuthError).message).toMatch(/asks for a DPoP nonce without giving a usable one/);
    expect(seen).toHaveLength(1);
    expect(payloadOf(seen[0]?.dpop).nonce).toBeUndefined();
    if (nonce !== '') expect(String(error)).not.toContain(nonce);
  });

  it.each([['null', null], ['a string', 'bound'], ['a thumbprint of another type', { thumbprint: 7 }]])(
    'sends no token from a store whose DPoP record is %s, and fails with McpAuthError rather than crash',
    async (_name, dpop) => {
      const odd = { accessToken: TOKEN, issuer: 'http://127.0.0.1:1', clientId: 'c', dpop } as unknown as StoredTokens;
      const { error, seen } = await attempt((count) => `nonce-${count}`, { get: () => odd, set: () => undefined, clear: () => undefined });
      expect(error).toBeInstanceOf(McpAuthError);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((headers) => headers.authorization === undefined && headers.dpop === undefined)).toBe(true);
    },
  );
});

// An authorization server that hands a DPoP-bound token to a client that
// sent no proof: the token could never be used, and is not.
describe('a DPoP-bound token for a client without DPoP', () => {
  let server: Server;
  const mcpRequests: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (request.url === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        if (request.url === '/.well-known/oauth-authorization-server') return json(200, { issuer: origin, token_endpoint: `${origin}/token` });
        if (request.url === '/token') return json(200, { access_token: TOKEN, token_type: 'DPoP', expires_in: 60 });
        mcpRequests.push(request.headers);
        return json(401, { error: 'unauthorized' }, { 'WWW-Authenticate': 'Bearer' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('is refused at the token step, saying auth.dpop would take it, and never sent', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const mcp = McpClient.connectHttp({ url, era: 'modern', auth: { grant: 'client_credentials', clientId: 'bot', clientSecret: 'bot-secret' } });
    try {
      const error = await firstValueFrom(mcp.listTools()).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(McpAuthError);
      expect((error as McpAuthError).step).toBe('token');
      expect((error as McpAuthError).message).toMatch(/issued a "DPoP" token: a DPoP-bound token needs auth.dpop/);
      expect(String(error)).not.toContain(TOKEN);
      expect(mcpRequests.some((headers) => headers.authorization !== undefined)).toBe(false);
    } finally {
      await mcp.close();
    }
  });
});

// An authorization server that wants a nonce on every refresh and changes it
// each time (a hostile one, or one whose nonce rotates between the retry and
// the answer). `use_dpop_nonce` says nothing against the refresh token: it
// stays in the store, the call fails at the refresh step, and nobody is
// sent to sign in again for it.
describe('an authorization server that answers every refresh with a new nonce', () => {
  let server: Server;
  const tokenRequests: { grant: string | null; nonce: unknown }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (request.url === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        if (request.url === '/.well-known/oauth-authorization-server') {
          return json(200, { issuer: origin, token_endpoint: `${origin}/token`, authorization_endpoint: `${origin}/authorize`, code_challenge_methods_supported: ['S256'] });
        }
        if (request.url === '/token') {
          tokenRequests.push({ grant: new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('grant_type'), nonce: payloadOf(request.headers.dpop).nonce });
          return json(400, { error: 'use_dpop_nonce', error_description: 'fresh nonce needed' }, { 'DPoP-Nonce': `as-nonce-${tokenRequests.length}` });
        }
        return json(401, { error: 'invalid_token' }, { 'WWW-Authenticate': `DPoP error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps the refresh token, fails the call at refresh after one retry, and asks no person', async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    let kept: StoredTokens = { accessToken: TOKEN, refreshToken: 'refresh-token-kept-1f3a', expiresAt: 1, issuer: origin, clientId: 'app', dpop: { thumbprint: (await DpopKey.of(pair)).thumbprint } };
    const tokenStore: TokenStore = { get: () => kept, set: (_key, tokens) => void (kept = tokens), clear: () => undefined };
    const asked: URL[] = [];
    const mcp = McpClient.connectHttp({
      url: `${origin}/mcp`,
      era: 'modern',
      auth: { clientId: 'app', tokenStore, dpop: pair, redirectUrl: 'http://127.0.0.1/callback', authorize: ({ url }) => (asked.push(url), Promise.reject(new Error('no person should be asked'))) },
    });
    try {
      const error = await firstValueFrom(mcp.listTools()).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(McpAuthError);
      expect(error).toMatchObject({ step: 'refresh', oauthError: 'use_dpop_nonce' });
      expect(asked).toEqual([]);
      expect(kept.refreshToken).toBe('refresh-token-kept-1f3a');
      expect(tokenRequests).toEqual([
        { grant: 'refresh_token', nonce: undefined },
        { grant: 'refresh_token', nonce: 'as-nonce-1' },
      ]);
    } finally {
      await mcp.close();
    }
  });
});
