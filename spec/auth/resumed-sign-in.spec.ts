import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from 'rxmcp';
import type { AuthorizeAnswer, AuthorizeRequest, PendingSignIn } from 'rxmcp';
import { headlessSignIn, type OAuthServers, startOAuthServers } from '../support/oauth.js';
import { eventually } from '../support/servers.js';

// A sign-in begun by one client and finished by another, as a web page that
// leaves for the authorization server and loads again does it: the first
// client's authorize hook keeps what it is handed and never answers; the
// second client's hook answers with the redirect URL and what was kept.
// Against the real authorization server (oidc-provider, open registration).

const REDIRECT = 'http://127.0.0.1/callback';

function connect(servers: OAuthServers, authorize: (request: AuthorizeRequest) => Promise<AuthorizeAnswer>, clientId?: string): McpClient {
  return McpClient.connectHttp({
    url: servers.url,
    auth: {
      ...(clientId ? { clientId } : { clientMetadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' } }),
      redirectUrl: REDIRECT,
      authorize,
    },
  });
}

/** Begins a sign-in with a first client, which leaves: answers the authorization URL and what its hook was handed. */
async function begin(servers: OAuthServers): Promise<{ url: URL; pending: PendingSignIn }> {
  let handed: AuthorizeRequest | undefined;
  const first = connect(servers, (request) => {
    handed = request;
    return new Promise<never>(() => undefined);
  });
  const call = firstValueFrom(first.listTools()).catch(() => undefined);
  const deadline = Date.now() + 10000;
  while (handed === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await first.close();
  await call;
  if (handed === undefined) throw new Error('the first client never asked a person to sign in');
  return handed;
}

describe('finishing a sign-in begun before the page was left', () => {
  let servers: OAuthServers;
  beforeAll(async () => {
    servers = await startOAuthServers();
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it('hands the hook the sign-in under way: issuer, client, redirect URL, resource, state, verifier', async () => {
    const { url, pending } = await begin(servers);
    expect(pending).toEqual({
      issuer: servers.issuer,
      clientId: url.searchParams.get('client_id'),
      redirectUrl: REDIRECT,
      resource: servers.url,
      state: url.searchParams.get('state'),
      codeVerifier: expect.stringMatching(/^[\w-]{43}$/),
    });
  });

  it('finishes the kept sign-in in a second client, as the client it was begun as, and makes the call', async () => {
    const { url, pending } = await begin(servers);
    const back = await headlessSignIn(url);
    const asked: URL[] = [];
    const tokenLines = () => servers.authorizationServer.stderr.filter((line) => line.startsWith('token grant_type=authorization_code'));
    const before = tokenLines().length;
    const second = connect(servers, async (request) => {
      asked.push(request.url);
      return { redirect: back, pending };
    });
    try {
      const tools = await firstValueFrom(second.listTools());
      expect(tools.map((tool) => tool.name)).toContain('add');
      // The second client registered anew, and still finished as the first.
      expect(asked[0]?.searchParams.get('client_id')).not.toBe(pending.clientId);
      // The server's stderr comes down its own pipe and can trail its answers.
      await eventually(() => tokenLines().length > before);
      const tokenLine = tokenLines().at(-1);
      expect(tokenLine).toContain(`client=${pending.clientId} `);
      expect(tokenLine).toContain('status=200');
    } finally {
      await second.close();
    }
  });

  it('refuses an answer whose state is not the kept sign-in\'s, before the code goes anywhere', async () => {
    const { url, pending } = await begin(servers);
    const back = new URL(await headlessSignIn(url));
    back.searchParams.set('state', 'forged');
    const tokenRequests = servers.authorizationServer.stderr.filter((line) => line.startsWith('token ')).length;
    const second = connect(servers, async () => ({ redirect: back, pending }));
    try {
      const error = await firstValueFrom(second.listTools()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpAuthError);
      expect((error as McpAuthError).step).toBe('callback');
      expect((error as Error).message).toContain('does not carry the state');
      expect(servers.authorizationServer.stderr.filter((line) => line.startsWith('token ')).length).toBe(tokenRequests);
    } finally {
      await second.close();
    }
  });

  it('refuses a kept sign-in begun for another resource, authorization server or redirect URL, or that is not one at all', async () => {
    const { url, pending } = await begin(servers);
    const back = await headlessSignIn(url);
    const cases: Array<[unknown, string]> = [
      [{ ...pending, resource: 'http://127.0.0.1:1/other' }, 'begun for resource "http://127.0.0.1:1/other"'],
      // Begun with another authorization server: its code and verifier never go to this one's token endpoint.
      [{ ...pending, issuer: 'http://127.0.0.1:1' }, 'begun for issuer "http://127.0.0.1:1"'],
      [{ ...pending, redirectUrl: 'http://127.0.0.1/elsewhere' }, 'begun for redirectUrl'],
      [{ ...pending, codeVerifier: 42 }, 'not one rxmcp began'],
      ['not an object', 'not one rxmcp began'],
    ];
    for (const [kept, message] of cases) {
      const second = connect(servers, async () => ({ redirect: back, pending: kept as PendingSignIn }));
      try {
        const error = await firstValueFrom(second.listTools()).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(McpAuthError);
        expect((error as McpAuthError).step).toBe('callback');
        expect((error as Error).message).toContain(message);
        expect((error as Error).message).not.toContain(pending.codeVerifier);
      } finally {
        await second.close();
      }
    }
  });

  it('refuses to finish as another client than the caller\'s own client id', async () => {
    const { url, pending } = await begin(servers);
    const back = await headlessSignIn(url);
    const second = connect(servers, async () => ({ redirect: back, pending }), 'my-own-client');
    try {
      const error = await firstValueFrom(second.listTools()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpAuthError);
      expect((error as Error).message).toContain('begun as another client than "my-own-client"');
    } finally {
      await second.close();
    }
  });
});
