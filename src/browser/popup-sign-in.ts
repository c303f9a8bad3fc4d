import { Observable } from 'rxjs';
import type { AuthorizeRequest } from '../auth/auth-options.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { isAnswerAt, ownRedirectUrl, parseAnswer, SIGN_IN_MESSAGE_TYPE } from './sign-in-page.js';

/** How `popupSignIn` opens its window and how long it waits. */
export interface PopupSignInOptions {
  /**
   * The page the authorization server sends the person back to: a page on
   * this origin (absolute, or relative to this page) that calls
   * `finishSignIn()`. Give the same as `auth.redirectUrl` (`signIn.redirectUrl` is it, absolute).
   */
  redirectUrl: string;
  /** The `window.open` features of the sign-in window (default `popup,width=520,height=720`). */
  features?: string;
  /**
   * How long one sign-in waits for the person, from the moment the client
   * asks, in milliseconds (default 300000; 0 waits for ever). It covers the
   * wait for `open()` too.
   */
  timeoutMs?: number;
  /** How often to look whether the person closed the window, in milliseconds (default 500). */
  closedPollMs?: number;
}

/** A popup sign-in, as `popupSignIn` answers it. */
export interface PopupSignIn {
  /** The redirect URL, absolute: give it as `auth.redirectUrl`. */
  readonly redirectUrl: string;
  /**
   * The `auth.authorize` hook. Each subscription waits for `open()`, then
   * for the sign-in window's answer, and emits the redirect URL.
   * Unsubscribing closes the window.
   *
   * @throws McpAuthError (step `authorize`) through the Observable when the
   *   window is closed before the answer, when the browser refuses to open it,
   *   when `timeoutMs` passes, or when another sign-in already waits here.
   */
  readonly authorize: (request: Pick<AuthorizeRequest, 'url'>) => Observable<string>;
  /**
   * Opens the sign-in window at the waiting sign-in's authorization URL (or
   * brings it forward when it is open already). Call it from the click or
   * key handler itself, before any `await`: browsers allow a window only
   * there.
   *
   * @returns true when the window is open; false when no sign-in is waiting,
   *   or when the browser refused the window (the waiting sign-in then fails with `McpAuthError`).
   */
  open(): boolean;
  /** Whether a sign-in waits for `open()` or for its window's answer: when to show a "Sign in" button. */
  readonly waiting: boolean;
}

const OPTION_KEYS = keysOf<PopupSignInOptions>({ redirectUrl: true, features: true, timeoutMs: true, closedPollMs: true });
const FEATURES = 'popup,width=520,height=720';
const TIMEOUT_MS = 300_000;
const CLOSED_POLL_MS = 500;

/** The one sign-in this `PopupSignIn` is waiting for. */
interface Waiter {
  readonly url: URL;
  readonly state: string | null;
  popup: Window | null;
  fail(error: Error): void;
  watch(popup: Window): void;
}

/**
 * Sign-in in a popup window, for a web page: the page opens the window from
 * the person's click, the authorization server sends the person to the
 * redirect page, and the redirect page (calling `finishSignIn()`) hands the
 * answer back and closes.
 *
 * Browsers block windows opened outside a click or key press, and the
 * client only knows the authorization URL after a request was refused and
 * metadata was read. So the window never opens by itself: while a sign-in
 * waits (`auth$` says `signing-in`, `waiting` is true), show a button whose
 * click handler calls `open()`. A refused window fails the sign-in at once
 * with a message that says so.
 *
 * An answer counts only when it comes from the window this page opened, from
 * this page's own origin, at the redirect URL, with the `state` of the
 * sign-in that waits; anything else posted to the page is ignored. Closing
 * the window abandons the sign-in (`McpAuthError`, step `authorize`).
 *
 * An authorization server that sends `Cross-Origin-Opener-Policy:
 * same-origin` cuts the window off from this page: it then looks closed at
 * once, and the sign-in fails. Use `redirectSignIn` with such servers.
 *
 * @param options The redirect page, and how to open and wait.
 * @throws McpClientError for an invalid option, or a redirect URL on another origin.
 * @example
 * ```ts
 * import { McpClient } from 'rxmcp';
 * import { BrowserTokenStore, popupSignIn } from 'rxmcp/browser';
 *
 * const signIn = popupSignIn({ redirectUrl: '/signed-in.html' });
 * const mcp = McpClient.connectHttp({
 *   url: 'https://tools.example.com/mcp',
 *   auth: { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new BrowserTokenStore() },
 * });
 * const button = document.querySelector('button')!;
 * mcp.auth$.subscribe((state) => (button.hidden = state.state !== 'signing-in'));
 * button.onclick = () => signIn.open();
 * ```
 */
