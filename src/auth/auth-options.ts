import type { Observable } from 'rxjs';
import { keysOf } from '../util/option-keys.js';

/** The tokens rxmcp keeps for one server, as a `TokenStore` holds them. */
export interface StoredTokens {
  /** The bearer token sent to the MCP server. */
  accessToken: string;
  /** The token that gets a new access token without asking a person again. */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt?: number;
  /** The scopes the token was granted (space-separated), as the authorization server said or as requested. */
  scope?: string;
  /**
   * The authorization server that issued the tokens (its `issuer`). It also
   * binds a pre-registered `auth.clientId` equal to `clientId`: while these
   * tokens are kept, that client is used with this issuer and no other.
   */
  issuer: string;
  /** The client identity the tokens were issued to; a refresh needs it. */
  clientId: string;
  /**
   * The client secret a dynamic registration handed out, if any: a refresh
   * needs it, and no one else has it. A caller's own `auth.clientSecret` is
   * never kept here; the caller gives it again each run.
   */
  clientSecret?: string;
  /**
   * Set when the tokens are DPoP-bound (RFC 9449): the thumbprint of the key
   * they are bound to, and the key pair itself where the store can hold a
   * `CryptoKey` (the memory store can; a file cannot, so tokens read back
   * from one, bound to a key that is gone, mean a fresh sign-in).
   */
  dpop?: { thumbprint: string; keyPair?: CryptoKeyPair };
}

/**
 * A token the caller supplies: the token itself, an Observable of it, or a
 * function answering with a fresh one (a value, a Promise or an
 * Observable's first value). A function is called each time a token is
 * needed, so a short-lived one is read anew.
 */
export type TokenSource = string | Observable<string> | (() => string | PromiseLike<string> | Observable<string>);

/**
 * Enterprise-managed authorization (SEP-990): the person has signed in to
 * their enterprise's identity provider, and its ID token is exchanged there
 * (RFC 8693) for an identity assertion grant (ID-JAG) meant for the MCP
 * server's authorization server, which takes it in the JWT bearer grant
 * (RFC 7523). `auth.clientId` (with its secret or key) is the client
 * registered at the MCP server's authorization server; the fields here are
 * about the identity provider.
 */
export interface EnterpriseAuth {
  /** The identity provider's token endpoint, where the token exchange goes (https, or http on this machine). */
  tokenEndpoint: string;
  /** This client's id at the identity provider. */
  clientId: string;
  /** This client's secret at the identity provider, for a confidential client (sent with HTTP Basic). */
  clientSecret?: string;
  /** The person's OpenID Connect ID token from the identity provider, or where to get a fresh one. */
  idToken: TokenSource;
}

/**
 * Workload identity (SEP-1933): a service with no person and no secret signs
 * in with the JWT its platform issues it (a cloud's or a CI system's
 * identity token), as the assertion of the JWT bearer grant (RFC 7523).
 */
export interface WorkloadIdentityAuth {
  /** The workload's JWT, or where to get a fresh one (a function is called again for every new token). */
  jwt: TokenSource;
}

/**
 * Where tokens live between calls and between runs, keyed by the MCP
 * server's canonical URI. Each method may answer synchronously or with a
 * Promise. rxmcp keeps them in memory when no store is given; `rxmcp/node`
 * has a file store.
 */
export interface TokenStore {
  get(key: string): StoredTokens | undefined | Promise<StoredTokens | undefined>;
  set(key: string, tokens: StoredTokens): void | Promise<void>;
  clear(key: string): void | Promise<void>;
}

/**
 * A sign-in under way: what the client needs to finish it once the person
 * is back. Only a hook that leaves the page (a full-page redirect, as
 * `rxmcp/browser`'s `redirectSignIn`) needs it: it keeps it until the page
 * loads again and answers with it then. It holds the PKCE verifier (and a
 * registration's secret): keep it where only this app can read it, and
 * never log it.
 */
export interface PendingSignIn {
  /** The authorization server's issuer. */
  issuer: string;
  /** The client the sign-in was begun as. */
  clientId: string;
  /** The secret a dynamic registration handed out to that client, if any (never the caller's own). */
  clientSecret?: string;
  /** The redirect URL the authorization request named. */
  redirectUrl: string;
  /** The resource (the MCP server's canonical URI) the tokens are for. */
  resource: string;
  /** The `state` the authorization request carried. */
  state: string;
  /** The PKCE code verifier. */
  codeVerifier: string;
}

