import { defer, Observable, share, Subject } from 'rxjs';
import { McpAuthError } from '../errors/auth-errors.js';
import type { FetchLike } from '../http/fetch-like.js';
import { observableOf } from '../util/observable-of.js';
import { isObject, messageOf } from '../util/values.js';
import { enterpriseGrant, workloadGrant } from './assertion-grants.js';
import type { AuthOptions, AuthState, PendingSignIn, StoredTokens, TokenStore, WorkloadIdentityAuth } from './auth-options.js';
import { chooseAuthMethod, ClientIdentities, type ClientIdentity } from './client-identity.js';
import { canonicalUri, type Discovery, discover } from './discovery.js';
import { DpopBinding } from './dpop-binding.js';
import { MemoryTokenStore } from './memory-token-store.js';
import { OAuthHttp, secureUrl } from './oauth-http.js';
import { OAuthReach } from './oauth-reach.js';
import { makePkce, randomToken } from './pkce.js';
import { checkResumed } from './resumed-sign-in.js';
import { requestTokens } from './token-request.js';
import { waitFor } from './wait-for.js';
import { type BearerChallenge, parseChallenge } from './www-authenticate.js';
import { quote } from '../util/quote.js';

/** What the MCP server said when it refused a request. */
export interface Refusal {
  status: 401 | 403;
  challenge: BearerChallenge;
  /** The access token the refused request carried, if any. */
  sentToken: string | undefined;
}

const DEFAULT_REDIRECT = 'http://127.0.0.1/callback';
/** A token this close to its expiry is renewed before it is sent: about one request's latency. */
const EXPIRY_MARGIN_MS = 1000;

/**
 * Signs in to one MCP server and keeps its tokens, for the HTTP transport:
 * it hands out the access token for each request, and when the server
 * refuses one it works out why and what to do (refresh, sign in, step up
 * the scopes), as the MCP authorization spec lays out. Concurrent refusals
 * share one renewal; if every request waiting for it goes away, it is
 * abandoned, and with it any person's sign-in in progress.
 */
export class OAuthSession {
  private readonly states = new Subject<AuthState>();
  private readonly store: TokenStore;
  private readonly http: OAuthHttp;
  private readonly reach: OAuthReach;
  private readonly identities: ClientIdentities;
  private readonly redirectUrl: string;
  private readonly key: string;
  private readonly dpop: DpopBinding | undefined;
  private current: Promise<StoredTokens | undefined> | undefined;
  private discovery: Discovery | undefined;
  private renewal: Observable<void> | undefined;
  /** The scopes asked for last, kept for the union a step-up needs. */
  private requestedScope: string | undefined;

  /** Hot: where signing in stands. */
  readonly state$: Observable<AuthState> = this.states.asObservable();

  constructor(
    private readonly options: AuthOptions,
    private readonly serverUrl: URL,
    fetchImpl: () => Promise<FetchLike>,
  ) {
    this.store = options.tokenStore ?? new MemoryTokenStore();
    this.reach = new OAuthReach(serverUrl, options.allowPrivateNetwork === true);
    this.http = new OAuthHttp(fetchImpl, this.reach);
    this.redirectUrl = options.redirectUrl ?? DEFAULT_REDIRECT;
    this.identities = new ClientIdentities(options, this.redirectUrl);
    this.key = canonicalUri(serverUrl);
    this.dpop = options.dpop ? new DpopBinding(options.dpop) : undefined;
  }

  /**
   * What one request to the MCP server carries: the access token (undefined
   * before the first sign-in) in an `Authorization` header, as a bearer
   * token or, with DPoP, beside a fresh proof for `method` and `url`.
   */
  async credentials(method: string, url: string, signal: AbortSignal, renew = true): Promise<{ token: string | undefined; headers: Record<string, string> }> {
    const token = await this.accessToken(signal, renew);
    if (token === undefined) return { token, headers: {} };
    if (!this.dpop) return { token, headers: { Authorization: `Bearer ${token}` } };
    return { token, headers: { Authorization: `DPoP ${token}`, DPoP: await this.dpop.proof(method, url, 'request', token) } };
  }

  /** The challenge of a refusal's `WWW-Authenticate`, in the scheme this client sends tokens with (DPoP first, when on). */
  challengeOf(header: string | null): BearerChallenge {
    return parseChallenge(header, this.dpop ? ['dpop', 'bearer'] : ['bearer']);
  }

  /**
   * Keeps the nonce the MCP server sent in `DPoP-Nonce` for the next proofs
   * to it (RFC 9449 §9). True when it sent a usable one and DPoP is on.
   */
  rememberNonce(url: string, header: string | null): boolean {
    return this.dpop?.remember(url, header) ?? false;
  }

