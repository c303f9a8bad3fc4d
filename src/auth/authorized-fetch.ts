import type { Observable } from 'rxjs';
import { McpAuthError } from '../errors/auth-errors.js';
import type { FetchLike, FetchResponse } from '../http/fetch-like.js';
import { type AbortLike, toAbortSignal } from '../util/light-abort.js';
import { shownUrl } from '../util/shown-url.js';
import type { AuthOptions, AuthState } from './auth-options.js';
import { OAuthSession } from './oauth-session.js';

/** Sign-ins one request may go through before its refusal is final: a sign-in, then up to two step-ups. */
const MAX_AUTH_ROUNDS = 3;

/** How an {@link AuthorizedFetch} signs in, and what it needs from the fetch it wraps. */
export interface AuthorizedFetchOptions {
  /** How to sign in. */
  auth: AuthOptions;
  /** The MCP server's URL as the caller gave it: the resource whose tokens are asked for. */
  serverUrl: URL;
  /**
   * The fetch the sign-in's own requests go through (metadata, registration,
   * the token endpoint): a plain one, not the wrapped one, as those requests
   * carry no access token and judge their own redirects.
   */
  signInFetch: () => Promise<FetchLike>;
  /**
   * Reads and drops the body of a refusal before the request goes again, so
   * its connection can serve the retry; what it throws is ignored. A refusal
   * whose body is never read holds its connection, so give one whenever the
   * wrapped fetch keeps connections alive.
   */
  drain?: (response: FetchResponse) => Promise<unknown>;
  /**
   * Where a request first sent to `url` goes on this try (`init` as the
   * caller gave it). The HTTP transport moves its endpoint when a redirect
   * within its origin moves it, and a retry goes to where it moved, with a
   * proof for that URL. The URL as given when absent.
   */
  where?: (url: string, init: Record<string, unknown>) => string;
}

/**
 * A fetch that signs in: it wraps another and sends each request with the
 * access token (a bearer token, or a DPoP-bound one with its proof). When
 * the MCP server refuses it (401, or 403 `insufficient_scope` for a
 * step-up) it signs in, refreshes or asks for more scopes through an
 * {@link OAuthSession}, then sends the request again, as undici's
 * RetryAgent adds retries to a dispatcher by wrapping it. A 401
 * `use_dpop_nonce` is answered by one more try with the server's nonce.
 *
 * What the wrapped fetch is told, beyond the request: `init.headers` gain
 * the credentials, and `init.redirect` is `'error'` whenever a token goes
 * along (a token goes only to the URL it was issued for). Every other field
 * of `init` passes through untouched.
 *
 * `init.headers` must be a plain record and `init.body` one that can be
 * sent again (a string, not a stream): a refused request is sent again as
 * it was. `init.signal`, when given, ends the sign-in too.
 */
export class AuthorizedFetch {
  /** The wrapped fetch, signing in: same arguments, same answers, once the server lets the request through (or the refusal is final). */
  readonly fetch: FetchLike;
  private readonly session: OAuthSession;
  private readonly drain: (response: FetchResponse) => Promise<unknown>;
  private readonly where: (url: string, init: Record<string, unknown>) => string;

  constructor(
    private readonly inner: FetchLike,
    options: AuthorizedFetchOptions,
  ) {
    this.session = new OAuthSession(options.auth, options.serverUrl, options.signInFetch);
    this.drain = options.drain ?? ((response) => response.text());
    this.where = options.where ?? ((url) => url);
    this.fetch = (url, init) => this.send(url, init);
  }

  /** Hot: where signing in stands. */
  get state$(): Observable<AuthState> {
    return this.session.state$;
  }

  /** Ends `state$`. The wrapped fetch is its owner's to close. */
  close(): void {
    this.session.close();
  }

  /**
   * Each refusal is answered by signing in (or refreshing, or asking for
   * more scopes) and the request goes again; a few rounds at most, as a
   * server that keeps refusing will not change its mind.
   *
   * @throws McpAuthError when signing in fails, or the server still refuses
   *   after MAX_AUTH_ROUNDS sign-ins or one retry with its DPoP nonce.
   * @throws whatever the wrapped fetch throws, and the signal's reason when it aborts.
   */
  private async send(given: string, init: Record<string, unknown>): Promise<FetchResponse> {
    const method = typeof init.method === 'string' ? init.method : 'GET';
    const headers = init.headers as Record<string, string> | undefined;
    // Signing in runs code that takes a real AbortSignal.
    const aborted = init.signal ? toAbortSignal(init.signal as AbortLike) : new AbortController().signal;
    // Ending a session is no reason to ask a person to sign in: DELETE takes the token as it is.
    const renew = method !== 'DELETE';
    let nonceRetried = false;
    for (let round = 0; ; ) {
      const url = this.where(given, init);
      const { token, headers: credentials } = await this.session.credentials(method, url, aborted, renew);
      const response = await this.inner(url, { ...init, headers: { ...headers, ...credentials }, ...(token === undefined ? {} : { redirect: 'error' }) });
      const challenge = this.session.challengeOf(response.headers.get('www-authenticate'));
      const nonce = this.session.rememberNonce(url, response.headers.get('dpop-nonce'));
      if (response.status === 401 && challenge.error === 'use_dpop_nonce') {
        await this.drain(response).catch(() => undefined);
        // RFC 9449 §9: the proof needs the server's nonce; one more try with it, as a new sign-in would not help.
        if (!nonce || nonceRetried) throw new McpAuthError('request', `${shownUrl(url)} asks for a DPoP nonce${nonce ? ' again after one retry with it' : ' without giving a usable one'}`);
        nonceRetried = true;
        continue;
      }
      const refused = response.status === 401 || (response.status === 403 && challenge.error === 'insufficient_scope');
      if (!refused || !renew) return response;
      await this.drain(response).catch(() => undefined);
      if (++round > MAX_AUTH_ROUNDS) {
        throw new McpAuthError('request', `${shownUrl(url)} still refuses the request (HTTP ${response.status}${challenge.error ? ` ${JSON.stringify(challenge.error.slice(0, 64))}` : ''}) after signing in`);
      }
      await this.session.answer({ status: response.status as 401 | 403, challenge, sentToken: token }, aborted);
    }
  }
}
