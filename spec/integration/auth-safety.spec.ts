import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpHttpError, type StoredTokens, type TokenStore } from '../../src/index.js';

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
