import { AuthorizedFetch } from '../../src/auth/authorized-fetch.js';
import type { AuthOptions, AuthState } from '../../src/auth/auth-options.js';
import type { FetchLike, FetchResponse } from '../../src/http/fetch-like.js';
import { McpAuthError } from '../../src/index.js';

const MCP = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): FetchResponse =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }) as unknown as FetchResponse;

const refusal = (): FetchResponse => json(401, { error: 'unauthorized' }, { 'www-authenticate': `Bearer resource_metadata="${METADATA}"` });

// The authorization server, answered here: its metadata, and a token
// endpoint that hands out token-1, token-2, … for the client credentials grant.
function authorizationServer(): { fetch: () => Promise<FetchLike>; tokens: () => number } {
  let issued = 0;
  const fetch: FetchLike = async (url) => {
    if (url === METADATA) return json(200, { resource: MCP, authorization_servers: [ISSUER] });
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`) {
      return json(200, { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, token_endpoint_auth_methods_supported: ['client_secret_basic'] });
    }
    if (url === `${ISSUER}/token`) return json(200, { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 });
    return json(404, {});
  };
  return { fetch: async () => fetch, tokens: () => issued };
}

const AUTH: AuthOptions = { grant: 'client_credentials', clientId: 'robot', clientSecret: 'robot-secret' };

interface Sent {
  url: string;
  init: Record<string, unknown>;
}

function wrap(answer: (sent: Sent, index: number) => FetchResponse, options: { where?: (url: string) => string } = {}) {
  const sent: Sent[] = [];
  const server = authorizationServer();
  const inner: FetchLike = async (url, init) => {
    sent.push({ url, init });
    return answer({ url, init }, sent.length - 1);
  };
  const authorized = new AuthorizedFetch(inner, { auth: AUTH, serverUrl: new URL(MCP), signInFetch: server.fetch, ...options });
  return { authorized, sent, server };
}

describe('a fetch that signs in', () => {
  it('signs in on a 401 and sends the same request again, body and all, with the token and no redirects', async () => {
    const { authorized, sent } = wrap((_request, index) => (index === 0 ? refusal() : json(200, { ok: true })));
    const states: AuthState[] = [];
    authorized.state$.subscribe((state) => states.push(state));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const response = await authorized.fetch(MCP, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, redirect: 'follow', timeoutMs: 1234 });

    expect(response.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.init).toEqual({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body, redirect: 'follow', timeoutMs: 1234 });
    // The retry is the request as it was, with the credentials; a token goes only to the URL it was issued for.
    expect(sent[1]?.url).toBe(MCP);
    expect(sent[1]?.init).toEqual({ method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer token-1' }, body, redirect: 'error', timeoutMs: 1234 });
    expect(states).toEqual([{ state: 'signed-in' }]);
    authorized.close();
  });

  it('lets a DELETE through as it was answered: ending a session is no reason to sign in', async () => {
    const { authorized, sent, server } = wrap(() => refusal());
    const response = await authorized.fetch(MCP, { method: 'DELETE', headers: {} });
    expect(response.status).toBe(401);
    expect(sent).toHaveLength(1);
    expect(server.tokens()).toBe(0);
  });

  it('gives up once the server still refuses after three sign-ins', async () => {
    const { authorized, sent, server } = wrap(() => refusal());
    const failure = authorized.fetch(MCP, { method: 'POST', headers: {}, body: '{}' });
    await expect(failure).rejects.toThrow(McpAuthError);
    await expect(failure).rejects.toThrow(/still refuses the request \(HTTP 401\) after signing in/);
    expect(sent).toHaveLength(4);
    expect(server.tokens()).toBe(3);
  });

  it('sends each try where `where` says', async () => {
    const moved = 'https://mcp.example.com/mcp/';
    const { authorized, sent } = wrap((_request, index) => (index === 0 ? refusal() : json(200, {})), { where: () => moved });
    await authorized.fetch(MCP, { method: 'GET', headers: {} });
    expect(sent.map((request) => request.url)).toEqual([moved, moved]);
  });

  it('ends the sign-in with the request: an aborted signal fails it with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('the call was cancelled');
    const { authorized } = wrap(() => {
      controller.abort(reason);
      return refusal();
    });
    await expect(authorized.fetch(MCP, { method: 'POST', headers: {}, body: '{}', signal: controller.signal })).rejects.toBe(reason);
  });
});
