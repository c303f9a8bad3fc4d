import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from 'rxmcp';
import type { AuthOptions } from 'rxmcp';
import { type MovingServers, startMovingServers } from '../support/oauth.js';

// Attacks on the assertion grants and DPoP from a hostile MCP server or
// authorization server, and what the client must not do about them.

const WORKLOAD_JWT = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"workload","aud":"first-as"}').toString('base64url')}.d29ya2xvYWQtc2lnbmF0dXJl`;

async function failure(url: string, auth: AuthOptions): Promise<McpAuthError> {
  const mcp = McpClient.connectHttp({ url, era: 'modern', auth });
  try {
    await firstValueFrom(mcp.listTools());
  } catch (error) {
    expect(error).toBeInstanceOf(McpAuthError);
    return error as McpAuthError;
  } finally {
    await mcp.close();
  }
  throw new Error('the call did not fail');
}

// A workload's JWT is a credential for one authorization server (its
// audience): a server that names another must not get it, with or
// without auth.clientId, as a pre-registered client's secret would not.
describe('a workload JWT and an MCP server that moves to another authorization server', () => {
  let servers: MovingServers;
  beforeAll(async () => {
    servers = await startMovingServers();
  });
  afterAll(async () => {
    await servers?.stop();
  });

  const tokenLines = (index: 0 | 1): string[] => servers.authorizationServers[index].stderr.filter((line) => line.startsWith('token '));

  it('sends the JWT only to the authorization server it was first used with, even without auth.clientId', async () => {
    const auth: AuthOptions = { workloadIdentity: { jwt: () => WORKLOAD_JWT } };
    const mcp = McpClient.connectHttp({ url: servers.url, era: 'modern', auth });
    try {
      const first = await firstValueFrom(mcp.listTools()).then(() => undefined, (error: unknown) => error);
      expect((first as McpAuthError).step).toBe('token');
      expect(tokenLines(0)).toHaveLength(1);
      await servers.moveTo(servers.issuers[1]);
      const second = await firstValueFrom(mcp.listTools()).then(() => undefined, (error: unknown) => error);
      expect(second).toBeInstanceOf(McpAuthError);
      expect((second as McpAuthError).step).toBe('resource-metadata');
      expect(tokenLines(1)).toEqual([]);
    } finally {
      await mcp.close();
      await servers.moveTo(servers.issuers[0]);
    }
  });
});

// An authorization server whose access token cannot be a header value: fetch
// would refuse it with a message quoting the whole header, token and all.
describe('an access token that is not a header value', () => {
  let server: Server;
  let accessToken = '';
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
        if (request.url === '/token') return json(200, { access_token: accessToken, token_type: request.headers.dpop ? 'DPoP' : 'Bearer', expires_in: 60 });
        mcpRequests.push(request.headers);
        return json(401, { error: 'unauthorized' }, { 'WWW-Authenticate': 'Bearer' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['a line break', 'secret-access-token-91f\r\nX-Injected: 1', false],
    ['a line break, with DPoP', 'secret-access-token-91f\nX-Injected: 1', true],
    ['a control character', 'secret-access-token-91f\u0000', false],
    ['a megabyte of text', `secret-access-token-91f${'x'.repeat(1000 * 1000)}`, true],
  ])('is refused at the token step when it holds %s, and neither sent nor quoted', async (_name, token, dpop) => {
    accessToken = token;
    mcpRequests.length = 0;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const error = await failure(url, { grant: 'client_credentials', clientId: 'bot', clientSecret: 'bot-secret', ...(dpop ? { dpop: true } : {}) });
    expect(error.step).toBe('token');
    expect(error.message).toMatch(/access token/);
    expect(`${String(error)} ${inspect(error, { depth: 5 })}`).not.toContain('secret-access-token-91f');
    expect(mcpRequests.some((headers) => headers.authorization !== undefined)).toBe(false);
  });
});
