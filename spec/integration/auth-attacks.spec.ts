import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from 'rxmcp';
import type { AuthOptions } from 'rxmcp';
import { type MovingServers, startMovingServers } from '../support/oauth.js';

// Attacks on the assertion grants and DPoP from a hostile MCP server or
// authorization server, and what the client must not do about them.

const WORKLOAD_JWT = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"workload","aud":"first-as"}').toString('base64url')}.d29ya2xvYWQtc2lnbmF0dXJl`;

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

