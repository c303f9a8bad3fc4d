import type { FetchLike, FetchResponse } from '../../src/http/fetch-like.js';
import { HttpWire } from '../../src/transport/http-wire.js';

const MCP = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): FetchResponse =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }) as unknown as FetchResponse;

// An MCP server that moved to /mcp/ (a framework's trailing slash) and wants a
// token there, with its authorization server, answered here.
function movedServer(seen: string[]): FetchLike {
  return async (url, init) => {
    const authorization = (init.headers as Record<string, string> | undefined)?.Authorization;
    seen.push(`${String(init.method)} ${url} ${authorization ?? '-'} ${String(init.body ?? '')}`);
    if (url === METADATA) return json(200, { resource: MCP, authorization_servers: [ISSUER] });
    if (url === `${ISSUER}/.well-known/oauth-authorization-server`) {
      return json(200, { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, token_endpoint_auth_methods_supported: ['client_secret_basic'] });
    }
    if (url === `${ISSUER}/token`) return json(200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    if (url === MCP) return new Response(null, { status: 307, headers: { location: '/mcp/' } }) as unknown as FetchResponse;
    if (url === `${MCP}/`) {
      if (authorization === 'Bearer tok') return json(200, { jsonrpc: '2.0', id: 1, result: {} });
      return json(401, {}, { 'www-authenticate': `Bearer resource_metadata="${METADATA}"` });
    }
    return json(404, {});
  };
}

describe('the HTTP wire signing in', () => {
  it('sends the retry with a token to where a redirect before signing in moved the endpoint, with the same body', async () => {
    const seen: string[] = [];
    const wire = new HttpWire({ url: MCP, fetch: movedServer(seen), auth: { grant: 'client_credentials', clientId: 'c', clientSecret: 's' } });
    try {
      const response = await wire.fetch({ method: 'POST', headers: {}, body: '{"id":1}' }, new AbortController().signal);
      expect(response.status).toBe(200);
      expect(wire.url).toBe(`${MCP}/`);
      const toServer = seen.filter((line) => line.includes('mcp.example.com/mcp'));
      expect(toServer).toEqual([`POST ${MCP} - {"id":1}`, `POST ${MCP}/ - {"id":1}`, `POST ${MCP}/ Bearer tok {"id":1}`]);
    } finally {
      wire.close();
    }
  });
});
