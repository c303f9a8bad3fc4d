import { NEVER, Observable } from 'rxjs';
import type { AuthorizeRequest, PendingSignIn, ResumedSignIn } from '../auth/auth-options.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { checkDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { isAnswerAt, MAX_ANSWER_CHARS, ownRedirectUrl, scrubAddress } from './sign-in-page.js';

/** Where `redirectSignIn` sends the person back to, and how long a sign-in may take. */
export interface RedirectSignInOptions {
  /**
   * The page the authorization server sends the person back to: a page on
   * this origin (absolute, or relative to this page) that loads the app
   * again. Give the same as `auth.redirectUrl` (`signIn.redirectUrl` is it, absolute).
   */
  redirectUrl: string;
  /** How long a sign-in begun may wait for the person to come back, in milliseconds (default 600000). An older answer is refused as stale. */
  maxAgeMs?: number;
}

/** A full-page redirect sign-in, as `redirectSignIn` answers it. */
export interface RedirectSignIn {
  /** The redirect URL, absolute: give it as `auth.redirectUrl`. */
  readonly redirectUrl: string;
  /**
   * The `auth.authorize` hook. On a page that is the answer to a sign-in
   * this tab began, it emits that answer (and the client finishes that
   * sign-in); otherwise it keeps the new sign-in in `sessionStorage` and
   * sends the page to the authorization server, and never emits.
   *
   * @throws McpAuthError (step `callback`) through the Observable when this
   *   page carries an answer no sign-in of this tab is waiting for (stale,
   *   already used, or begun elsewhere); the next sign-in starts afresh.
   */
  readonly authorize: (request: AuthorizeRequest) => Observable<ResumedSignIn>;
  /** Whether this page arrived with an authorization response not yet handed to a client. */
  readonly returning: boolean;
}

const OPTION_KEYS = keysOf<RedirectSignInOptions>({ redirectUrl: true, maxAgeMs: true });
const MAX_AGE_MS = 600_000;
const PREFIX = 'rxmcp:pending-sign-in:';
/** How many sign-ins a tab keeps at once; the oldest go first. */
const MAX_PENDING = 16;
/**
 * How many times in a row the page may leave to sign in, each time soon
 * after coming back from the last: a server that refuses every token would
 * otherwise keep the tab going back and forth for ever, since each page load
 * starts its count of sign-ins afresh.
 */
const MAX_ROUNDS = 3;
/** A sign-in begun within this long of finishing the last one follows it "in a row". */
const IN_A_ROW_MS = 60_000;

interface PendingRecord {
  createdAt: number;
  /** How many sign-ins in a row this one is (1 when none came just before it). */
  rounds?: number;
  pending: PendingSignIn;
}

/**
 * Sign-in by leaving the page, for where popups are blocked (or the
 * authorization server cuts popups off): the page goes to the authorization
 * server, and the server sends it back to the redirect page, which loads the
 * app again.
 *
 * Before leaving, the sign-in under way (its `state`, its PKCE verifier, the
 * client it was begun as) is kept in this tab's `sessionStorage`, which
 * survives the round trip and no other tab sees. When the app loads again at
 * the redirect URL, `redirectSignIn` takes the answer out of the address
 * bar at once; the client's next request that needs a sign-in then finishes
 * the kept one, and the kept record is removed. An answer whose `state`
 * this tab did not keep, or kept longer than `maxAgeMs` ago, is refused.
 * After three sign-ins in a row, each begun within a minute of the last
 * one's return (a server that refuses every token it is given), the page
 * does not leave again: that call fails, and the next one starts afresh.
 *
 * With a dynamically registered client, the page that comes back registers
 * once more before it finishes the sign-in as the client it began as: give
 * `auth.clientId` (or `auth.clientMetadataUrl`) to avoid that registration.
 *
 * @param options The redirect page, and how long a sign-in may take.
 * @throws McpClientError for an invalid option, or a redirect URL on another origin.
 * @example
 * ```ts
 * import { McpClient } from 'rxmcp';
 * import { BrowserTokenStore, redirectSignIn } from 'rxmcp/browser';
 *
 * // Made as the page loads: an answer in the address bar is taken out at once.
 * const signIn = redirectSignIn({ redirectUrl: '/' });
 * const mcp = McpClient.connectHttp({
 *   url: 'https://tools.example.com/mcp',
 *   auth: { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new BrowserTokenStore() },
 * });
 * mcp.listTools().subscribe((tools) => console.log(tools));
 * ```
 */