  /**
   * The access token to send (undefined before the first sign-in), renewed
   * first when `renew` allows, it is known to have expired, and a refresh
   * token or the client credentials grant can renew it.
   */
  private async accessToken(signal: AbortSignal, renew: boolean): Promise<string | undefined> {
    const tokens = await this.usableTokens();
    const expired = tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now();
    if (renew && expired && this.discovery && this.canRenewQuietly(tokens)) {
      await this.answer({ status: 401, challenge: {}, sentToken: tokens.accessToken }, signal);
      return (await this.usableTokens())?.accessToken;
    }
    return tokens?.accessToken;
  }

  /**
   * Acts on a refusal: resolves once there is a token worth retrying the
   * request with.
   *
   * @throws McpAuthError when signing in fails or would not help.
   */
  async answer(refusal: Refusal, signal: AbortSignal): Promise<void> {
    if (!this.renewal) {
      const tokens = await this.usableTokens();
      // Someone else renewed the token since this request was sent: just retry.
      if (tokens && tokens.accessToken !== refusal.sentToken) return;
      if (!this.renewal) this.renewal = this.renew(refusal);
    }
    return waitFor(this.renewal, signal, () => new McpAuthError('authorize', 'the sign-in finished without an answer'));
  }

  close(): void {
    this.states.complete();
  }

  private renew(refusal: Refusal): Observable<void> {
    return new Observable<void>((subscriber) => {
      const controller = new AbortController();
      let settled = false;
      this.renewWith(refusal, controller.signal).then(
        () => {
          settled = true;
          this.states.next({ state: 'signed-in' });
          subscriber.next();
          subscriber.complete();
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          settled = true;
          this.states.next({ state: 'failed', error: error as Error });
          subscriber.error(error);
        },
      );
      return () => {
        this.renewal = undefined;
        if (settled) return;
        // Nobody waits any more (share's count fell to zero): give up now,
        // and say so at once, so call budgets run again.
        const abandoned = new McpAuthError('authorize', 'the sign-in was abandoned: no call waits for it any more');
        this.states.next({ state: 'failed', error: abandoned });
        controller.abort(abandoned);
      };
    }).pipe(share());
  }

  private async renewWith(refusal: Refusal, signal: AbortSignal): Promise<void> {
    // The record binds a pre-registered client to its issuer even when its tokens cannot be sent.
    const record = await this.tokens();
    const stored = await this.usableTokens();
    const choose = (named: readonly string[]): string => this.identities.chooseIssuer(named, record);
    const discovery = await discover(this.http, this.serverUrl, refusal.challenge.resourceMetadata, choose, signal);
    this.discovery = discovery;
    const stepUp = refusal.status === 403;
    if (stepUp && stored && covers(union(this.requestedScope, stored.scope), refusal.challenge.scope)) {
      throw new McpAuthError('request', `the server refuses the request with insufficient_scope for ${JSON.stringify(refusal.challenge.scope ?? '')}, though the token already has those scopes`);
    }
    if (!stepUp && stored?.refreshToken && stored.issuer === discovery.metadata.issuer) {
      const refreshed = await this.refresh(discovery, stored, signal);
      if (refreshed) return;
    }
    const scope = this.chooseScope(refusal, discovery, stored);
    this.requestedScope = scope;
    await this.keep(await this.obtain(discovery, scope, signal));
  }

  // New tokens with the grant the options name; none of them falls back to another.
  private async obtain(discovery: Discovery, scope: string | undefined, signal: AbortSignal): Promise<StoredTokens> {
    const { enterprise, workloadIdentity } = this.options;
    if (enterprise || workloadIdentity) {
      const identity = await this.identities.identify(this.http, discovery.metadata, signal);
      const context = { http: this.http, discovery, identity, scope, dpop: this.dpop, signal };
      return enterprise ? enterpriseGrant(enterprise, context) : workloadGrant(workloadIdentity as WorkloadIdentityAuth, context);
    }
    return this.options.grant === 'client_credentials' ? this.clientCredentials(discovery, scope, signal) : this.signIn(discovery, scope, signal);
  }

  // A refresh token that the server no longer honours is dropped, and the
  // caller signs in afresh; a server that cannot be reached, or that still
  // wants a DPoP nonce, is an error.
  // The rest of the record stays until new tokens replace it: its issuer is
  // what binds a pre-registered client id in the next run, should this
  // sign-in not finish.
  private async refresh(discovery: Discovery, stored: StoredTokens, signal: AbortSignal): Promise<boolean> {
    this.states.next({ state: 'refreshing' });
    const grant = { grant_type: 'refresh_token', refresh_token: stored.refreshToken as string, resource: discovery.resource };
    try {
      const tokens = await requestTokens(this.http, discovery.metadata, this.refreshIdentity(discovery, stored), grant, 'refresh', signal, this.dpop);
      await this.keep({ ...tokens, refreshToken: tokens.refreshToken ?? stored.refreshToken, scope: tokens.scope ?? stored.scope });
      return true;
    } catch (error) {
      if (!(error instanceof McpAuthError) || error.oauthError === undefined) throw error;
      // A nonce the server still wants after the retry with it says nothing
      // against the refresh token: it is kept, and no person is sent to sign
      // in at an endpoint that would want the same.
      if (error.oauthError === 'use_dpop_nonce') throw error;
      const { refreshToken: _refused, ...rest } = stored;
      await this.keep(rest);
      return false;
    }
  }

