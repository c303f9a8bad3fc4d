import { inspect } from 'node:util';
import { firstValueFrom, throwError } from 'rxjs';
import { McpAuthError, McpClient } from 'rxmcp';
import type { AuthOptions } from 'rxmcp';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';

// Enterprise-managed authorization and workload identity against a real
// authorization server that offers neither grant (oidc-provider has no
// token exchange and no JWT bearer grant): what a caller sees when the
// identity provider or the authorization server refuses. The successful
// flows run in the conformance suite (auth/enterprise-managed-authorization,
// auth/wif-jwt-bearer), whose servers implement both grants.

// JWT-shaped credentials the servers never accept: none may show in an error, a warning or a log line.
const ID_TOKEN = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"ada","aud":"idp-client"}').toString('base64url')}.aWQtdG9rZW4tc2lnbmF0dXJl`;
const WORKLOAD_JWT = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"workload"}').toString('base64url')}.d29ya2xvYWQtc2lnbmF0dXJl`;
const IDP_SECRET = 'idp-secret-never-shown';
const CLIENT_SECRET = 'client-secret-never-shown';

const seen = { warnings: [] as string[], errors: [] as unknown[] };

describe('assertion grants refused by a real authorization server', () => {
  let servers: OAuthServers;
  beforeAll(async () => {
    servers = await startOAuthServers();
  });
  afterAll(async () => {
    await servers?.stop();
  });

  /** Lists tools with `auth`, and answers with the error it fails with. */
  async function failure(auth: AuthOptions): Promise<McpAuthError> {
    const mcp = McpClient.connectHttp({ url: servers.url, auth, onWarn: (message) => seen.warnings.push(message) });
    try {
      await firstValueFrom(mcp.listTools());
    } catch (error) {
      seen.errors.push(error);
      expect(error).toBeInstanceOf(McpAuthError);
      return error as McpAuthError;
    } finally {
      await mcp.close();
    }
    throw new Error('the call did not fail');
  }

  const tokenLines = (from: number): string[] => servers.authorizationServer.stderr.slice(from).filter((line) => line.startsWith('token '));
  /**
   * The token lines logged since `from`, once `count` have come or `ms` have
   * passed: the server logs a request as it answers it, so its line may reach
   * this process after the answer reached the client.
   */
  async function tokenLinesAfter(from: number, count: number, ms: number): Promise<string[]> {
    const deadline = Date.now() + ms;
    while (tokenLines(from).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    return tokenLines(from);
  }

  it('surfaces a refused workload JWT at once: one JWT bearer request, no second try, no other grant', async () => {
    const from = servers.authorizationServer.stderr.length;
    const error = await failure({ workloadIdentity: { jwt: () => WORKLOAD_JWT } });
    expect(error.step).toBe('token');
    expect(error.oauthError).toEqual(expect.any(String));
    expect(error.message).toMatch(/the token endpoint http:\/\/127\.0\.0\.1:\d+\/token refused: HTTP 4\d\d/);
    // One line, and a while for a second try that must not come.
    expect(await tokenLinesAfter(from, 2, 2000)).toEqual([expect.stringMatching(/^token grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer .*status=4\d\d/)]);
  });

  it("names the workload JWT's source when it fails or gives something that is not a JWT, and sends nothing", async () => {
    const from = servers.authorizationServer.stderr.length;
    const thrown = await failure({ workloadIdentity: { jwt: () => throwError(() => new Error('the metadata service is down')) } });
    expect(thrown.step).toBe('assertion');
    expect(thrown.message).toBe('sign-in failed at assertion: auth.workloadIdentity.jwt failed: the metadata service is down');
    const opaque = await failure({ workloadIdentity: { jwt: async () => `${IDP_SECRET} plain text` } });
    expect(opaque.step).toBe('assertion');
    expect(opaque.message).toMatch(/gave a string that is not a compact JWT \(\d+ characters\)/);
    // Nothing may come: wait a while for a line that should not.
    expect(await tokenLinesAfter(from, 1, 1000)).toEqual([]);
  });

  it('names the token exchange when the identity provider refuses it, asked for the MCP server as the resource', async () => {
    const from = servers.authorizationServer.stderr.length;
    // The identity provider here is the same oidc-provider: it has no token exchange.
    const error = await failure({
      clientId: 'mcp-client',
      clientSecret: CLIENT_SECRET,
      enterprise: { tokenEndpoint: `${servers.issuer}/token`, clientId: 'idp-client', clientSecret: IDP_SECRET, idToken: ID_TOKEN },
    });
    expect(error.step).toBe('token-exchange');
    expect(error.oauthError).toEqual(expect.any(String));
    expect(error.message).toMatch(/the identity provider http:\/\/127\.0\.0\.1:\d+\/token refused the token exchange: HTTP 4\d\d/);
    expect(await tokenLinesAfter(from, 2, 2000)).toEqual([expect.stringMatching(new RegExp(`^token grant_type=urn:ietf:params:oauth:grant-type:token-exchange .*resource=${servers.url} .*status=4\\d\\d`))]);
  });

  it('names the ID token source when it gives nothing', async () => {
    const error = await failure({
      clientId: 'mcp-client',
      enterprise: { tokenEndpoint: `${servers.issuer}/token`, clientId: 'idp-client', idToken: () => Promise.resolve(undefined as unknown as string) },
    });
    expect(error.step).toBe('id-token');
    expect(error.message).toBe('sign-in failed at id-token: auth.enterprise.idToken gave no string but undefined');
  });

  it('never lets an ID token, workload JWT or secret into an error, a warning or a log line', () => {
    expect(seen.errors.length).toBeGreaterThanOrEqual(5);
    const outputs = [
      ...servers.authorizationServer.stderr,
      ...servers.protectedServer.stderr,
      ...seen.warnings,
      ...seen.errors.map((error) => inspect(error, { depth: 10 })),
    ].join('\n');
    for (const secret of [ID_TOKEN, WORKLOAD_JWT, IDP_SECRET, CLIENT_SECRET]) expect(outputs).not.toContain(secret);
  });
});
