import { McpClientError } from '../errors/mcp-client-error.js';

/** The `type` of the message a sign-in window posts back to the page that opened it. */
export const SIGN_IN_MESSAGE_TYPE = 'rxmcp-sign-in';

/** The longest redirect URL a posted answer or a page address may carry, in characters. */
export const MAX_ANSWER_CHARS = 8192;

/**
 * Resolves a page's redirect URL (absolute, or relative to this page) and
 * checks it is on this page's origin: the answer comes back to this origin
 * and no other, and only a page of this origin may hand it over.
 *
 * @throws McpClientError when it is not a URL, carries a query or fragment, or is on another origin.
 */
export function ownRedirectUrl(value: unknown): URL {
  if (typeof value !== 'string' || value === '') throw new McpClientError(`option redirectUrl must be a URL of a page on this origin; got ${JSON.stringify(value)}`);
  let url: URL;
  try {
    url = new URL(value, location.href);
  } catch {
    throw new McpClientError(`option redirectUrl must be a URL; got ${JSON.stringify(value)}`);
  }
  if (url.origin !== location.origin) throw new McpClientError(`option redirectUrl must be on this page's origin ${JSON.stringify(location.origin)}; got ${JSON.stringify(url.origin)}`);
  if (url.search !== '' || url.hash !== '') throw new McpClientError(`option redirectUrl must hold no query or fragment; got ${JSON.stringify(value)}`);
  return url;
}

/** Whether `url` is an answer at `redirect`: the same page, with a `state`. */
export function isAnswerAt(url: URL, redirect: URL): boolean {
  return url.origin === redirect.origin && url.pathname === redirect.pathname && url.searchParams.has('state');
}

/** `url` parsed, or undefined when it is not a string of a sane length that parses. */
export function parseAnswer(url: unknown): URL | undefined {
  if (typeof url !== 'string' || url.length > MAX_ANSWER_CHARS) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Takes the authorization response out of the address bar (and so out of
 * the history), leaving the page's own path: a code in the address is one a
 * screen share, a bookmark or an extension can read.
 */
export function scrubAddress(): void {
  history.replaceState(history.state, '', location.pathname);
}