  private refreshIdentity(discovery: Discovery, stored: StoredTokens): ClientIdentity {
    const { clientId, clientSecret, privateKeyJwt } = this.options;
    if (stored.clientId === clientId) return { clientId, clientSecret, privateKeyJwt, authMethod: chooseAuthMethod(discovery.metadata, clientSecret, privateKeyJwt), source: 'caller' };
    return {
      clientId: stored.clientId,
      clientSecret: stored.clientSecret,
      authMethod: chooseAuthMethod(discovery.metadata, stored.clientSecret, undefined),
      // Not the caller's: a secret kept with tokens came from a registration.
      source: 'registration',
    };
  }

  private async clientCredentials(discovery: Discovery, scope: string | undefined, signal: AbortSignal): Promise<StoredTokens> {
    if (this.options.clientId === undefined) throw new McpAuthError('registration', 'the client_credentials grant needs auth.clientId');
    const identity = await this.identities.identify(this.http, discovery.metadata, signal);
    const grant = { grant_type: 'client_credentials', resource: discovery.resource, ...(scope ? { scope } : {}) };
    return requestTokens(this.http, discovery.metadata, identity, grant, 'token', signal, this.dpop);
  }

  // The authorization code grant with PKCE (S256), state, the resource
  // indicator, and RFC 9207's issuer check on the way back.
  private async signIn(discovery: Discovery, scope: string | undefined, signal: AbortSignal): Promise<StoredTokens> {
    const { metadata, resource } = discovery;
    if (!discovery.guessed && !metadata.code_challenge_methods_supported?.includes('S256')) {
      throw new McpAuthError('server-metadata', `${quote(metadata.issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported), so signing in there is not safe`);
    }
    const endpoint = secureUrl(metadata.authorization_endpoint, 'server-metadata', 'the authorization endpoint');
    // The person's browser goes there: a GET to a service on their machine or network is still a request the server chose.
    this.reach.check(endpoint, 'server-metadata');
    const identity = await this.identities.identify(this.http, metadata, signal);
    const pkce = await makePkce();
    const state = randomToken();
    const url = new URL(endpoint);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: identity.clientId,
      redirect_uri: this.redirectUrl,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      state,
      ...(scope ? { scope } : {}),
      resource,
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    this.states.next({ state: 'signing-in', url });
    const pending: PendingSignIn = {
      issuer: metadata.issuer,
      clientId: identity.clientId,
      ...(identity.source === 'registration' && identity.clientSecret !== undefined ? { clientSecret: identity.clientSecret } : {}),
      redirectUrl: this.redirectUrl,
      resource,
      state,
      codeVerifier: pkce.verifier,
    };
    const answer = await this.askPerson(url, pending, signal);
    // A sign-in begun before the page was left finishes as it was begun.
    const resumed = typeof answer === 'string' ? undefined : checkResumed(answer.pending, pending, identity, metadata);
    const redirect = typeof answer === 'string' ? answer : answer.redirect;
    const code = this.readCallback(redirect, discovery, resumed?.pending.state ?? state);
    const grant = { grant_type: 'authorization_code', code, redirect_uri: this.redirectUrl, code_verifier: resumed?.pending.codeVerifier ?? pkce.verifier, resource };
    const tokens = await requestTokens(this.http, metadata, resumed?.identity ?? identity, grant, 'token', signal, this.dpop);
    return { ...tokens, scope: tokens.scope ?? scope };
  }

