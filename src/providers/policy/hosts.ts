import { valuesUnder } from './arguments.js';
import type { Tri } from './tri.js';

// Keys whose value is a URL, or a bare host, whatever it looks like.
const URL_KEYS: ReadonlySet<string> = new Set(['url', 'urls', 'uri', 'uris', 'href', 'hrefs', 'link', 'links', 'endpoint', 'endpoints', 'src', 'origin', 'website']);
const HOST_KEYS: ReadonlySet<string> = new Set(['host', 'hosts', 'hostname', 'hostnames', 'domain', 'domains', 'server', 'servers', 'proxy', 'proxies', 'ip', 'ips']);

// The schemes whose URLs have a host the WHATWG parser and RFC 3986 both read.
const SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:']);

// What RFC 3986 allows in a URI unescaped. Anything else (a backslash, a
// space, a tab or newline the WHATWG parser would strip, a non-ASCII letter
// it would map through IDNA) is read differently by different parsers.
const RFC3986 = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

// A string the WHATWG parser reads as an absolute URL with a host: any
// `scheme://`, or a special scheme with any number of slashes (or none),
// once the leading controls and spaces it strips are gone.
const URL_LIKE = /^[\0-\x20]*(?:[A-Za-z][A-Za-z0-9+.-]*:[\\/]{2}|(?:https?|wss?|ftp|file):)/i;
const urlLike = (text: string): boolean => URL_LIKE.test(text.replace(/[\t\n\r]/g, ''));

/**
 * The URLs a call names: every string under a key that names a URL (`url`,
 * `uri`, `href`, `link`, `endpoint`, `src`, `origin`, `website`, and keys
 * ending in one of them, such as `baseUrl`, as `keyNames` reads them) or a
 * host (`host`, `hostname`, `domain`, `server`, `proxy`, `ip`, whose bare
 * `evil.com:3128` is read as `http://` and the value), at any depth, and
 * every other string the WHATWG parser would read as an absolute URL, in
 * JSON held in strings too. A value under such a key that is not a string
 * counts as one unreadable URL.
 */
export function urlsOf(args: Record<string, unknown>): unknown[] {
  // JSON held in strings is read too, as locations are: a decoy `url` must not hide one in `body: '{"url":…}'`.
  const urls = valuesUnder(args, URL_KEYS, (text) => (urlLike(text) ? text : undefined), { json: true });
  // Bare hosts become http URLs, so they go through the same reading.
  for (const host of valuesUnder(args, HOST_KEYS, () => undefined, { json: true })) urls.push(typeof host === 'string' && !urlLike(host) ? `http://${host}/` : host);
  return urls;
}

/**
 * The host a URL names, lowercased and without a trailing dot, or
 * `undefined` when it has none or it cannot be read to a conclusion: not an
 * absolute http(s), ws(s) or ftp URL with `//` and a host, a character RFC
 * 3986 does not allow, percent-encoding in the authority, more than one `@`,
 * an empty label, or a host that the WHATWG parser spells differently from a
 * strict RFC 3986 reading (`0x7f.1`, `127.1`).
 */
export function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || !RFC3986.test(url)) return undefined;
  const strict = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  if (!strict) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!SCHEMES.has(parsed.protocol)) return undefined;
  const authority = strict[1] as string;
  const at = authority.split('@');
  if (authority.includes('%') || at.length > 2) return undefined;
  const hostPort = at[at.length - 1] as string;
  const spelled = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.replace(/:[0-9]*$/, '');
  const host = parsed.hostname.replace(/\.$/, '');
  if (host === '' || host.split('.').includes('') || spelled.toLowerCase().replace(/\.$/, '') !== host) return undefined;
  return host;
}

/** Whether a URL has this host: exact, or a `*.` suffix that needs at least one more label. */
export function hostMatch(pattern: string, url: unknown): Tri {
  const host = hostOf(url);
  if (host === undefined) return 'unknown';
  const wanted = pattern.toLowerCase();
  if (wanted.startsWith('*.')) return host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1 ? 'yes' : 'no';
  return host === wanted ? 'yes' : 'no';
}
