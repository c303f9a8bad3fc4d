import { ClientIdentities } from '../../auth/client-identity.js';
import { discover } from '../../auth/discovery.js';
import { OAuthHttp } from '../../auth/oauth-http.js';
import { OAuthReach } from '../../auth/oauth-reach.js';
import type { FetchLike } from '../../http/fetch-like.js';

/** The page's client at the authorization server of one MCP server. */
export interface InspectClient {
  /** The authorization server the client is registered at (the page binds its sign-in to it). */
  issuer: string;
  clientId: string;
  /** Only when the authorization server made a confidential client of it. */
  clientSecret?: string;
}

/** How long one registration may take in all: discovery, then registering. */
const REGISTRATION_TIMEOUT_MS = 15_000;

/**
 * Registers the inspector's page as an OAuth client (RFC 7591) at the
 * authorization server `serverUrl` names, with `redirectUrl` (the
 * inspector's own redirect page) as its one redirect URI.
 *
 * From Node, on the page's behalf: most authorization servers let a page's
 * script call their metadata and token endpoints (CORS) but not their
 * registration endpoint, which a web app's developer is expected to call
 * beforehand. rxmcp's own discovery and registration do it, under the same
 * rules as a client's sign-in: the well-known metadata locations, endpoints
 * https or on this machine, each where the MCP server's own network zone
 * allows (`OAuthReach`), no redirects followed, answers bounded.
 *
 * @throws McpAuthError (as a rejection) when discovery or registration fails.
 */
export async function registerInspectClient(serverUrl: URL, redirectUrl: string): Promise<InspectClient> {
  const http = new OAuthHttp(async () => fetch as unknown as FetchLike, new OAuthReach(serverUrl, false));
  const signal = AbortSignal.timeout(REGISTRATION_TIMEOUT_MS);
  const { metadata } = await discover(http, serverUrl, undefined, (named) => named[0] as string, signal);
  const identity = await new ClientIdentities({ clientMetadata: { client_name: 'rxmcp inspect' } }, redirectUrl).identify(http, metadata, signal);
  return { issuer: metadata.issuer, clientId: identity.clientId, ...(identity.clientSecret === undefined ? {} : { clientSecret: identity.clientSecret }) };
}
