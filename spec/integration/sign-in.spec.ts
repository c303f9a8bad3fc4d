import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { firstValueFrom, from, Observable } from 'rxjs';
import { McpAuthError, McpCancelledError, McpClient } from 'rxmcp';
import type { AuthOptions, AuthorizeRequest, AuthState, StoredTokens, TokenStore } from 'rxmcp';
import { FileTokenStore } from 'rxmcp/node';
import { headlessSignIn, type MovingServers, type OAuthServers, startMovingServers, startOAuthServers } from '../support/oauth.js';

// Signing in against real servers: oidc-provider as the authorization server
// (open registration, PKCE, resource indicators, JWT access tokens, rotating
// refresh tokens) and the SDK v2 fixture server behind bearer tokens, which
// answers 401 with a resource_metadata challenge. One pair keeps access
// tokens for five minutes; the other for two seconds, to watch them expire.

const REDIRECT = 'http://127.0.0.1/callback';
const ACCESS_TTL_S = 2;

// Everything the suite saw that a token must never appear in, and every
// token, secret and authorization code it had: checked by the last test.
const seen = { warnings: [] as string[], errors: [] as unknown[], secrets: new Set<string>() };

/** A TokenStore in memory that remembers every secret it was handed. */
class MemoryStore implements TokenStore {
  readonly entries = new Map<string, StoredTokens>();
  get(key: string): StoredTokens | undefined {
    return this.entries.get(key);
  }
  set(key: string, tokens: StoredTokens): void {
    for (const secret of [tokens.accessToken, tokens.refreshToken, tokens.clientSecret]) if (secret) seen.secrets.add(secret);
    this.entries.set(key, tokens);
  }
  clear(key: string): void {
    this.entries.delete(key);
  }
}

interface Connected {
  mcp: McpClient;
  store: MemoryStore;
  /** The authorization URLs the `authorize` hook was handed. */
  authorized: URL[];
  states: AuthState[];
}

