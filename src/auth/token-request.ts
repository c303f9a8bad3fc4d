import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import type { StoredTokens } from './auth-options.js';
import { signClientAssertion } from './client-assertion.js';
import type { ClientIdentity } from './client-identity.js';
import type { ServerMetadata } from './discovery.js';
import { oauthRefusal, type OAuthHttp, secureUrl } from './oauth-http.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * Asks the token endpoint for tokens with one grant's parameters, the client
 * authenticated as its identity says, and turns the answer into what the
 * token store keeps.
 *
 * @throws McpAuthError with the server's OAuth error code when it refuses,
 *   or when the answer holds no bearer token.
 */
export async function requestTokens(
  http: OAuthHttp,
  metadata: ServerMetadata,
  identity: ClientIdentity,
  grant: Record<string, string>,
  step: AuthStep,
  signal: AbortSignal,
): Promise<StoredTokens> {
  const endpoint = secureUrl(metadata.token_endpoint, step, 'the token endpoint');
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = {};
  switch (identity.authMethod) {
    case 'client_secret_basic':
      // RFC 6749 §2.3.1: both parts form-encoded before the Base64.
      headers.Authorization = `Basic ${btoa(`${formEncode(identity.clientId)}:${formEncode(identity.clientSecret ?? '')}`)}`;
      break;
    case 'client_secret_post':
      body.set('client_id', identity.clientId);
      body.set('client_secret', identity.clientSecret ?? '');
      break;
    case 'private_key_jwt':
      // RFC 7523 §3: the assertion's subject names the client; no client_id beside it.
      body.set('client_assertion_type', JWT_BEARER);
      body.set('client_assertion', await signClientAssertion(identity.privateKeyJwt!, identity.clientId, metadata.issuer));
      break;
    case 'none':
      body.set('client_id', identity.clientId);
  }
  const reply = await http.post(endpoint, body, headers, step, signal);
  const answer = reply.body;
  if (reply.status !== 200 || typeof answer?.access_token !== 'string') {
    const refusal = oauthRefusal(reply);
    throw new McpAuthError(step, `the token endpoint ${endpoint.origin}${endpoint.pathname} refused: ${refusal.text}`, { oauthError: refusal.code });
  }
  if (typeof answer.token_type === 'string' && answer.token_type.toLowerCase() !== 'bearer') {
    throw new McpAuthError(step, `the token endpoint issued a ${JSON.stringify(answer.token_type)} token; rxmcp sends bearer tokens only`);
  }
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : Number(answer.expires_in);
  return {
    accessToken: answer.access_token,
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : grant.scope ? { scope: grant.scope } : {}),
    issuer: metadata.issuer,
    clientId: identity.clientId,
    // A registration's secret is kept for refreshing in a later run; the caller's own never reaches the store.
    ...(identity.source === 'registration' && identity.clientSecret !== undefined ? { clientSecret: identity.clientSecret } : {}),
  };
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}