  private async askPerson(url: URL, pending: PendingSignIn, signal: AbortSignal): Promise<string | { redirect: string; pending: unknown }> {
    const hook = this.options.authorize;
    if (!hook) {
      throw new McpAuthError('authorize', `${this.serverUrl.origin} needs a person to sign in: give auth.authorize (rxmcp/node has loopbackSignIn), or sign in beforehand with rxmcp login`);
    }
    let answer: unknown;
    try {
      answer = await waitFor(defer(() => observableOf(hook({ url, pending }))), signal, () => new McpAuthError('authorize', 'the authorize hook finished without an answer'));
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof McpAuthError) throw error;
      throw new McpAuthError('authorize', `the authorize hook failed: ${messageOf(error)}`, { cause: error });
    }
    if (typeof answer === 'string' || answer instanceof URL) return String(answer);
    const { redirect, pending: kept } = (isObject(answer) ? answer : {}) as { redirect?: unknown; pending?: unknown };
    if (typeof redirect === 'string' || redirect instanceof URL) return { redirect: String(redirect), pending: kept };
    throw new McpAuthError('authorize', 'the authorize hook must answer with the redirect URL (a string or URL), or with { redirect, pending } to finish an earlier sign-in');
  }

  // Checks the redirect before its code goes anywhere: that it is for our
  // redirect URI, names the expected issuer (RFC 9207 §2.4, compared as
  // plain strings) and carries our state; only then is an error read.
  private readCallback(answer: string, discovery: Discovery, state: string): string {
    let callback: URL;
    try {
      callback = new URL(answer);
    } catch {
      throw new McpAuthError('callback', 'the authorize hook answered with something that is not a URL');
    }
    const expected = new URL(this.redirectUrl);
    if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
      throw new McpAuthError('callback', `the redirect went to ${JSON.stringify(callback.origin + callback.pathname)}, not to the redirect URL ${JSON.stringify(this.redirectUrl)}`);
    }
    const query = callback.searchParams;
    const iss = query.get('iss');
    const issuer = discovery.metadata.issuer;
    if (iss !== null && iss !== issuer) throw new McpAuthError('callback', `the authorization response names issuer ${quote(iss)}, not ${quote(issuer)}`);
    if (iss === null && discovery.metadata.authorization_response_iss_parameter_supported === true) {
      throw new McpAuthError('callback', `${quote(issuer)} promises an iss parameter, but the authorization response has none`);
    }
    if (query.get('state') !== state) throw new McpAuthError('callback', 'the authorization response does not carry the state this sign-in sent');
    const error = query.get('error');
    if (error !== null) {
      const description = query.get('error_description');
      throw new McpAuthError('authorize', `the authorization server refused: ${JSON.stringify(error)}` + (description ? ` (${JSON.stringify(description.slice(0, 300))})` : ''), { oauthError: error });
    }
    const code = query.get('code');
    if (!code) throw new McpAuthError('callback', 'the authorization response has no code');
    return code;
  }

  // The spec's order: the caller's choice, else the challenge's scope, else
  // everything the resource lists; on a renewal, joined with what was asked
  // before so no permission is lost. offline_access only where advertised.
  private chooseScope(refusal: Refusal, discovery: Discovery, stored: StoredTokens | undefined): string | undefined {
    const base = this.options.scope ?? refusal.challenge.scope ?? discovery.resourceMetadata?.scopes_supported?.join(' ');
    let scope = union(union(this.requestedScope ?? stored?.scope, base), refusal.status === 403 ? refusal.challenge.scope : undefined);
    if (!this.signsInQuietly() && discovery.metadata.scopes_supported?.includes('offline_access')) scope = union(scope, 'offline_access');
    return scope;
  }

  private canRenewQuietly(tokens: StoredTokens): boolean {
    return tokens.refreshToken !== undefined || this.signsInQuietly();
  }

  /** True for the grants that need no person: the client's credentials, an enterprise ID token, a workload's JWT. */
  private signsInQuietly(): boolean {
    const { grant, enterprise, workloadIdentity } = this.options;
    return grant === 'client_credentials' || enterprise !== undefined || workloadIdentity !== undefined;
  }

  // Tokens this client may send: bearer ones without DPoP; with DPoP, those
  // bound to its key (tokens whose key a file store could not keep are not).
  private async usableTokens(): Promise<StoredTokens | undefined> {
    const tokens = await this.tokens();
    if (!tokens) return undefined;
    if (!this.dpop) return tokens.dpop === undefined ? tokens : undefined;
    return (await this.dpop.binds(tokens)) ? tokens : undefined;
  }

  private tokens(): Promise<StoredTokens | undefined> {
    this.current ??= this.storeCall(() => this.store.get(this.key)).catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  private async keep(tokens: StoredTokens): Promise<void> {
    this.current = Promise.resolve(tokens);
    await this.storeCall(() => this.store.set(this.key, tokens));
  }

  private async storeCall<T>(call: () => T | Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof McpAuthError) throw error;
      throw new McpAuthError('token-store', `the token store failed: ${messageOf(error)}`, { cause: error });
    }
  }
}

function union(a: string | undefined, b: string | undefined): string | undefined {
  const scopes = new Set([...(a?.split(' ') ?? []), ...(b?.split(' ') ?? [])].filter(Boolean));
  return scopes.size > 0 ? [...scopes].join(' ') : undefined;
}

function covers(have: string | undefined, need: string | undefined): boolean {
  if (!need) return true;
  const granted = new Set(have?.split(' '));
  return need.split(' ').filter(Boolean).every((scope) => granted.has(scope));
}