export function redirectSignIn(options: RedirectSignInOptions): RedirectSignIn {
  if (!isObject(options as unknown)) throw new McpClientError('redirectSignIn needs options: { redirectUrl }');
  refuseUnknown(options, OPTION_KEYS);
  const redirect = ownRedirectUrl(options.redirectUrl);
  const maxAgeMs = checkDuration('maxAgeMs', options.maxAgeMs, MAX_AGE_MS);
  let answer: URL | undefined;
  // The sign-in this page load finished, if any: how many in a row it was, and when.
  let finished: { rounds: number; at: number } | undefined;
  const here = new URL(location.href);
  if (isAnswerAt(here, redirect)) {
    if (location.href.length <= MAX_ANSWER_CHARS) answer = here;
    scrubAddress();
  }

  function authorize(request: AuthorizeRequest): Observable<ResumedSignIn> {
    return new Observable<ResumedSignIn>((subscriber) => {
      const url = new URL(request.url);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        subscriber.error(new McpAuthError('authorize', `refusing to send a person to a ${JSON.stringify(url.protocol)} URL`));
        return;
      }
      const storage = sessionStorage;
      if (answer !== undefined) {
        const state = answer.searchParams.get('state') ?? '';
        const record = readRecord(storage, state);
        // Another client's sign-in on this page (another server): left for it.
        if (record === undefined || record.pending.resource === request.pending.resource) {
          const returned = answer;
          answer = undefined;
          storage.removeItem(PREFIX + state);
          if (record === undefined || record.pending.state !== state) {
            subscriber.error(new McpAuthError('callback', 'this page came back with an authorization response no sign-in of this tab is waiting for (already used, or begun elsewhere); it was ignored'));
            return;
          }
          if (Date.now() - record.createdAt > maxAgeMs || record.createdAt > Date.now()) {
            subscriber.error(new McpAuthError('callback', `this page came back with the answer to a sign-in begun more than ${maxAgeMs} ms ago; it was refused as stale`));
            return;
          }
          finished = { rounds: record.rounds ?? 1, at: Date.now() };
          subscriber.next({ redirect: returned.href, pending: record.pending });
          subscriber.complete();
          return;
        }
      }
      const rounds = finished !== undefined && Date.now() - finished.at < IN_A_ROW_MS ? finished.rounds + 1 : 1;
      finished = undefined;
      if (rounds > MAX_ROUNDS) {
        subscriber.error(new McpAuthError('authorize', `signed in ${MAX_ROUNDS} times in a row by leaving the page, and the server still refuses: not leaving again (the next call signs in afresh)`));
        return;
      }
      keep(storage, request.pending, maxAgeMs, rounds);
      location.assign(url.href);
      // The page is leaving: nothing more comes from this one.
      return NEVER.subscribe(subscriber);
    });
  }

  return {
    redirectUrl: redirect.href,
    authorize,
    get returning() {
      return answer !== undefined;
    },
  };
}

/** Keeps a sign-in for the way back, after dropping stale ones and, past the cap, the oldest. */
function keep(storage: Storage, pending: PendingSignIn, maxAgeMs: number, rounds: number): void {
  const kept: Array<{ key: string; createdAt: number }> = [];
  for (let index = storage.length - 1; index >= 0; index--) {
    const key = storage.key(index);
    if (key === null || !key.startsWith(PREFIX)) continue;
    const record = readRecord(storage, key.slice(PREFIX.length));
    if (record === undefined || Date.now() - record.createdAt > maxAgeMs) storage.removeItem(key);
    else kept.push({ key, createdAt: record.createdAt });
  }
  kept.sort((a, b) => a.createdAt - b.createdAt);
  for (const { key } of kept.slice(0, Math.max(0, kept.length - MAX_PENDING + 1))) storage.removeItem(key);
  const record: PendingRecord = { createdAt: Date.now(), rounds, pending };
  try {
    storage.setItem(PREFIX + pending.state, JSON.stringify(record));
  } catch (error) {
    throw new McpAuthError('authorize', 'cannot keep the sign-in in sessionStorage for the way back (storage full or disabled): use popupSignIn', { cause: error });
  }
}

/** The sign-in kept under `state`, or undefined when there is none or what is there is not one (it is then removed). */
function readRecord(storage: Storage, state: string): PendingRecord | undefined {
  if (state === '') return undefined;
  const text = storage.getItem(PREFIX + state);
  if (text === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) return parsed;
  storage.removeItem(PREFIX + state);
  return undefined;
}

function isRecord(value: unknown): value is PendingRecord {
  if (!isObject(value) || typeof value['createdAt'] !== 'number' || !isObject(value['pending'])) return false;
  if (value['rounds'] !== undefined && !(Number.isInteger(value['rounds']) && (value['rounds'] as number) >= 1)) return false;
  const pending = value['pending'];
  const fields = ['issuer', 'clientId', 'redirectUrl', 'resource', 'state', 'codeVerifier'];
  return fields.every((name) => typeof pending[name] === 'string') && (pending['clientSecret'] === undefined || typeof pending['clientSecret'] === 'string');
}
