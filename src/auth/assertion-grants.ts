import { McpAuthError } from '../errors/auth-errors.js';
import type { EnterpriseAuth, StoredTokens, WorkloadIdentityAuth } from './auth-options.js';
import type { ClientIdentity } from './client-identity.js';
import type { Discovery } from './discovery.js';
import type { DpopBinding } from './dpop-binding.js';
import { oauthRefusal, type OAuthHttp, secureUrl } from './oauth-http.js';
import { readTokenSource } from './token-source.js';
import { postTokenRequest, requestTokens, secretsOf } from './token-request.js';

/** RFC 7523 §2.1: the grant whose credential is a JWT. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** What one assertion grant needs besides the caller's options. */
export interface AssertionGrantContext {
  http: OAuthHttp;
  discovery: Discovery;
  /** The client at the MCP server's authorization server. */
  identity: ClientIdentity;
  scope: string | undefined;
  dpop: DpopBinding | undefined;
  signal: AbortSignal;
}

/**
 * Enterprise-managed authorization (SEP-990): the caller's ID token is
 * exchanged at the identity provider for an ID-JAG whose audience is the
 * MCP server's authorization server and whose resource is the MCP server
 * (RFC 8693), and the ID-JAG is the assertion of the JWT bearer grant there
 * (RFC 7523). Run again in full whenever a new token is needed.
 *
 * @throws McpAuthError at `id-token` (the caller's source), `token-exchange`
 *   (the identity provider) or `token` (the authorization server).
 */
export async function enterpriseGrant(enterprise: EnterpriseAuth, context: AssertionGrantContext): Promise<StoredTokens> {
  const { http, discovery, scope, signal } = context;
  const idToken = await readTokenSource(enterprise.idToken, 'id-token', 'auth.enterprise.idToken', signal);
  const url = secureUrl(enterprise.tokenEndpoint, 'token-exchange', 'auth.enterprise.tokenEndpoint');
  const idpClient: ClientIdentity = {
    clientId: enterprise.clientId,
    clientSecret: enterprise.clientSecret,
    authMethod: enterprise.clientSecret === undefined ? 'none' : 'client_secret_basic',
    source: 'caller',
  };
  const exchange = {
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TYPE,
    audience: discovery.metadata.issuer,
    resource: discovery.resource,
    ...(scope ? { scope } : {}),
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
  };
  const reply = await postTokenRequest(http, { url, issuer: url.origin, callerChosen: true }, idpClient, exchange, 'token-exchange', signal);
  const answer = reply.body;
  if (reply.status !== 200 || typeof answer?.access_token !== 'string') {
    const refusal = oauthRefusal(reply, secretsOf(exchange, idpClient));
    throw new McpAuthError('token-exchange', `the identity provider ${url.origin}${url.pathname} refused the token exchange: ${refusal.text}`, { oauthError: refusal.code });
  }
  if (answer.issued_token_type !== ID_JAG_TYPE) {
    const issued = typeof answer.issued_token_type === 'string' ? JSON.stringify(answer.issued_token_type.slice(0, 100)) : 'no issued_token_type';
    throw new McpAuthError('token-exchange', `the identity provider issued ${issued}, not an ID-JAG (${ID_JAG_TYPE})`);
  }
  return jwtBearerGrant(answer.access_token, context);
}

/**
 * Workload identity (SEP-1933): the workload's JWT as the assertion of the
 * JWT bearer grant. A refusal is final: no second try, no other grant.
 *
 * @throws McpAuthError at `assertion` (the caller's source) or `token`, with
 *   the server's code (`invalid_grant`, `invalid_scope`, `unauthorized_client`…).
 */
export async function workloadGrant(workload: WorkloadIdentityAuth, context: AssertionGrantContext): Promise<StoredTokens> {
  const jwt = await readTokenSource(workload.jwt, 'assertion', 'auth.workloadIdentity.jwt', context.signal);
  return jwtBearerGrant(jwt, context);
}

function jwtBearerGrant(assertion: string, context: AssertionGrantContext): Promise<StoredTokens> {
  const { http, discovery, identity, scope, dpop, signal } = context;
  const grant = { grant_type: JWT_BEARER_GRANT, assertion, resource: discovery.resource, ...(scope ? { scope } : {}) };
  return requestTokens(http, discovery.metadata, identity, grant, 'token', signal, dpop);
}
