import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { AUTH_OPTION_KEYS, type AuthOptions, type EnterpriseAuth, type WorkloadIdentityAuth } from './auth-options.js';
import { dpopKeyProblem } from './dpop-key.js';
import { zoneOf } from './network-zone.js';
import { isSecureUrl } from './oauth-http.js';
import { isTokenSource } from './token-source.js';

const ENTERPRISE_KEYS = keysOf<EnterpriseAuth>({ tokenEndpoint: true, clientId: true, clientSecret: true, idToken: true });
const WORKLOAD_KEYS = keysOf<WorkloadIdentityAuth>({ jwt: true });

/**
 * Checks the `auth` option when the transport is made, so a mistake shows at
 * once rather than at the first 401.
 *
 * @throws McpClientError for an unknown or ill-typed option;
 *   McpAuthError for a server URL a token must not travel to.
 */
export function checkAuthOptions(auth: AuthOptions, serverUrl: URL, headers: Readonly<Record<string, string>> | undefined): void {
  if (!isObject(auth as unknown)) throw new McpClientError('option auth must be an object');
  refuseUnknown(auth, AUTH_OPTION_KEYS);
  for (const name of ['clientId', 'clientSecret', 'clientMetadataUrl', 'redirectUrl', 'scope', 'issuer'] as const) {
    if (auth[name] !== undefined && typeof auth[name] !== 'string') throw new McpClientError(`option auth.${name} must be a string`);
  }
  if (auth.grant !== undefined && auth.grant !== 'authorization_code' && auth.grant !== 'client_credentials') {
    throw new McpClientError(`option auth.grant must be 'authorization_code' or 'client_credentials'; got ${JSON.stringify(auth.grant)}`);
  }
  if (auth.grant === 'client_credentials' && auth.clientId === undefined) throw new McpClientError('option auth.grant client_credentials needs auth.clientId');
  if (auth.allowPrivateNetwork !== undefined && typeof auth.allowPrivateNetwork !== 'boolean') throw new McpClientError('option auth.allowPrivateNetwork must be a boolean');
  if (auth.authorize !== undefined && typeof auth.authorize !== 'function') throw new McpClientError('option auth.authorize must be a function');
  if (auth.clientMetadata !== undefined && !isObject(auth.clientMetadata)) throw new McpClientError('option auth.clientMetadata must be an object');
  const store = auth.tokenStore;
  if (store !== undefined && !(isObject(store) && ['get', 'set', 'clear'].every((name) => typeof (store as unknown as Record<string, unknown>)[name] === 'function'))) {
    throw new McpClientError('option auth.tokenStore must have get, set and clear methods');
  }
  const key = auth.privateKeyJwt;
  if (key !== undefined && !(isObject(key) && typeof key.alg === 'string' && (typeof key.privateKey === 'string' || isObject(key.privateKey)))) {
    throw new McpClientError('option auth.privateKeyJwt must be { privateKey: PEM string or JWK, alg }');
  }
  checkGrants(auth);
  if (auth.dpop !== undefined && typeof auth.dpop !== 'boolean') {
    const problem = dpopKeyProblem(auth.dpop);
    if (problem) throw new McpClientError(`option auth.dpop ${problem}`);
  }
  if (auth.clientMetadataUrl !== undefined) {
    const url = parse(auth.clientMetadataUrl, 'clientMetadataUrl');
    // draft-ietf-oauth-client-id-metadata-document: an https URL with a path.
    if (url.protocol !== 'https:' || url.pathname === '/') throw new McpClientError('option auth.clientMetadataUrl must be an https URL with a path');
  }
  if (auth.redirectUrl !== undefined) {
    const url = parse(auth.redirectUrl, 'redirectUrl');
    if (url.protocol === 'http:' && zoneOf(url) !== 'this-machine') throw new McpClientError('option auth.redirectUrl must be https, or http on this machine (localhost, 127.0.0.1)');
  }
  if (auth.issuer !== undefined) {
    const url = parse(auth.issuer, 'issuer');
    // RFC 8414 §2: an issuer is an https URL without query or fragment (http only on this machine, as for every OAuth endpoint).
    if (!isSecureUrl(url) || /[?#]/.test(auth.issuer)) {
      throw new McpClientError(`option auth.issuer must be an https URL without query or fragment; got ${JSON.stringify(auth.issuer)}`);
    }
  }
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization')) {
    throw new McpClientError('give either option auth or an Authorization header, not both');
  }
  if (!isSecureUrl(serverUrl)) throw new McpAuthError('request', `a token must not travel in the clear: ${JSON.stringify(serverUrl.origin)} is neither https nor on this machine`);
}

// One grant at a time: a refusal of one must never turn into an attempt at another.
function checkGrants(auth: AuthOptions): void {
  const grants = [
    auth.grant !== undefined ? `auth.grant ${JSON.stringify(auth.grant)}` : undefined,
    auth.enterprise !== undefined ? 'auth.enterprise' : undefined,
    auth.workloadIdentity !== undefined ? 'auth.workloadIdentity' : undefined,
  ].filter((grant) => grant !== undefined);
  if (grants.length > 1) throw new McpClientError(`give one way to sign in, not ${grants.join(' and ')}`);
  const { enterprise, workloadIdentity } = auth;
  if (enterprise !== undefined) {
    if (!isObject(enterprise)) throw new McpClientError('option auth.enterprise must be an object');
    refuseUnknown(enterprise, ENTERPRISE_KEYS);
    if (typeof enterprise.clientId !== 'string' || enterprise.clientId === '') throw new McpClientError('option auth.enterprise.clientId must be a non-empty string (the client at the identity provider)');
    if (enterprise.clientSecret !== undefined && typeof enterprise.clientSecret !== 'string') throw new McpClientError('option auth.enterprise.clientSecret must be a string');
    if (!isTokenSource(enterprise.idToken)) throw new McpClientError('option auth.enterprise.idToken must be a string, a function or an Observable');
    const endpoint = parse(String(enterprise.tokenEndpoint), 'enterprise.tokenEndpoint');
    if (!isSecureUrl(endpoint)) throw new McpClientError(`option auth.enterprise.tokenEndpoint must be https (or http on this machine); got ${JSON.stringify(endpoint.origin)}`);
    // fetch refuses such a URL with a message that quotes it, password and all.
    if (endpoint.username !== '' || endpoint.password !== '') throw new McpClientError('option auth.enterprise.tokenEndpoint must not hold a user name or password (give auth.enterprise.clientSecret)');
    if (auth.clientId === undefined) throw new McpClientError('option auth.enterprise needs auth.clientId: the client registered at the MCP server\'s authorization server');
  }
  if (workloadIdentity !== undefined) {
    if (!isObject(workloadIdentity)) throw new McpClientError('option auth.workloadIdentity must be an object');
    refuseUnknown(workloadIdentity, WORKLOAD_KEYS);
    if (!isTokenSource(workloadIdentity.jwt)) throw new McpClientError('option auth.workloadIdentity.jwt must be a string, a function or an Observable');
  }
  if ((enterprise !== undefined || workloadIdentity !== undefined) && auth.authorize !== undefined) {
    throw new McpClientError(`option auth.authorize is for a person's sign-in; ${enterprise !== undefined ? 'auth.enterprise' : 'auth.workloadIdentity'} signs in without one`);
  }
}

function parse(value: string, name: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new McpClientError(`option auth.${name} must be a URL; got ${JSON.stringify(value)}`);
  }
}
