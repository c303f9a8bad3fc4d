import { SIGN_IN_MESSAGE_TYPE, scrubAddress } from './sign-in-page.js';

/**
 * Call on the redirect page, first thing: when the page is a sign-in window
 * that `popupSignIn` opened (its address carries an authorization response,
 * and the window that opened it shows a page of this origin), it hands the
 * answer to the page that opened it, on this origin alone, and closes the
 * window. Otherwise it does nothing, so one redirect page can serve
 * `popupSignIn` and `redirectSignIn` both, and a page opened by another
 * site's window stays open.
 *
 * @returns true when the answer was handed to an opener (the window then closes).
 * @example
 * ```ts
 * import { finishSignIn } from 'rxmcp/browser';
 *
 * if (!finishSignIn()) startTheApp();
 * ```
 */
export function finishSignIn(): boolean {
  const opener = window.opener as Window | null;
  // Only an authorization response goes back, and only to an opener on this
  // origin: a page opened by any other window (another site's, or the app
  // opening itself) is a page to run, not a sign-in window to close.
  if (opener === null || opener === window || !new URL(location.href).searchParams.has('state') || !sameOrigin(opener)) return false;
  // The target origin is this page's own: an opener that navigated
  // elsewhere (or a page that opened this one from another origin) gets nothing.
  opener.postMessage({ type: SIGN_IN_MESSAGE_TYPE, url: location.href }, location.origin);
  scrubAddress();
  window.close();
  return true;
}

/** Whether `other` shows a page of this origin: reading another origin's address throws. */
function sameOrigin(other: Window): boolean {
  try {
    return other.location.origin === location.origin;
  } catch {
    return false;
  }
}
