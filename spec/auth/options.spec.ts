import { McpAuthError, McpClient, McpClientError } from '../../src/index.js';

const connect = (auth: unknown, extra: Record<string, unknown> = {}) => () =>
  McpClient.connectHttp({ url: 'https://mcp.example.com/mcp', auth: auth as never, ...extra });

describe('the auth option', () => {
  it('accepts a complete configuration without sending anything', () => {
    const store = { get: () => undefined, set: () => undefined, clear: () => undefined };
    const mcp = connect({
      clientId: 'id',
      clientSecret: 'secret',
      redirectUrl: 'http://127.0.0.1:8765/callback',
      scope: 'read',
      issuer: 'https://auth.example.com',
      allowPrivateNetwork: true,
      tokenStore: store,
      authorize: () => 'http://127.0.0.1:8765/callback?code=x',
    })();
    expect(mcp).toBeInstanceOf(McpClient);
  });

  it.each([
    [{ clientID: 'typo' }, /unknown option: clientID/],
    [{ grant: 'password' }, /auth.grant must be/],
    [{ grant: 'client_credentials' }, /needs auth.clientId/],
    [{ authorize: 'https://example.com' }, /auth.authorize must be a function/],
    [{ tokenStore: { get: () => undefined } }, /get, set and clear/],
    [{ clientMetadataUrl: 'http://app.example.com/client.json' }, /https URL with a path/],
    [{ clientMetadataUrl: 'https://app.example.com' }, /https URL with a path/],
    [{ redirectUrl: 'http://app.example.com/callback' }, /redirectUrl must be https/],
    [{ privateKeyJwt: { privateKey: 'pem' } }, /privateKeyJwt must be/],
    [{ clientId: 7 }, /auth.clientId must be a string/],
    [{ issuer: 7 }, /auth.issuer must be a string/],
    [{ issuer: 'http://auth.example.com' }, /auth.issuer must be an https URL/],
    [{ issuer: 'https://auth.example.com/?tenant=1' }, /auth.issuer must be an https URL without query or fragment/],
    [{ allowPrivateNetwork: 'yes' }, /auth.allowPrivateNetwork must be a boolean/],
    ['yes', /auth must be an object/],
  ])('refuses %j at once', (auth, message) => {
    expect(connect(auth)).toThrow(McpClientError);
    expect(connect(auth)).toThrow(message);
  });

  it('refuses an Authorization header beside it', () => {
    expect(connect({}, { headers: { authorization: 'Bearer x' } })).toThrow(/either option auth or an Authorization header/);
  });

  it('refuses to send tokens in the clear to another machine, but not to this one', () => {
    const plain = () => McpClient.connectHttp({ url: 'http://mcp.example.com/mcp', auth: {} });
    expect(plain).toThrow(McpAuthError);
    expect(plain).toThrow(/neither https nor on this machine/);
    expect(McpClient.connectHttp({ url: 'http://localhost:3000/mcp', auth: {} })).toBeInstanceOf(McpClient);
  });
});
