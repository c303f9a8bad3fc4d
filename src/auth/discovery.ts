import { McpAuthError } from '../errors/auth-errors.js';
import { isObject, isStrings } from '../util/values.js';
import { type OAuthHttp, secureUrl } from './oauth-http.js';
import { quote } from '../util/quote.js';

/** RFC 9728 Protected Resource Metadata, the fields rxmcp reads. */
export interface ResourceMetadata {
  resource?: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
}

/** RFC 8414 / OpenID Connect discovery metadata, the fields rxmcp reads. */
export interface ServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  dpop_signing_alg_values_supported?: string[];
}

/** Everything discovery found out about where and how to sign in for one server. */
export interface Discovery {
  /** The `resource` to ask tokens for (RFC 8707): the metadata's, or the server's canonical URI. */
  resource: string;
  /** The protected resource's metadata; undefined for a 2025-03-26 server that publishes none. */
  resourceMetadata: ResourceMetadata | undefined;
  metadata: ServerMetadata;
  /**
   * True when the endpoints are the 2025-03-26 defaults (`/authorize`,
   * `/token`, `/register` at the server's origin), guessed because no
   * metadata was published at all.
   */
  guessed: boolean;
}

/**
 * The canonical URI of an MCP server (RFC 8707 §2): scheme and host in lower
 * case, no user info, no fragment, no trailing slash unless the path is the
 * root. It keys the token store and is the `resource` when the server names
 * none: user info (a password for the server) would put the password in the
 * token file, and in the authorization URL the person's browser keeps in its
 * history.
 */
export function canonicalUri(url: string | URL): string {
  const parsed = new URL(String(url));
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  const text = parsed.href;
  return parsed.pathname === '/' && !parsed.search ? text.replace(/\/$/, '') : text.replace(/\/(\?|$)/, '$1');
}

/**
 * Picks the authorization server to use among those a resource names, or
 * refuses them all, before any of them is asked anything.
 */
export type IssuerChoice = (named: readonly string[]) => string;

/**
 * Finds the protected resource's metadata (the challenge's
 * `resource_metadata` first, then the well-known locations in the spec's
 * order), then its authorization server's metadata. A server without any
 * metadata is taken as a 2025-03-26 one: its origin is its authorization
 * server. `choose` picks the authorization server before its metadata is
 * requested.
 *
 * @throws McpAuthError when metadata names another resource, an issuer does
 *   not match, `choose` refuses, or an endpoint is neither https nor on this machine.
 */
export async function discover(http: OAuthHttp, serverUrl: URL, challengeUrl: string | undefined, choose: IssuerChoice, signal: AbortSignal): Promise<Discovery> {
  const resourceMetadata = await findResourceMetadata(http, serverUrl, challengeUrl, signal);
  if (!resourceMetadata) {
    const issuer = choose([serverUrl.origin]);
    const found = await findServerMetadata(http, issuer, signal);
    return { resource: canonicalUri(serverUrl), resourceMetadata, metadata: found ?? defaultEndpoints(issuer), guessed: !found };
  }
  const resource = checkResource(resourceMetadata, serverUrl);
  const listed: unknown = resourceMetadata.authorization_servers;
  const named = Array.isArray(listed) ? listed.filter((candidate): candidate is string => typeof candidate === 'string') : [];
  if (named.length === 0) throw new McpAuthError('resource-metadata', `the metadata of ${serverUrl.origin}${serverUrl.pathname} names no authorization server`);
  const issuer = choose(named);
  const metadata = await findServerMetadata(http, issuer, signal);
  if (!metadata) throw new McpAuthError('server-metadata', `${quote(issuer)} publishes no OAuth or OpenID metadata`);
  return { resource, resourceMetadata, metadata, guessed: false };
}

/** The well-known locations of a resource's metadata: under its path, then at the root (RFC 9728 §3.1). */
export function resourceMetadataUrls(serverUrl: URL): URL[] {
  const path = serverUrl.pathname.replace(/\/$/, '');
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl);
  return path ? [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl), root] : [root];
}

/** The well-known locations of an authorization server's metadata, in the order the spec gives. */
export function serverMetadataUrls(issuer: string): URL[] {
  const url = secureUrl(issuer, 'server-metadata', 'the authorization server');
  const path = url.pathname.replace(/\/$/, '');
  if (!path) return [new URL('/.well-known/oauth-authorization-server', url), new URL('/.well-known/openid-configuration', url)];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url),
    new URL(`/.well-known/openid-configuration${path}`, url),
    new URL(`${path}/.well-known/openid-configuration`, url),
  ];
}

async function findResourceMetadata(http: OAuthHttp, serverUrl: URL, challengeUrl: string | undefined, signal: AbortSignal): Promise<ResourceMetadata | undefined> {
  const candidates = resourceMetadataUrls(serverUrl);
  if (challengeUrl) candidates.unshift(secureUrl(challengeUrl, 'resource-metadata', 'the resource_metadata URL'));
  for (const url of candidates) {
    const reply = await http.get(url, 'resource-metadata', signal);
    if (reply.status === 200 && reply.body) return reply.body as ResourceMetadata;
  }
  return undefined;
}

async function findServerMetadata(http: OAuthHttp, issuer: string, signal: AbortSignal): Promise<ServerMetadata | undefined> {
  for (const url of serverMetadataUrls(issuer)) {
    const reply = await http.get(url, 'server-metadata', signal);
    if (reply.status !== 200 || !reply.body) continue;
    // RFC 8414 §3.3: a document for another issuer is not to be used at all.
    if (reply.body.issuer !== issuer) {
      throw new McpAuthError('server-metadata', `${quote(url.href)} describes issuer ${quote(reply.body.issuer)}, not ${quote(issuer)}`);
    }
    return checkServerMetadata(reply.body);
  }
  return undefined;
}

function checkServerMetadata(body: Record<string, unknown>): ServerMetadata {
  if (typeof body.token_endpoint !== 'string') throw new McpAuthError('server-metadata', `the metadata of ${quote(body.issuer)} has no token_endpoint`);
  for (const name of ['scopes_supported', 'code_challenge_methods_supported', 'token_endpoint_auth_methods_supported', 'dpop_signing_alg_values_supported']) {
    if (body[name] !== undefined && !isStrings(body[name])) throw new McpAuthError('server-metadata', `${name} in the metadata of ${quote(body.issuer)} is not a list of strings`);
  }
  return body as unknown as ServerMetadata;
}

// RFC 9728 §3.3 wants the resource to be the server itself; MCP lets it be
// the origin or a path above the endpoint, never another origin or a sibling.
function checkResource(metadata: ResourceMetadata, serverUrl: URL): string {
  if (!isObject(metadata) || metadata.resource === undefined) return canonicalUri(serverUrl);
  let resource: URL;
  try {
    if (typeof metadata.resource !== 'string') throw new TypeError('not a string');
    resource = new URL(metadata.resource);
  } catch {
    throw new McpAuthError('resource-metadata', `the resource ${quote(metadata.resource)} is not a URL`);
  }
  const above = resource.pathname.replace(/\/$/, '');
  const within = serverUrl.pathname === above || serverUrl.pathname.startsWith(`${above}/`);
  if (resource.origin !== serverUrl.origin || !within) {
    throw new McpAuthError('resource-metadata', `the metadata is for ${quote(metadata.resource)}, not for ${quote(canonicalUri(serverUrl))}`);
  }
  return String(metadata.resource);
}

function defaultEndpoints(issuer: string): ServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
  };
}
