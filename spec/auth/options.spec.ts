import { McpAuthError, McpClient, McpClientError } from '../../src/index.js';

const connect = (auth: unknown, extra: Record<string, unknown> = {}) => () =>
  McpClient.connectHttp({ url: 'https://mcp.example.com/mcp', auth: auth as never, ...extra });

const idp = { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-client', idToken: 'a.b.c' };

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
    [{ grant: 'client_credentials', clientId: 'id', workloadIdentity: { jwt: 'a.b.c' } }, /one way to sign in, not auth.grant "client_credentials" and auth.workloadIdentity/],
    [{ clientId: 'id', enterprise: idp, workloadIdentity: { jwt: 'a.b.c' } }, /one way to sign in, not auth.enterprise and auth.workloadIdentity/],
    [{ grant: 'authorization_code', clientId: 'id', enterprise: idp }, /one way to sign in/],
    [{ enterprise: idp }, /auth.enterprise needs auth.clientId/],
    [{ clientId: 'id', enterprise: { ...idp, tokenEndpiont: 'x' } }, /unknown option: tokenEndpiont/],
    [{ clientId: 'id', enterprise: { ...idp, tokenEndpoint: 'http://idp.example.com/token' } }, /auth.enterprise.tokenEndpoint must be https/],
    [{ clientId: 'id', enterprise: { ...idp, tokenEndpoint: 'https://sso:idp-pass@idp.example.com/token' } }, /auth.enterprise.tokenEndpoint must not hold a user name or password \(give auth.enterprise.clientSecret\)$/],
    [{ clientId: 'id', enterprise: { ...idp, idToken: 42 } }, /auth.enterprise.idToken must be a string, a function or an Observable/],
    [{ clientId: 'id', enterprise: { ...idp, clientId: '' } }, /auth.enterprise.clientId must be a non-empty string/],
    [{ clientId: 'id', enterprise: idp, authorize: () => 'x' }, /auth.authorize is for a person's sign-in/],
    [{ workloadIdentity: 'a.b.c' }, /auth.workloadIdentity must be an object/],
    [{ workloadIdentity: { token: 'a.b.c' } }, /unknown option: token/],
    [{ workloadIdentity: { jwt: undefined } }, /auth.workloadIdentity.jwt must be/],
    [{ dpop: 'yes' }, /auth.dpop must be true or a Web Crypto key pair/],
    [{ dpop: { privateKey: 'pem', publicKey: 'pem' } }, /auth.dpop must be true or a Web Crypto key pair/],
  ])('refuses %j at once', (auth, message) => {
    expect(connect(auth)).toThrow(McpClientError);
    expect(connect(auth)).toThrow(message);
  });

  it('accepts each new way to sign in, and DPoP with a key pair of its own, without sending anything', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    expect(connect({ clientId: 'id', clientSecret: 's', enterprise: { ...idp, clientSecret: 'idp-secret', idToken: () => 'a.b.c' }, dpop: true })()).toBeInstanceOf(McpClient);
    expect(connect({ workloadIdentity: { jwt: () => Promise.resolve('a.b.c') }, dpop: pair })()).toBeInstanceOf(McpClient);
    expect(connect({ dpop: false })()).toBeInstanceOf(McpClient);
  });

  it('refuses a DPoP key pair whose algorithm cannot sign proofs, naming it', async () => {
    // Shaped as Web Crypto describes an Ed448 pair (a real one would print Node's experimental-feature warning).
    const ed448 = (type: string) => ({ type, algorithm: { name: 'Ed448' }, usages: [type === 'private' ? 'sign' : 'verify'], extractable: false });
    const pair = { privateKey: ed448('private'), publicKey: ed448('public') } as unknown as CryptoKeyPair;
    expect(connect({ dpop: pair })).toThrow(McpClientError);
    expect(connect({ dpop: pair })).toThrow(/auth.dpop has a "Ed448" key; DPoP needs ECDSA/);
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
