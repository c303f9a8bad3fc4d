import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { isObject } from '../util/values.js';
import { AUTH_OPTION_KEYS, type AuthOptions } from './auth-options.js';
import { zoneOf } from './network-zone.js';
import { isSecureUrl } from './oauth-http.js';

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

function parse(value: string, name: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new McpClientError(`option auth.${name} must be a URL; got ${JSON.stringify(value)}`);
  }
}
