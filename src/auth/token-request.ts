import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import type { StoredTokens } from './auth-options.js';
import { signClientAssertion } from './client-assertion.js';
import type { ClientIdentity } from './client-identity.js';
import type { DpopBinding } from './dpop-binding.js';
import type { ServerMetadata } from './discovery.js';
import { oauthRefusal, type OAuthHttp, type OAuthReply, secureUrl } from './oauth-http.js';

const JWT_BEARER_CLIENT = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/**
 * An access token as it can travel in an `Authorization` header: printable
 * ASCII (RFC 6749 §A.12 without the space), and no longer than a header
 * servers take. Anything else would fail in fetch, whose message quotes the
 * whole header, token and all.
 */
const ACCESS_TOKEN = /^[\x21-\x7E]{1,65536}$/;
/** The longest an access token is taken to live: a larger `expires_in` (even one past what a number holds) counts as this. */
const MAX_LIFETIME_S = 365 * 24 * 3600;
/** The parameters of a token request whose values are secrets. */
const SECRET_PARAMS = ['assertion', 'subject_token', 'refresh_token', 'code', 'code_verifier'];

/** What a token request sends that a refusal must never quote back: see `oauthRefusal`. */
export function secretsOf(params: Record<string, string>, identity: ClientIdentity): (string | undefined)[] {
  return [...SECRET_PARAMS.map((name) => params[name]), identity.clientSecret];
}

/** Where a token request goes, and how. */
export interface TokenEndpoint {
  url: URL;
  /** The audience of a `private_key_jwt` client assertion: the authorization server's issuer. */
  issuer: string;
  /** When set, each request carries a fresh DPoP proof, and a `use_dpop_nonce` refusal is retried once with the server's nonce. */
  dpop?: DpopBinding;
  /** The URL comes from the caller's options, not from a server (see `OAuthHttp.post`). */
  callerChosen?: boolean;
}

/**
 * POSTs one token request, the client authenticated as its identity says,
 * and answers with what the endpoint said, refusal or not.
 */
export async function postTokenRequest(
  http: OAuthHttp,
  endpoint: TokenEndpoint,
  identity: ClientIdentity,
  params: Record<string, string>,
  step: AuthStep,
  signal: AbortSignal,
): Promise<OAuthReply> {
  const { url, dpop } = endpoint;
  const attempt = async (): Promise<OAuthReply> => {
    const body = new URLSearchParams(params);
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
        body.set('client_assertion_type', JWT_BEARER_CLIENT);
        body.set('client_assertion', await signClientAssertion(identity.privateKeyJwt!, identity.clientId, endpoint.issuer));
        break;
      case 'none':
        // A workload with no client id of its own is known by its JWT alone.
        if (identity.clientId !== '') body.set('client_id', identity.clientId);
    }
    if (dpop) headers.DPoP = await dpop.proof('POST', url, step);
    return http.post(url, body, headers, step, signal, endpoint.callerChosen === true);
  };
  const reply = await attempt();
  if (!dpop) return reply;
  const fresh = dpop.remember(url, reply.dpopNonce);
  // RFC 9449 §8: the server wants a nonce in the proof; once, with the one it sent.
  if (reply.status === 400 && reply.body?.error === 'use_dpop_nonce' && fresh) {
    const again = await attempt();
    dpop.remember(url, again.dpopNonce);
    return again;
  }
  return reply;
}

/**
 * Asks the authorization server's token endpoint for tokens with one grant's
 * parameters, and turns the answer into what the token store keeps.
 *
 * @throws McpAuthError with the server's OAuth error code when it refuses,
 *   when the answer holds no access token, or when its type is not the one
 *   this client sends (bearer, or DPoP when `dpop` is given).
 */
export async function requestTokens(
  http: OAuthHttp,
  metadata: ServerMetadata,
  identity: ClientIdentity,
  grant: Record<string, string>,
  step: AuthStep,
  signal: AbortSignal,
  dpop?: DpopBinding,
): Promise<StoredTokens> {
  const url = secureUrl(metadata.token_endpoint, step, 'the token endpoint');
  const algs = metadata.dpop_signing_alg_values_supported;
  const alg = dpop ? (await dpop.keyFor(undefined)).alg : undefined;
  if (alg !== undefined && algs !== undefined && !algs.includes(alg)) {
    throw new McpAuthError('server-metadata', `${JSON.stringify(metadata.issuer)} takes DPoP proofs signed with ${JSON.stringify(algs.slice(0, 10))}, not with ${alg}, the algorithm of auth.dpop's key`);
  }
  const reply = await postTokenRequest(http, { url, issuer: metadata.issuer, ...(dpop ? { dpop } : {}) }, identity, grant, step, signal);
  const answer = reply.body;
  if (reply.status !== 200 || typeof answer?.access_token !== 'string') {
    const refusal = oauthRefusal(reply, secretsOf(grant, identity));
    throw new McpAuthError(step, `the token endpoint ${url.origin}${url.pathname} refused: ${refusal.text}`, { oauthError: refusal.code });
  }
  if (!ACCESS_TOKEN.test(answer.access_token)) {
    throw new McpAuthError(step, `the token endpoint ${url.origin}${url.pathname} issued an access token that cannot be sent in a header (${answer.access_token.length} characters, not all printable ASCII or too many)`);
  }
  const type = typeof answer.token_type === 'string' ? answer.token_type.slice(0, 40) : 'Bearer';
  if (dpop && type.toLowerCase() !== 'dpop') {
    // A bearer token would undo what auth.dpop asked for: anyone holding it could use it.
    throw new McpAuthError(step, `auth.dpop is on, but the token endpoint issued a ${JSON.stringify(type)} token, not a DPoP-bound one`);
  }
  if (!dpop && type.toLowerCase() !== 'bearer') {
    const hint = type.toLowerCase() === 'dpop' ? ': a DPoP-bound token needs auth.dpop' : '; rxmcp sends bearer tokens, or DPoP ones with auth.dpop';
    throw new McpAuthError(step, `the token endpoint issued a ${JSON.stringify(type)} token${hint}`);
  }
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : Number(answer.expires_in);
  const key = dpop ? await dpop.keyFor(undefined) : undefined;
  return {
    accessToken: answer.access_token,
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: Date.now() + Math.min(expiresIn, MAX_LIFETIME_S) * 1000 } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : grant.scope ? { scope: grant.scope } : {}),
    issuer: metadata.issuer,
    clientId: identity.clientId,
    // A registration's secret is kept for refreshing in a later run; the caller's own never reaches the store.
    ...(identity.source === 'registration' && identity.clientSecret !== undefined ? { clientSecret: identity.clientSecret } : {}),
    ...(key ? { dpop: { thumbprint: key.thumbprint, keyPair: key.keyPair } } : {}),
  };
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}
