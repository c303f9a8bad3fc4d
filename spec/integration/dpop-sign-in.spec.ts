import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from 'rxmcp';
import type { AuthOptions, AuthorizeRequest, StoredTokens, TokenStore } from 'rxmcp';
import { FileTokenStore } from 'rxmcp/node';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';

// DPoP (RFC 9449) against real servers: oidc-provider with its dPoP feature
// on issues DPoP-bound JWT access tokens (cnf.jkt) and binds a public
// client's refresh tokens to the same key; the fixture MCP server takes
// those tokens only with a proof it checks in full (signature, htm, htu,
// iat, a fresh jti, ath, the key's thumbprint against cnf.jkt). One pair of
// servers asks for no nonce; the other wants a nonce of its own in every
// proof, at the token endpoint and at the MCP server, and keeps access
// tokens two seconds, to watch a refresh.

const REDIRECT = 'http://127.0.0.1/callback';

// Every secret the suite had, and everything it must never appear in: checked by the last test.
const seen = { warnings: [] as string[], errors: [] as unknown[], secrets: new Set<string>() };

/** A TokenStore in memory, as a caller might write one, that notes every secret it is handed. */
class MemoryStore implements TokenStore {
  readonly entries = new Map<string, StoredTokens>();
  get(key: string): StoredTokens | undefined {
    return this.entries.get(key);
  }
  set(key: string, tokens: StoredTokens): void {
    for (const secret of [tokens.accessToken, tokens.refreshToken]) if (secret) seen.secrets.add(secret);
    this.entries.set(key, tokens);
  }
  clear(key: string): void {
    this.entries.delete(key);
  }
}

/** The Authorization headers a client sent to the MCP server, in order. */
type Sent = string[];

function connect(servers: OAuthServers, auth: Partial<AuthOptions> & { tokenStore: TokenStore }): { mcp: McpClient; authorized: URL[]; sent: Sent } {
  const authorized: URL[] = [];
  const sent: Sent = [];
  const mcp = McpClient.connectHttp({
    url: servers.url,
    onWarn: (message) => seen.warnings.push(message),
    // The platform's fetch, watched: every proof is a secret for the last test, and what went to the MCP server is noted.
    fetch: (url, init) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      if (headers.DPoP) seen.secrets.add(headers.DPoP);
      if (url.startsWith(servers.url)) sent.push(headers.Authorization ?? '');
      return fetch(url, init as RequestInit);
    },
    auth: {
      clientMetadata: { client_name: 'rxmcp dpop spec', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
      redirectUrl: REDIRECT,
      authorize: async ({ url }: AuthorizeRequest) => {
        authorized.push(url);
        const back = await headlessSignIn(url);
        const code = new URL(back).searchParams.get('code');
        if (code) seen.secrets.add(code);
        return back;
      },
      ...auth,
    },
  });
  return { mcp, authorized, sent };
}

async function add(mcp: McpClient, a: number, b: number): Promise<unknown> {
  try {
    const result = await firstValueFrom(mcp.callTool('add', { a, b }));
    return (result.structuredContent as { sum?: number } | undefined)?.sum;
  } catch (error) {
    seen.errors.push(error);
    throw error;
  }
}

const lines = (stderr: string[], prefix: string, from = 0): string[] => stderr.slice(from).filter((line) => line.startsWith(prefix));

/** The `cnf.jkt` a JWT access token is bound to. */
const boundTo = (accessToken: string): unknown =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { cnf?: { jkt?: unknown } }).cnf?.jkt;