/** What the `authorize` hook is asked: the authorization URL to send a person to. */
export interface AuthorizeRequest {
  url: URL;
  /** This sign-in's own details, for a hook that must leave the page and finish it later (see `ResumedSignIn`). */
  pending: PendingSignIn;
}

/**
 * An answer that finishes a sign-in begun before the page was left: the
 * redirect URL the person came back with, and the `PendingSignIn` kept when
 * it began. The client finishes that sign-in instead of the one it asked
 * for, once it has checked that it was begun with the same authorization
 * server, redirect URL and resource.
 */
export interface ResumedSignIn {
  redirect: string | URL;
  pending: PendingSignIn;
}

/** The redirect URL the authorization server sent the person back to, in any of the forms a hook may answer. */
export type AuthorizeAnswer = string | URL | ResumedSignIn;

/** The OAuth private key for `private_key_jwt` client authentication. */
export interface PrivateKeyJwt {
  /** A PEM (PKCS#8) string or a private JWK object. */
  privateKey: string | Record<string, unknown>;
  /** The signing algorithm, such as `ES256` or `RS256`. */
  alg: string;
}

/**
 * How to sign in to an OAuth-protected server. Give what you have; rxmcp
 * works out the rest from the server's metadata.
 */
export interface AuthOptions {
  /** A client registered with the authorization server beforehand. */
  clientId?: string;
  /** The secret of that client, for a confidential client. */
  clientSecret?: string;
  /** An https URL of a Client ID Metadata Document, used as the client_id where the authorization server supports it. */
  clientMetadataUrl?: string;
  /** The body of a Dynamic Client Registration, used when neither a client id nor a usable metadata URL applies. */
  clientMetadata?: Record<string, unknown>;
  /** Where the authorization server sends the person back to (default `http://127.0.0.1/callback`). */
  redirectUrl?: string;
  /** The scopes to ask for, overriding the server's challenge and metadata (space-separated). */
  scope?: string;
  /** `authorization_code` (a person signs in; default) or `client_credentials` (the client signs in as itself). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A key for `private_key_jwt` client authentication (client credentials). */
  privateKeyJwt?: PrivateKeyJwt;
  /** Where tokens are kept (default: in memory, for this client only). */
  tokenStore?: TokenStore;
  /**
   * The issuer of the one authorization server to sign in with, exactly as
   * its metadata spells it. Any other that the MCP server names is refused
   * with `McpAuthError` before a request goes to it. Without it, pre-registered
   * credentials are bound to the first issuer they are used with.
   */
  issuer?: string;
  /**
   * Lets discovery, registration and token requests reach private addresses
   * (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, `.internal` names, …)
   * when the MCP server is not in a private network itself (default false).
   * Loopback and link-local addresses stay refused unless the MCP server is there.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Sends a person to `request.url` and answers with the URL the
   * authorization server redirected back to (a value, a Promise or an
   * Observable's first value). Required for the authorization code grant.
   */
  authorize?: (request: AuthorizeRequest) => AuthorizeAnswer | PromiseLike<AuthorizeAnswer> | Observable<AuthorizeAnswer>;
  /** Signs in through the enterprise's identity provider (SEP-990); needs `auth.clientId`. No other grant beside it. */
  enterprise?: EnterpriseAuth;
  /** Signs in as a workload with its platform-issued JWT (SEP-1933). No other grant beside it. */
  workloadIdentity?: WorkloadIdentityAuth;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449): `true` for a fresh ES256 key
   * pair that cannot be exported, or a Web Crypto key pair of your own
   * (ECDSA, Ed25519 or RSA). Every token request and every request to the
   * MCP server carries a fresh proof signed with it; tokens are sent as
   * `Authorization: DPoP …` (default false: bearer tokens).
   */
  dpop?: boolean | CryptoKeyPair;
}

/** Where signing in stands, as the client's hot `auth$` reports it. */
export type AuthState =
  | { state: 'signing-in'; url: URL }
  | { state: 'signed-in' }
  | { state: 'refreshing' }
  | { state: 'failed'; error: Error };

/** The option names `auth` understands. */
export const AUTH_OPTION_KEYS = keysOf<AuthOptions>({
  clientId: true,
  clientSecret: true,
  clientMetadataUrl: true,
  clientMetadata: true,
  redirectUrl: true,
  scope: true,
  grant: true,
  privateKeyJwt: true,
  tokenStore: true,
  issuer: true,
  allowPrivateNetwork: true,
  authorize: true,
  enterprise: true,
  workloadIdentity: true,
  dpop: true,
});