export function popupSignIn(options: PopupSignInOptions): PopupSignIn {
  if (!isObject(options as unknown)) throw new McpClientError('popupSignIn needs options: { redirectUrl }');
  refuseUnknown(options, OPTION_KEYS);
  const redirect = ownRedirectUrl(options.redirectUrl);
  const features = options.features ?? FEATURES;
  if (typeof features !== 'string') throw new McpClientError(`option features must be a string; got ${JSON.stringify(features)}`);
  const timeoutMs = checkTimerDuration('timeoutMs', options.timeoutMs, TIMEOUT_MS);
  const closedPollMs = checkTimerDuration('closedPollMs', options.closedPollMs, CLOSED_POLL_MS);
  if (closedPollMs === 0) throw new McpClientError('option closedPollMs must be more than 0');
  let waiter: Waiter | undefined;

  function authorize(request: Pick<AuthorizeRequest, 'url'>): Observable<string> {
    return new Observable<string>((subscriber) => {
      const url = new URL(request.url);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        subscriber.error(new McpAuthError('authorize', `refusing to send a person to a ${JSON.stringify(url.protocol)} URL`));
        return;
      }
      if (waiter !== undefined) {
        subscriber.error(new McpAuthError('authorize', 'another sign-in already waits for this popupSignIn: give each client its own'));
        return;
      }
      let poll: ReturnType<typeof setInterval> | undefined;
      let closedBefore = false;
      const onMessage = (event: MessageEvent): void => {
        const current = waiter;
        if (current?.popup == null || event.source !== current.popup || event.origin !== location.origin) return;
        const data: unknown = event.data;
        if (!isObject(data) || data['type'] !== SIGN_IN_MESSAGE_TYPE) return;
        const answer = parseAnswer(data['url']);
        if (answer === undefined || !isAnswerAt(answer, redirect) || answer.searchParams.get('state') !== current.state) return;
        subscriber.next(answer.href);
        subscriber.complete();
      };
      const mine: Waiter = {
        url,
        state: url.searchParams.get('state'),
        popup: null,
        fail: (error) => subscriber.error(error),
        watch: (popup) => {
          mine.popup = popup;
          // The same listener added again (a window opened anew) is not added twice.
          window.addEventListener('message', onMessage);
          poll ??= setInterval(() => {
            // Seen closed twice in a row: the answer a closing window posted has had a turn to arrive.
            if (!mine.popup?.closed) closedBefore = false;
            else if (closedBefore) subscriber.error(new McpAuthError('authorize', 'the sign-in window was closed before signing in finished'));
            else closedBefore = true;
          }, closedPollMs);
        },
      };
      waiter = mine;
      const timer =
        timeoutMs === 0
          ? undefined
          : setTimeout(
              () =>
                subscriber.error(
                  new McpAuthError('authorize', mine.popup === null ? `no sign-in window was opened within ${timeoutMs} ms: call signIn.open() from a click handler while a sign-in waits` : `the sign-in window did not answer within ${timeoutMs} ms`),
                ),
              timeoutMs,
            );
      return () => {
        if (waiter === mine) waiter = undefined;
        clearTimeout(timer);
        clearInterval(poll);
        window.removeEventListener('message', onMessage);
        if (mine.popup !== null && !mine.popup.closed) mine.popup.close();
      };
    });
  }

  return {
    redirectUrl: redirect.href,
    authorize,
    get waiting() {
      return waiter !== undefined;
    },
    open() {
      const current = waiter;
      if (current === undefined) return false;
      if (current.popup !== null && !current.popup.closed) {
        current.popup.focus();
        return true;
      }
      // Not noopener: the window's answer is checked against this very window, and its closing is watched.
      // No name: a named window is one any other window.open with that name (another sign-in on the page) navigates.
      const popup = window.open(current.url.href, '_blank', features);
      if (popup === null) {
        current.fail(new McpAuthError('authorize', 'the browser refused to open the sign-in window: call signIn.open() from a click or key handler, before any await, or use redirectSignIn where popups are blocked'));
        return false;
      }
      current.watch(popup);
      return true;
    },
  };
}
