import { zoneOf } from '../auth/network-zone.js';
import { quote } from '../util/quote.js';
import type { AppCsp } from './app-resource.js';

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** A resource's CSP declaration with the origins the host will not grant taken out. */
export interface ReachableCsp {
  /** What is left of the declaration (same keys, fewer origins). */
  csp: AppCsp;
  /** One sentence per origin taken out, saying why. */
  refused: string[];
}

/**
 * Takes out of a view's declared CSP origins every one whose host is not on
 * the public network, judged as the OAuth reach rules judge an endpoint
 * (`zoneOf`): this machine (loopback in any spelling the URL parser reads,
 * `0.0.0.0`, `localhost` and `*.localhost`), link-local (169.254/16,
 * fe80::/10), private (RFC 1918, unique-local, `.local`, `.internal`, single
 * labels) and unroutable addresses. A view is a server's code running in the
 * user's browser: without this, a declaration is all it takes for it to
 * talk to the user's own services, the router or the cloud metadata service
 * from inside the user's network. `allowPrivateNetwork` lets the first three
 * zones through (a host developing against a local server); unroutable
 * origins never pass, nor does a wildcard over a whole top-level domain
 * that reads as public (`*.localdomain` covers `localhost.localdomain`),
 * nor anything but a bare `http(s)://` or `ws(s)://` origin (the shape
 * `buildCsp` keeps, or an IPv6 literal). An origin the URL parser cannot read is taken out as
 * well: what cannot be judged is not granted.
 */
export function reachableCsp(csp: AppCsp, allowPrivateNetwork: boolean): ReachableCsp {
  const kept: AppCsp = {};
  const refused: string[] = [];
  for (const key of CSP_KEYS) {
    const list = csp[key];
    if (list === undefined) continue;
    kept[key] = list.filter((origin) => {
      const zone = zoneOfOrigin(origin);
      if (zone === 'public' && wholeTopLevel(origin)) {
        refused.push(`the view's ${key} origin ${quote(origin.slice(0, 200))} was refused: it covers a whole top-level domain`);
        return false;
      }
      if (zone === 'public' || (allowPrivateNetwork && zone !== undefined && zone !== 'unroutable')) return true;
      const why = zone === undefined ? 'it is not an origin' : `its host is ${zone === 'unroutable' ? 'not a unicast address' : PLACES[zone]}`;
      const hint = zone === undefined || zone === 'unroutable' ? '' : ' (allowPrivateNetworkOrigins: true lets it through)';
      refused.push(`the view's ${key} origin ${quote(origin.slice(0, 200))} was refused: ${why}${hint}`);
      return false;
    });
  }
  return { csp: kept, refused };
}

const PLACES = { 'this-machine': 'on this machine', 'link-local': 'link-local', private: 'in a private network' } as const;

// A wildcard reaches every name under it, and zoneOf singles out names of
// this machine and private networks under top-level domains that read as
// public (`localhost.localdomain`, `router.home.arpa`): `*.localdomain` and
// `*.arpa` spell public, yet grant those. No view needs a whole top-level
// domain, so such a wildcard is refused, opted in or not (`*.localhost`,
// `*.local` and the like keep their own zone, and the opt-in).
function wholeTopLevel(origin: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return hostname.startsWith('*.') && !hostname.slice(2).replace(/\.$/, '').includes('.');
  } catch {
    return false;
  }
}

// The shape buildCsp keeps (its own copy: its source runs in the proxy
// page), and an IPv6 literal, judged like any host. The URL parser alone
// would pass more: it drops tabs and newlines
// anywhere and takes `;`, quotes and `*` in a host, so
// "https://a.com\n'unsafe-eval'" reads as a public origin, and a proxy
// that joins what is granted into its policy would read a keyword, another
// directive or a loopback source in it.
const BARE_ORIGIN = /^(https?|wss?):\/\/((\*\.)?[a-z0-9]([a-z0-9-]{0,62})?(\.[a-z0-9]([a-z0-9-]{0,62})?)*|\[[0-9a-f:.]{2,45}\])(:[0-9]{1,5})?$/i;

// A wildcard label reads as a label: `*.localhost` is still this machine.
function zoneOfOrigin(origin: string): ReturnType<typeof zoneOf> | undefined {
  if (!BARE_ORIGIN.test(origin)) return undefined;
  try {
    return zoneOf(new URL(origin));
  } catch {
    return undefined;
  }
}
