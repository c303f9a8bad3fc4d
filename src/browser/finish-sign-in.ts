import { SIGN_IN_MESSAGE_TYPE, scrubAddress } from './sign-in-page.js';

/**
 * Call on the redirect page, first thing: when the page is a sign-in window
 * that `popupSignIn` opened, it hands the authorization response (this
 * page's address) to the page that opened it, on this origin alone, and
 * closes the window. Otherwise it does nothing, so one redirect page can
 * serve `popupSignIn` and `redirectSignIn` both.
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
  if (opener === null || opener === window) return false;
  // The target origin is this page's own: an opener that navigated
  // elsewhere (or a page that opened this one from another origin) gets nothing.
  opener.postMessage({ type: SIGN_IN_MESSAGE_TYPE, url: location.href }, location.origin);
  scrubAddress();
  window.close();
  return true;
}