describe('DPoP-bound tokens from a real authorization server', () => {
  let plain: OAuthServers;
  let nonces: OAuthServers;
  let bearerOnly: OAuthServers;
  beforeAll(async () => {
    const started = await Promise.allSettled([startOAuthServers({ dpop: 'on' }), startOAuthServers({ dpop: 'nonce', accessTtl: 2 }), startOAuthServers()]);
    [plain, nonces, bearerOnly] = started.map((start) => (start.status === 'fulfilled' ? start.value : undefined)) as [OAuthServers, OAuthServers, OAuthServers];
    for (const start of started) if (start.status === 'rejected') throw start.reason;
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), nonces?.stop(), bearerOnly?.stop()]);
  });

  it('signs in with a proof, gets a DPoP-bound token, and proves possession on every request', async () => {
    const store = new MemoryStore();
    const { mcp } = connect(plain, { tokenStore: store, dpop: true });
    const from = { as: plain.authorizationServer.stderr.length, rs: plain.protectedServer.stderr.length };
    try {
      expect(await add(mcp, 2, 3)).toBe(5);
      expect(await add(mcp, 4, 4)).toBe(8);
      const [tokens] = [...store.entries.values()];
      expect(tokens?.dpop?.thumbprint).toMatch(/^[\w-]{43}$/);
      // The key rxmcp made stays inside Web Crypto, and is the one the token is bound to.
      expect(tokens?.dpop?.keyPair?.privateKey.extractable).toBe(false);
      expect(boundTo(tokens!.accessToken)).toBe(tokens?.dpop?.thumbprint);
      expect(lines(plain.authorizationServer.stderr, 'token ', from.as)).toEqual([expect.stringMatching(/grant_type=authorization_code .*dpop=proof token_type=DPoP status=200/)]);
      const checked = lines(plain.protectedServer.stderr, 'auth ', from.rs);
      // Each request's proof passed every check, a fresh jti included; the first request had no token yet.
      expect(checked[0]).toBe('auth 401 missing');
      expect(checked.slice(1).length).toBeGreaterThanOrEqual(3);
      expect(checked.slice(1).every((line) => line.startsWith('auth ok ') && line.endsWith(`dpop jkt=${tokens?.dpop?.thumbprint}`))).toBe(true);
    } finally {
      await mcp.close();
    }
  }, 20000);

  it("retries once with each server's nonce, and refreshes with the same key when the token expires", async () => {
    const store = new MemoryStore();
    const { mcp, authorized } = connect(nonces, { tokenStore: store, dpop: true });
    const from = { as: nonces.authorizationServer.stderr.length, rs: nonces.protectedServer.stderr.length };
    try {
      expect(await add(mcp, 1, 1)).toBe(2);
      const first = [...store.entries.values()][0];
      expect(lines(nonces.authorizationServer.stderr, 'token ', from.as)).toEqual([
        expect.stringMatching(/grant_type=authorization_code .*dpop=proof .*status=400 error=use_dpop_nonce/),
        expect.stringMatching(/grant_type=authorization_code .*dpop=proof token_type=DPoP status=200/),
      ]);
      expect(lines(nonces.protectedServer.stderr, 'auth ', from.rs).slice(0, 3)).toEqual(['auth 401 missing', 'auth 401 use_dpop_nonce', expect.stringMatching(/^auth ok /)]);

      await new Promise((resolve) => setTimeout(resolve, 2600));
      const before = nonces.authorizationServer.stderr.length;
      expect(await add(mcp, 2, 2)).toBe(4);
      const refreshed = [...store.entries.values()][0];
      expect(lines(nonces.authorizationServer.stderr, 'token ', before)).toEqual(
        expect.arrayContaining([expect.stringMatching(/grant_type=refresh_token .*dpop=proof token_type=DPoP status=200/)]),
      );
      expect(authorized).toHaveLength(1);
      expect(refreshed?.accessToken).not.toBe(first?.accessToken);
      expect(refreshed?.dpop?.thumbprint).toBe(first?.dpop?.thumbprint);
      expect(boundTo(refreshed!.accessToken)).toBe(first?.dpop?.thumbprint);
    } finally {
      await mcp.close();
    }
  }, 20000);

  it('signs with a key pair the caller supplies, and refuses one whose algorithm the server does not take before asking it', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const privateJwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as { d: string };
    seen.secrets.add(privateJwk.d);
    const store = new MemoryStore();
    const { mcp } = connect(plain, { tokenStore: store, dpop: pair });
    try {
      expect(await add(mcp, 3, 3)).toBe(6);
      const [tokens] = [...store.entries.values()];
      expect(tokens?.dpop?.keyPair).toBe(pair);
      const { x } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as { x: string };
      const thumbprint = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })))).toString('base64url');
      expect(boundTo(tokens!.accessToken)).toBe(thumbprint);
    } finally {
      await mcp.close();
    }

    // oidc-provider takes ES256 and EdDSA proofs only, and says so in its metadata.
    const p384 = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const refused = connect(plain, { tokenStore: new MemoryStore(), dpop: p384 });
    const from = plain.authorizationServer.stderr.length;
    try {
      const failure = add(refused.mcp, 1, 1);
      await expect(failure).rejects.toThrow(McpAuthError);
      await expect(failure).rejects.toThrow(/takes DPoP proofs signed with .*"ES256".*, not with ES384/);
      expect(lines(plain.authorizationServer.stderr, 'token ', from)).toEqual([]);
    } finally {
      await refused.mcp.close();
    }
  }, 20000);

  it('uses the key kept with the tokens in a memory store, and signs in afresh with a new key where a file could not keep it', async () => {
    const memory = new MemoryStore();
    const first = connect(plain, { tokenStore: memory, dpop: true });
    const directory = mkdtempSync(join(tmpdir(), 'rxmcp-dpop-'));
    try {
      expect(await add(first.mcp, 1, 2)).toBe(3);
      await first.mcp.close();
      const second = connect(plain, { tokenStore: memory, dpop: true });
      expect(await add(second.mcp, 1, 3)).toBe(4);
      await second.mcp.close();
      expect(second.authorized).toHaveLength(0);

      const files = new FileTokenStore({ directory });
      const written = connect(plain, { tokenStore: files, dpop: true });
      expect(await add(written.mcp, 2, 2)).toBe(4);
      await written.mcp.close();
      const [file] = readdirSync(directory);
      const kept = JSON.parse(readFileSync(join(directory, file!), 'utf8')) as { tokens: StoredTokens };
      seen.secrets.add(kept.tokens.accessToken);
      expect(Object.keys(kept.tokens.dpop ?? {})).toEqual(['thumbprint']);

      const reread = connect(plain, { tokenStore: files, dpop: true });
      expect(await add(reread.mcp, 5, 5)).toBe(10);
      await reread.mcp.close();
      expect(reread.authorized).toHaveLength(1);
      const rekeyed = JSON.parse(readFileSync(join(directory, file!), 'utf8')) as { tokens: StoredTokens };
      seen.secrets.add(rekeyed.tokens.accessToken);
      expect(rekeyed.tokens.dpop?.thumbprint).not.toBe(kept.tokens.dpop?.thumbprint);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 30000);

  it('refuses a bearer token when auth.dpop is on, and a DPoP-bound token store entry when it is off', async () => {
    const { mcp } = connect(bearerOnly, { tokenStore: new MemoryStore(), dpop: true });
    try {
      const failure = add(mcp, 1, 1);
      await expect(failure).rejects.toThrow(McpAuthError);
      await expect(failure).rejects.toThrow(/auth\.dpop is on, but the token endpoint issued a "Bearer" token/);
    } finally {
      await mcp.close();
    }
    // Tokens bound to a key are useless without it: a client without DPoP signs in for bearer ones.
    const store = new MemoryStore();
    const bound = connect(plain, { tokenStore: store, dpop: true });
    expect(await add(bound.mcp, 1, 1)).toBe(2);
    await bound.mcp.close();
    const [boundTokens] = [...store.entries.values()];
    const unbound = connect(plain, { tokenStore: store });
    try {
      // The MCP server takes no bearer token, so the new ones fail too; the bound one never went out.
      await expect(add(unbound.mcp, 1, 1)).rejects.toThrow(McpAuthError);
      expect(unbound.authorized.length).toBeGreaterThanOrEqual(1);
      expect(unbound.sent[0]).toBe('');
      expect(unbound.sent.some((header) => header.includes(boundTokens!.accessToken))).toBe(false);
    } finally {
      await unbound.mcp.close();
    }
  }, 30000);

  it('never lets a token, key, code or proof into server logs, warnings or error messages', () => {
    expect(seen.secrets.size).toBeGreaterThan(0);
    expect(seen.errors.length).toBeGreaterThan(0);
    const outputs = [
      ...[plain, nonces, bearerOnly].flatMap((servers) => [...servers.authorizationServer.stderr, ...servers.protectedServer.stderr]),
      ...seen.warnings,
      ...seen.errors.map((error) => inspect(error, { depth: 10 })),
    ].join('\n');
    const leaked = [...seen.secrets].filter((secret) => outputs.includes(secret));
    expect(leaked.map((secret) => `${secret.slice(0, 6)}…`)).toEqual([]);
    // No JWT at all: a proof or an assertion would be one.
    expect(outputs).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
  });
});
