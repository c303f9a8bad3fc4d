// The one check every surface makes before a URL elicitation's page is
// offered to a person: the engine before it asks `onElicitUrl`, the CLI and
// the gateway before they show or pass it on. The URL is the server's, and
// the spec's client MUSTs (2025-11-25 client/elicitation, "Safe URL
// Handling") are about not letting it trick anyone.
import { zoneOf } from '../../auth/network-zone.js';

/** The longest URL offered: a page address, not a document. */
export const MAX_ELICITATION_URL_CHARS = 4_096;

/** A URL that may be offered, as parsed, and the host to show apart from it. */
export interface OfferableUrl {
  ok: true;
  /** The URL as the WHATWG parser writes it (what is shown and opened). */
  url: string;
  /** The host, in the parser's spelling (punycode for an international name), shown apart so a person sees where the page is. */
  host: string;
}

/** Why a URL may not be offered. */
export interface RefusedUrl {
  ok: false;
  reason: string;
}

/**
 * Whether a server's URL may be offered to a person: `https:`, or `http:` to
 * this machine only; no user name or password in it (`https://bank.example@evil.example`
 * reads as the bank's); no control characters; at most
 * `MAX_ELICITATION_URL_CHARS`. Nothing is fetched.
 */
export function checkElicitationUrl(raw: unknown): OfferableUrl | RefusedUrl {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the URL is missing' };
  if (raw.length > MAX_ELICITATION_URL_CHARS) return { ok: false, reason: `the URL is longer than ${MAX_ELICITATION_URL_CHARS} characters` };
  // The parser would strip tabs and newlines silently; a URL that needs them is not one to show.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return { ok: false, reason: 'the URL holds control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the URL cannot be parsed' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the URL carries a user name or password' };
  if (url.protocol === 'https:' || (url.protocol === 'http:' && zoneOf(url) === 'this-machine')) {
    if (url.hostname === '') return { ok: false, reason: 'the URL names no host' };
    return { ok: true, url: url.href, host: url.host };
  }
  return { ok: false, reason: url.protocol === 'http:' ? 'the URL is plain http to another machine' : `the URL's scheme ${url.protocol} is not https` };
}
