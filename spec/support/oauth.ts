import { type RunningServer, startHttpServer } from './http-servers.js';

/** A real authorization server and the fixture MCP server it protects, both on 127.0.0.1. */
export interface OAuthServers {
  /** The authorization server's issuer, `http://127.0.0.1:PORT`. */
  issuer: string;
  /** The protected MCP server's canonical URL, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  authorizationServer: RunningServer;
  protectedServer: RunningServer;
  /** Revokes every grant (with its refresh tokens) of one client, or of every client. Issued JWT access tokens live on until they expire. */
  revokeAll(clientId?: string): Promise<number>;
  /** Stops both servers. */
  stop(): Promise<void>;
}

/**
 * Starts spec/fixtures/oauth/authorization-server.mjs, then
 * spec/fixtures/oauth/protected-server.mjs with its issuer. `accessTtl` is
 * the access token lifetime in seconds; `dpop` makes both take DPoP-bound
 * tokens only (`'nonce'`: and want a nonce of theirs in every proof).
 */
export async function startOAuthServers({ accessTtl, dpop }: { accessTtl?: number; dpop?: 'on' | 'nonce' } = {}): Promise<OAuthServers> {
  const dpopFlags = dpop === undefined ? [] : [dpop === 'nonce' ? '--dpop-nonce' : '--dpop'];
  const authorizationServer = await startHttpServer(
    'oauth/authorization-server.mjs',
    ...(accessTtl === undefined ? [] : ['--access-ttl', String(accessTtl)]),
    ...dpopFlags,
  );
  const issuer = new URL(authorizationServer.url).origin;
  let protectedServer: RunningServer;
  try {
    protectedServer = await startHttpServer('oauth/protected-server.mjs', ...dpopFlags, issuer);
  } catch (error) {
    await authorizationServer.stop();
    throw error;
  }
  return {
    issuer,
    url: protectedServer.url,
    authorizationServer,
    protectedServer,
    async revokeAll(clientId) {
      const response = await fetch(`${issuer}/test/revoke-all`, {
        method: 'POST',
        body: new URLSearchParams(clientId === undefined ? {} : { client_id: clientId }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error(`revoke-all answered ${response.status}`);
      return ((await response.json()) as { revoked: number }).revoked;
    },
    async stop() {
      await Promise.all([protectedServer.stop(), authorizationServer.stop()]);
    },
  };
}

/** Two real authorization servers and one MCP server that can be made to move from one to the other. */
export interface MovingServers {
  /** The two issuers; the MCP server names the first until `moveTo`. */
  issuers: [string, string];
  /** The protected MCP server's canonical URL. */
  url: string;
  authorizationServers: [RunningServer, RunningServer];
  protectedServer: RunningServer;
  /** Makes the MCP server name `issuer` as its authorization server from now on, and accept only its tokens. */
  moveTo(issuer: string): Promise<void>;
  /**
   * Registers a client at `issuer`, as an administrator does beforehand: by
   * default a confidential one for the client credentials grant; `metadata`
   * replaces that registration body.
   */
  preRegister(issuer: string, metadata?: Record<string, unknown>): Promise<{ clientId: string; clientSecret?: string }>;
  /** Revokes every grant of `clientId` at `issuer`, with its refresh tokens. */
  revokeAll(issuer: string, clientId: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts two copies of spec/fixtures/oauth/authorization-server.mjs (`accessTtl` as for `startOAuthServers`) and a protected server that knows both. */
export async function startMovingServers({ accessTtl }: { accessTtl?: number } = {}): Promise<MovingServers> {
  const options = accessTtl === undefined ? [] : ['--access-ttl', String(accessTtl)];
  const started = await Promise.allSettled([startHttpServer('oauth/authorization-server.mjs', ...options), startHttpServer('oauth/authorization-server.mjs', ...options)]);
  const servers = started.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
  const failed = started.find((start): start is PromiseRejectedResult => start.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  const authorizationServers = servers as [RunningServer, RunningServer];
  const issuers = authorizationServers.map((server) => new URL(server.url).origin) as [string, string];
  let protectedServer: RunningServer;
  try {
    protectedServer = await startHttpServer('oauth/protected-server.mjs', ...issuers);
  } catch (error) {
    await Promise.all(authorizationServers.map((server) => server.stop()));
    throw error;
  }
  return {
    issuers,
    url: protectedServer.url,
    authorizationServers,
    protectedServer,
    async moveTo(issuer) {
      const response = await fetch(new URL('/test/authorization-server', protectedServer.url), { method: 'POST', body: issuer, signal: AbortSignal.timeout(5000) });
      if (response.status !== 204) throw new Error(`moving to ${issuer} answered ${response.status}`);
    },
    async preRegister(issuer, registration) {
      const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`, { signal: AbortSignal.timeout(5000) })).json()) as { registration_endpoint: string };
      const response = await fetch(metadata.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registration ?? { grant_types: ['client_credentials'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_basic' }),
        signal: AbortSignal.timeout(5000),
      });
      const client = (await response.json()) as { client_id?: string; client_secret?: string };
      if (response.status !== 201 || !client.client_id) throw new Error(`registering a client answered ${response.status}`);
      return { clientId: client.client_id, ...(client.client_secret ? { clientSecret: client.client_secret } : {}) };
    },
    async revokeAll(issuer, clientId) {
      const response = await fetch(`${issuer}/test/revoke-all`, { method: 'POST', body: new URLSearchParams({ client_id: clientId }), signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`revoke-all answered ${response.status}`);
    },
    async stop() {
      await Promise.all([protectedServer.stop(), ...authorizationServers.map((server) => server.stop())]);
    },
  };
}

/**
 * Plays the person at the browser: opens the authorization URL, follows the
 * authorization server's redirects, submits each form it shows (signing in,
 * then allowing access) with the values already in it, carrying cookies by
 * hand, and resolves with the URL it finally redirects to: the client's
 * redirect URI with `code`, `state` and `iss` (or an `error`). That URL is
 * never opened. Each call is a fresh browser, with no cookies.
 */
export async function headlessSignIn(url: URL): Promise<string> {
  const cookies = new CookieJar();
  const redirectUri = url.searchParams.get('redirect_uri');
  const isRedirectBack = (target: URL): boolean =>
    target.origin !== url.origin || (redirectUri !== null && `${target.origin}${target.pathname}` === redirectUri.split(/[?#]/)[0]);
  let next: { url: URL; form?: URLSearchParams } = { url };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      headers: { cookie: cookies.header(next.url), ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: next.form,
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
    });
    cookies.store(next.url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const target = new URL(location, next.url);
      if (isRedirectBack(target)) return target.href;
      next = { url: target };
      continue;
    }
    const page = await response.text();
    const form = response.ok ? firstForm(page) : undefined;
    if (form === undefined) throw new Error(`signing in stopped at ${response.status} ${next.url.pathname}: ${textOf(page).slice(0, 300)}`);
    next = { url: new URL(form.action, next.url), form: form.fields };
  }
  throw new Error('signing in went round more than 20 pages');
}

/** What a page says, without its markup, styles or scripts. */
function textOf(html: string): string {
  return html
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first POST form on a page: where it goes and the values already in its inputs. */
function firstForm(html: string): { action: string; fields: URLSearchParams } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const attributes = attributesOf(form[1] ?? '');
  if ((attributes.get('method') ?? 'get').toLowerCase() !== 'post') return undefined;
  const fields = new URLSearchParams();
  for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
    const field = attributesOf(input[1] ?? '');
    const name = field.get('name');
    if (name !== undefined && !['submit', 'button', 'image'].includes(field.get('type') ?? 'text')) fields.append(name, field.get('value') ?? '');
  }
  return { action: attributes.get('action') ?? '', fields };
}

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, quoted, single, bare] of tag.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attributes.set(name!.toLowerCase(), decodeEntities(quoted ?? single ?? bare ?? ''));
  }
  return attributes;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (entity, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return named[body.toLowerCase()] ?? entity;
  });
}

/** Host-only cookies with paths and expiry: enough of a browser for one authorization server. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(from: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributeParts] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals < 1) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const attributes = new Map(
        attributeParts.map((part) => {
          const at = part.indexOf('=');
          return at === -1 ? [part.trim().toLowerCase(), ''] : [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()];
        }),
      );
      const path = attributes.get('path')?.startsWith('/') ? attributes.get('path')! : from.pathname.replace(/\/[^/]*$/, '') || '/';
      const maxAge = attributes.get('max-age');
      const expires = attributes.get('expires');
      const expired = maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) <= Date.now();
      const key = `${name};${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }

  header(to: URL): string {
    return [...this.cookies.values()]
      .filter(({ path }) => to.pathname === path || to.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }
}