/** A client for `servers` that signs in through `headlessSignIn` unless `authorize` says otherwise. */
function connect(
  servers: OAuthServers,
  { store = new MemoryStore(), authorize = headlessSignIn }: { store?: MemoryStore; authorize?: (url: URL) => Promise<string> } = {},
): Connected {
  const authorized: URL[] = [];
  const states: AuthState[] = [];
  const mcp = McpClient.connectHttp({
    url: servers.url,
    onWarn: (message) => seen.warnings.push(message),
    auth: {
      clientMetadata: {
        client_name: 'rxmcp sign-in spec',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      redirectUrl: REDIRECT,
      tokenStore: store,
      authorize: async ({ url }: AuthorizeRequest) => {
        authorized.push(url);
        const back = await authorize(url);
        const code = new URL(back).searchParams.get('code');
        if (code) seen.secrets.add(code);
        return back;
      },
    },
  });
  mcp.auth$.subscribe((state) => states.push(state));
  return { mcp, store, authorized, states };
}

/** Calls `add` and answers the sum; a failure is kept for the last test before it is rethrown. */
async function add(mcp: McpClient, a: number, b: number): Promise<unknown> {
  try {
    const result = await firstValueFrom(mcp.callTool('add', { a, b }));
    return (result.structuredContent as { sum?: number } | undefined)?.sum;
  } catch (error) {
    seen.errors.push(error);
    throw error;
  }
}

const names = (states: AuthState[]): string[] => states.map((state) => state.state);

/** The stderr lines a server wrote from `from` on that start with `prefix`. */
const lines = (stderr: string[], prefix: string, from = 0): string[] => stderr.slice(from).filter((line) => line.startsWith(prefix));

/** Waits until the access token in `tokens` has expired by the server's clock and by the client's. */
async function outlive(tokens: StoredTokens | undefined): Promise<void> {
  if (!tokens) throw new Error('no tokens stored to outlive');
  const payload = JSON.parse(Buffer.from(tokens.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  const until = Math.max(payload.exp * 1000, tokens.expiresAt ?? 0) + 100;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
}

describe('signing in to an OAuth-protected server over Streamable HTTP', () => {
  let lasting: OAuthServers;
  let brief: OAuthServers;
  beforeAll(async () => {
    const [long, short] = await Promise.allSettled([startOAuthServers(), startOAuthServers({ accessTtl: ACCESS_TTL_S })]);
    if (long.status === 'fulfilled') lasting = long.value;
    if (short.status === 'fulfilled') brief = short.value;
    for (const start of [long, short]) if (start.status === 'rejected') throw start.reason;
  });
  afterAll(async () => {
    await Promise.all([lasting?.stop(), brief?.stop()]);
  });

  it('answers a 401 by discovering, registering, and signing in with PKCE, then makes the call', async () => {
    const { mcp, store, authorized, states } = connect(lasting);
    const from = { as: lasting.authorizationServer.stderr.length, rs: lasting.protectedServer.stderr.length };
    try {
      expect(await add(mcp, 2, 40)).toBe(42);

      expect(authorized).toHaveLength(1);
      const url = authorized[0]!;
      expect(`${url.origin}${url.pathname}`).toBe(`${lasting.issuer}/auth`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        response_type: 'code',
        redirect_uri: REDIRECT,
        code_challenge_method: 'S256',
        resource: lasting.url,
      });
      expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(url.searchParams.get('state')).toBeTruthy();

      expect(names(states)).toEqual(['signing-in', 'signed-in']);
      expect(states[0]).toEqual({ state: 'signing-in', url });

      const tokens = store.get(lasting.url);
      expect(tokens).toMatchObject({ issuer: lasting.issuer, clientId: url.searchParams.get('client_id') });
      expect(tokens?.refreshToken).toBeTruthy();

      const as = lasting.authorizationServer.stderr;
      expect(lines(as, 'register ', from.as)).toEqual([expect.stringContaining('status=201')]);
      expect(lines(as, 'token ', from.as)).toEqual([
        expect.stringMatching(new RegExp(`^token grant_type=authorization_code .*resource=${lasting.url} .*status=200`)),
      ]);
      const rs = lines(lasting.protectedServer.stderr, 'auth ', from.rs);
      expect(rs[0]).toBe('auth 401 missing');
      expect(rs).toContainEqual(expect.stringMatching(new RegExp(`^auth ok sub=ada client=${tokens?.clientId} `)));

      // Signed in: the next call goes straight through.
      const tokenRequests = lines(as, 'token ').length;
      expect(await add(mcp, 1, 1)).toBe(2);
      expect(authorized).toHaveLength(1);
      expect(lines(as, 'token ')).toHaveLength(tokenRequests);
    } finally {
      await mcp.close();
    }
  }, 10000);

  it('shares tokens through a tokenStore: a second client makes calls without signing in or registering', async () => {
    const first = connect(lasting);
    const before = lasting.authorizationServer.stderr.length;
    const second = connect(lasting, {
      store: first.store,
      authorize: () => Promise.reject(new Error('the second client must not need a person')),
    });
    try {
      expect(await add(first.mcp, 3, 4)).toBe(7);
      expect([...first.store.entries.keys()]).toEqual([lasting.url]);
      const afterFirst = lasting.authorizationServer.stderr.length;

      expect(await add(second.mcp, 5, 6)).toBe(11);
      expect(second.authorized).toHaveLength(0);
      expect(names(second.states)).not.toContain('signing-in');
      // The second client neither registered nor asked the authorization server for anything.
      expect(lasting.authorizationServer.stderr.slice(afterFirst)).toEqual([]);
      expect(lines(lasting.authorizationServer.stderr, 'register ', before)).toHaveLength(1);
    } finally {
      await Promise.all([first.mcp.close(), second.mcp.close()]);
    }
  }, 10000);

  it('fails the call with McpAuthError at authorize when the hook fails, and signs in on the next call', async () => {
    let attempts = 0;
    const { mcp, authorized, states } = connect(lasting, {
      authorize: (url) => (++attempts === 1 ? Promise.reject(new Error('the person closed the browser')) : headlessSignIn(url)),
    });
    try {
      const failure = add(mcp, 1, 2);
      await expect(failure).rejects.toBeInstanceOf(McpAuthError);
      await expect(failure).rejects.toMatchObject({ step: 'authorize' });
      expect(names(states)).toEqual(['signing-in', 'failed']);

      expect(await add(mcp, 1, 2)).toBe(3);
      expect(authorized).toHaveLength(2);
      expect(names(states).slice(2)).toEqual(['signing-in', 'signed-in']);
    } finally {
      await mcp.close();
    }
  }, 10000);

  it('asks the person once for calls that meet the 401 together', async () => {
    const { mcp, authorized } = connect(lasting);
    try {
      expect(await Promise.all([add(mcp, 1, 1), add(mcp, 2, 2), firstValueFrom(mcp.listTools())])).toEqual([2, 4, expect.any(Array)]);
      expect(authorized).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  }, 10000);

  it('stops the call budget while a person signs in', async () => {
    const { mcp } = connect(lasting, {
      authorize: async (url) => {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        return headlessSignIn(url);
      },
    });
    try {
      const result = await firstValueFrom(mcp.callTool('add', { a: 20, b: 22 }, { timeoutMs: 1000 }));
      expect(result.structuredContent).toEqual({ sum: 42 });
    } finally {
      await mcp.close();
    }
  }, 10000);

  it('abandons the sign-in when the only call waiting for it goes away, and stays usable', async () => {
    let waiting = (): void => undefined;
    let stopped = false;
    let attempts = 0;
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    // An Observable hook: the abandoned sign-in unsubscribes from it.
    const hook = ({ url }: AuthorizeRequest) =>
      ++attempts > 1
        ? from(headlessSignIn(url))
        : new Observable<string>(() => {
            waiting();
            return () => (stopped = true);
          });
    const own = McpClient.connectHttp({ url: lasting.url, auth: { redirectUrl: REDIRECT, clientMetadata: { redirect_uris: [REDIRECT] }, authorize: hook } });
    const ownStates: AuthState[] = [];
    own.auth$.subscribe((state) => ownStates.push(state));
    try {
      const controller = new AbortController();
      const call = firstValueFrom(own.listTools({ signal: controller.signal }));
      await reached;
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(McpCancelledError);
      expect(stopped).toBe(true);
      expect(names(ownStates)).toEqual(['signing-in', 'failed']);
      expect(await firstValueFrom(own.listTools())).toEqual(expect.any(Array));
      expect(attempts).toBe(2);
    } finally {
      await own.close();
    }
  }, 10000);

  describe(`with access tokens that live ${ACCESS_TTL_S} s`, () => {
    it('refreshes an expired access token with the refresh token, without asking the person again', async () => {
      const { mcp, store, authorized, states } = connect(brief);
      try {
        expect(await add(mcp, 1, 2)).toBe(3);
        const signedIn = store.get(brief.url);
        await outlive(signedIn);
        const from = brief.authorizationServer.stderr.length;
        const stateCount = states.length;

        expect(await add(mcp, 2, 3)).toBe(5);
        expect(authorized).toHaveLength(1);
        expect(names(states.slice(stateCount))).toContain('refreshing');
        expect(names(states).at(-1)).toBe('signed-in');
        expect(lines(brief.authorizationServer.stderr, 'token ', from)).toEqual([
          expect.stringMatching(/^token grant_type=refresh_token .*status=200/),
        ]);
        expect(lines(brief.authorizationServer.stderr, 'authorize ', from)).toEqual([]);
        // The authorization server rotates a public client's refresh token: the new one is kept.
        expect(store.get(brief.url)?.accessToken).not.toBe(signedIn?.accessToken);
        expect(store.get(brief.url)?.refreshToken).not.toBe(signedIn?.refreshToken);
      } finally {
        await mcp.close();
      }
    }, 10000);

    it('refreshes when the server rejects a token the store still believes in', async () => {
      const first = connect(brief);
      try {
        expect(await add(first.mcp, 2, 2)).toBe(4);
      } finally {
        await first.mcp.close();
      }
      const tokens = first.store.get(brief.url)!;
      await outlive(tokens);
      first.store.entries.set(brief.url, { ...tokens, expiresAt: Date.now() + 3_600_000 });
      const from = { as: brief.authorizationServer.stderr.length, rs: brief.protectedServer.stderr.length };

      const second = connect(brief, { store: first.store });
      try {
        expect(await add(second.mcp, 3, 3)).toBe(6);
        expect(second.authorized).toHaveLength(0);
        expect(lines(brief.protectedServer.stderr, 'auth ', from.rs)[0]).toBe('auth 401 expired');
        expect(lines(brief.authorizationServer.stderr, 'token ', from.as)).toEqual([
          expect.stringMatching(/^token grant_type=refresh_token .*status=200/),
        ]);
      } finally {
        await second.mcp.close();
      }
    }, 10000);

    it('refreshes once for calls that find the token expired together', async () => {
      // oidc-provider treats a second use of a rotated refresh token as
      // theft and revokes the grant: two refreshes would end in signing in.
      const { mcp, store, authorized } = connect(brief);
      try {
        expect(await add(mcp, 1, 1)).toBe(2);
        await outlive(store.get(brief.url));
        const from = brief.authorizationServer.stderr.length;

        expect(await Promise.all([add(mcp, 1, 2), add(mcp, 3, 4), firstValueFrom(mcp.listTools())])).toEqual([3, 7, expect.any(Array)]);
        expect(authorized).toHaveLength(1);
        expect(lines(brief.authorizationServer.stderr, 'token ', from)).toEqual([
          expect.stringMatching(/^token grant_type=refresh_token .*status=200/),
        ]);
      } finally {
        await mcp.close();
      }
    }, 10000);

    it('signs in again through authorize once the grant is revoked at the authorization server', async () => {
      const { mcp, store, authorized, states } = connect(brief);
      try {
        expect(await add(mcp, 4, 4)).toBe(8);
        const clientId = store.get(brief.url)!.clientId;
        expect(await brief.revokeAll(clientId)).toBe(1);
        // The JWT access token stays good until it expires; then the refresh token is refused.
        await outlive(store.get(brief.url));
        const from = brief.authorizationServer.stderr.length;
        const stateCount = states.length;

        expect(await add(mcp, 5, 5)).toBe(10);
        expect(authorized).toHaveLength(2);
        expect(lines(brief.authorizationServer.stderr, 'token ', from)).toEqual([
          expect.stringMatching(/^token grant_type=refresh_token .*status=400 error=invalid_grant/),
          expect.stringMatching(/^token grant_type=authorization_code .*status=200/),
        ]);
        expect(names(states.slice(stateCount))).toEqual(expect.arrayContaining(['refreshing', 'signing-in']));
        expect(names(states).at(-1)).toBe('signed-in');
      } finally {
        await mcp.close();
      }
    }, 10000);
  });

  it('never lets a token, secret or code into server logs, warnings or error messages', () => {
    expect(seen.secrets.size).toBeGreaterThan(0);
    const outputs = [
      ...[lasting, brief].flatMap((servers) => [...servers.authorizationServer.stderr, ...servers.protectedServer.stderr]),
      ...seen.warnings,
      ...seen.errors.map((error) => inspect(error, { depth: 10 })),
    ].join('\n');
    expect(seen.errors.length).toBeGreaterThan(0);
    const leaked = [...seen.secrets].filter((secret) => outputs.includes(secret));
    expect(leaked.map((secret) => `${secret.slice(0, 6)}…`)).toEqual([]);
  });
});

describe('pre-registered credentials and the authorization server they belong to', () => {
  let servers: MovingServers;
  let bot: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    servers = await startMovingServers({ accessTtl: ACCESS_TTL_S });
    const registered = await servers.preRegister(servers.issuers[0]);
    bot = { clientId: registered.clientId, clientSecret: registered.clientSecret as string };
  }, 15000);
  const directories: string[] = [];
  afterAll(async () => {
    await servers?.stop();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  /** A machine client with credentials registered at the first authorization server. */
  const connectBot = (tokenStore: TokenStore, extra: Partial<AuthOptions> = {}) =>
    McpClient.connectHttp({ url: servers.url, auth: { grant: 'client_credentials', clientId: bot.clientId, clientSecret: bot.clientSecret, tokenStore, ...extra } });

  const sum = async (mcp: McpClient, a: number, b: number): Promise<unknown> =>
    ((await firstValueFrom(mcp.callTool('add', { a, b }))).structuredContent as { sum?: number } | undefined)?.sum;

  const failureOf = (mcp: McpClient): Promise<unknown> =>
    firstValueFrom(mcp.callTool('add', { a: 1, b: 1 })).then(
      () => undefined,
      (error: unknown) => error,
    );

  const tokenDirectory = (): string => {
    const directory = mkdtempSync(join(tmpdir(), 'rxmcp-binding-'));
    directories.push(directory);
    return directory;
  };
  const filesIn = (directory: string) => readdirSync(directory).map((file) => readFileSync(join(directory, file), 'utf8'));

  it("keeps the tokens and the client id in the token file, but never the caller's client secret", async () => {
    const directory = tokenDirectory();
    const mcp = connectBot(new FileTokenStore({ directory }));
    try {
      expect(await sum(mcp, 1, 2)).toBe(3);
    } finally {
      await mcp.close();
    }
    const [file] = filesIn(directory);
    expect(JSON.parse(file ?? '{}')).toMatchObject({ tokens: { issuer: servers.issuers[0], clientId: bot.clientId, accessToken: expect.any(String) } });
    expect(file).not.toContain(bot.clientSecret);
  }, 10000);

  it('sends nothing to another authorization server the MCP server names later, in this run or the next', async () => {
    const directory = tokenDirectory();
    const first = connectBot(new FileTokenStore({ directory }));
    const elsewhere = servers.authorizationServers[1].stderr;
    let second: McpClient | undefined;
    try {
      expect(await sum(first, 2, 3)).toBe(5);
      await servers.moveTo(servers.issuers[1]);
      const from = elsewhere.length;

      // The same client: bound in memory since it signed in. Not even a metadata request goes to the other server.
      const refusal = await failureOf(first);
      expect(elsewhere.slice(from)).toEqual([]);
      expect(refusal).toBeInstanceOf(McpAuthError);
      expect(refusal).toMatchObject({ step: 'resource-metadata' });

      // A new client over the same token directory, as the next run of a program would be: bound by what the store keeps.
      second = connectBot(new FileTokenStore({ directory }));
      const failure = await failureOf(second);
      // Not a metadata request, let alone a token request with the secret.
      expect(elsewhere.slice(from)).toEqual([]);
      expect(failure).toBeInstanceOf(McpAuthError);
      expect(failure).toMatchObject({ step: 'resource-metadata' });
      expect((failure as Error).message).toContain(JSON.stringify(servers.issuers[0]));
      expect((failure as Error).message).toContain(JSON.stringify(servers.issuers[1]));
      expect(`${String(refusal)} ${String(failure)}`).not.toContain(bot.clientSecret);
    } finally {
      await servers.moveTo(servers.issuers[0]);
      await Promise.all([first.close(), second?.close()]);
    }
  }, 10000);

  it('with auth.issuer, refuses an authorization server the MCP server names before asking it anything', async () => {
    const named = servers.authorizationServers[0].stderr;
    const from = named.length;
    const pinned = connectBot(new FileTokenStore({ directory: tokenDirectory() }), { issuer: servers.issuers[1] });
    try {
      const failure = await failureOf(pinned);
      expect(failure).toBeInstanceOf(McpAuthError);
      expect(failure).toMatchObject({ step: 'resource-metadata', message: expect.stringContaining('auth.issuer') });
      expect(named.slice(from)).toEqual([]);
    } finally {
      await pinned.close();
    }
    const agreeing = connectBot(new FileTokenStore({ directory: tokenDirectory() }), { issuer: servers.issuers[0] });
    try {
      expect(await sum(agreeing, 4, 4)).toBe(8);
    } finally {
      await agreeing.close();
    }
  }, 10000);

  it('keeps the binding when a refused refresh token is dropped and signing in again does not finish', async () => {
    const { clientId } = await servers.preRegister(servers.issuers[0], {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const directory = tokenDirectory();
    const connectPerson = (hook: (url: URL) => Promise<string>) =>
      McpClient.connectHttp({
        url: servers.url,
        auth: { clientId, redirectUrl: REDIRECT, authorize: ({ url }: AuthorizeRequest) => hook(url), tokenStore: new FileTokenStore({ directory }) },
      });
    const first = connectPerson(headlessSignIn);
    try {
      expect(await sum(first, 1, 1)).toBe(2);
    } finally {
      await first.close();
    }
    const signedIn = await new FileTokenStore({ directory }).get(servers.url);
    expect(signedIn).toMatchObject({ issuer: servers.issuers[0], clientId, refreshToken: expect.any(String) });
    await servers.revokeAll(servers.issuers[0], clientId);
    await outlive(signedIn);

    // The refresh is refused and nobody is at the browser: the run ends without new tokens.
    const asked: URL[] = [];
    const nobody = (url: URL) => {
      asked.push(url);
      return Promise.reject(new Error('nobody is at the browser'));
    };
    const second = connectPerson(nobody);
    try {
      await expect(failureOf(second)).resolves.toMatchObject({ name: 'McpAuthError', step: 'authorize' });
    } finally {
      await second.close();
    }
    const kept = await new FileTokenStore({ directory }).get(servers.url);
    expect(kept).toMatchObject({ issuer: servers.issuers[0], clientId });
    expect(kept?.refreshToken).toBeUndefined();

    // The next run, after the MCP server moved: the kept issuer still binds the client id.
    await servers.moveTo(servers.issuers[1]);
    const from = servers.authorizationServers[1].stderr.length;
    const third = connectPerson(nobody);
    try {
      await expect(failureOf(third)).resolves.toMatchObject({ name: 'McpAuthError', step: 'resource-metadata' });
      expect(servers.authorizationServers[1].stderr.slice(from)).toEqual([]);
      expect(asked.map((url) => url.origin)).toEqual([servers.issuers[0]]);
    } finally {
      await servers.moveTo(servers.issuers[0]);
      await third.close();
    }
  }, 15000);
});
