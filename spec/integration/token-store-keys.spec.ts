import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';
import type { AuthorizeRequest, StoredTokens, TokenStore } from 'rxmcp';
import { FileTokenStore } from 'rxmcp/node';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';

// A server URL may carry user info (`https://user:pass@host/mcp`: rxmcp's own
// requests on Node send it as Basic credentials). The tokens of a sign-in
// belong to the server, not to that user info: the store's key, what it
// writes and what it shows are the URL without it, so the password never
// reaches a token file or the browser's storage, and the URL with and without
// it share one entry. Against the real authorization server and the MCP
// server it protects (spec/fixtures/oauth).

const REDIRECT = 'http://127.0.0.1/callback';
const USER = 'ada-the-user';
const PASSWORD = 'pa55-w0rd-in-url';

/** A TokenStore that keeps every key it is handed. */
class KeyRecordingStore implements TokenStore {
  readonly keys: string[] = [];
  private readonly inner = new MemoryTokenStore();
  get(key: string): StoredTokens | undefined {
    this.keys.push(key);
    return this.inner.get(key);
  }
  set(key: string, tokens: StoredTokens): void {
    this.keys.push(key);
    this.inner.set(key, tokens);
  }
  clear(key: string): void {
    this.keys.push(key);
    this.inner.clear(key);
  }
}

describe('token-store keys never keep a URL\'s user info', () => {
  let servers: OAuthServers;
  let directory: string;
  beforeAll(async () => {
    servers = await startOAuthServers();
    directory = mkdtempSync(join(tmpdir(), 'rxmcp-store-keys-'));
  });
  afterAll(async () => {
    await servers?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  const withUserInfo = (url: string): string => url.replace('http://', `http://${USER}:${PASSWORD}@`);

  function connect(url: string, tokenStore: TokenStore, authorized: URL[], authorize = headlessSignIn): McpClient {
    return McpClient.connectHttp({
      url,
      auth: {
        clientMetadata: { client_name: 'rxmcp store-key spec', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
        redirectUrl: REDIRECT,
        tokenStore,
        authorize: async ({ url: at }: AuthorizeRequest) => {
          authorized.push(at);
          return authorize(at);
        },
      },
    });
  }

  it('signs in to https://user:pass@host/mcp and keeps the tokens under, and only under, the URL without user info: on disk, and shared with that URL', async () => {
    const store = new FileTokenStore({ directory });
    const authorized: URL[] = [];
    const first = connect(withUserInfo(servers.url), store, authorized);
    try {
      expect((await firstValueFrom(first.listTools())).map((tool) => tool.name)).toContain('add');
    } finally {
      await first.close();
    }
    expect(authorized).toHaveLength(1);
    // Nothing the person's browser is sent carries the user info either.
    expect(authorized[0]?.href).not.toContain(PASSWORD);
    expect(authorized[0]?.href).not.toContain(USER);

    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toContain(USER);
    const text = readFileSync(join(directory, files[0] ?? ''), 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(USER);
    expect(JSON.parse(text)).toMatchObject({ key: servers.url });

    // The URL without user info finds the same entry: no second sign-in.
    const again: URL[] = [];
    const second = connect(servers.url, new FileTokenStore({ directory }), again, () => Promise.reject(new Error('a second sign-in was not needed')));
    try {
      expect((await firstValueFrom(second.listTools())).map((tool) => tool.name)).toContain('add');
    } finally {
      await second.close();
    }
    expect(again).toEqual([]);
    expect(readdirSync(directory)).toEqual(files);
  }, 20000);

  it('hands a store of the caller\'s own only keys without user info', async () => {
    const store = new KeyRecordingStore();
    const mcp = connect(withUserInfo(servers.url), store, []);
    try {
      await firstValueFrom(mcp.listTools());
    } finally {
      await mcp.close();
    }
    expect(store.keys.length).toBeGreaterThan(0);
    expect([...new Set(store.keys)]).toEqual([servers.url]);
  }, 20000);

  it('FileTokenStore and MemoryTokenStore, called directly with a key that holds user info, keep and find it without the user info', async () => {
    const tokens: StoredTokens = { accessToken: 'direct-token', issuer: 'https://auth.example.com', clientId: 'c' };
    const keyed = `https://${USER}:${PASSWORD}@tools.example.com/mcp`;
    const plain = 'https://tools.example.com/mcp';
    const own = mkdtempSync(join(tmpdir(), 'rxmcp-store-keys-direct-'));
    try {
      const file = new FileTokenStore({ directory: own });
      await file.set(keyed, tokens);
      expect(await file.get(plain)).toEqual(tokens);
      const [name] = readdirSync(own);
      const text = readFileSync(join(own, name ?? ''), 'utf8');
      expect(text).not.toContain(PASSWORD);
      expect(JSON.parse(text)).toMatchObject({ key: plain });
      await file.clear(keyed);
      expect(readdirSync(own)).toEqual([]);

      const memory = new MemoryTokenStore();
      memory.set(keyed, tokens);
      expect(memory.get(plain)).toEqual(tokens);
      memory.clear(plain);
      expect(memory.get(keyed)).toBeUndefined();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
