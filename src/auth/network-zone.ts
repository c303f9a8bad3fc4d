/**
 * Where a host sits, as far as its name or address alone tells:
 * `this-machine` (loopback, the unspecified address, `localhost` names and
 * the other names distributions give loopback, such as `ip6-localhost`),
 * `link-local` (169.254/16, fe80::/10: cloud metadata services live here),
 * `private` (RFC 1918, CGNAT, unique-local IPv6, and the special-use names
 * `.local`, `.internal`, `.home.arpa` and single labels), `unroutable`
 * (multicast, broadcast, reserved, documentation in IPv4 and IPv6, IPv6 outside global
 * unicast, Teredo, 6to4 relay anycast and other addresses whose real peer cannot be read from
 * them, an address that cannot be read, or a name with an empty label such
 * as `localhost..`), and `public` for everything else. An IPv6 address that
 * carries an IPv4 one (IPv4-mapped, NAT64, 6to4) is in that one's zone. A DNS name is judged by its spelling only:
 * what it resolves to cannot be seen from a browser-safe client.
 */
export type NetworkZone = 'public' | 'private' | 'link-local' | 'this-machine' | 'unroutable';

/**
 * The zone of a URL's host. The WHATWG URL parser has already turned every
 * IPv4 spelling (decimal, hex, octal, short forms, a trailing dot) into a
 * dotted quad and every IPv6 one into its compressed hex form, so only those
 * two forms need reading here.
 */
export function zoneOf(url: URL): NetworkZone {
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[')) return ipv6Zone(host.slice(1, -1));
  if (IPV4.test(host)) return ipv4Zone(ipv4Number(host));
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  // No resolver looks an empty label up the way its spelling suggests.
  if (name.split('.').includes('')) return 'unroutable';
  if (name === 'localhost' || name.endsWith('.localhost') || LOOPBACK_NAMES.includes(name)) return 'this-machine';
  if (!name.includes('.') || PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'private';
  return 'public';
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
// The other names Linux distributions give the loopback addresses in /etc/hosts.
const LOOPBACK_NAMES = ['localhost.localdomain', 'localhost4', 'localhost4.localdomain4', 'localhost6', 'localhost6.localdomain6', 'ip6-localhost', 'ip6-loopback'];
const PRIVATE_SUFFIXES = ['.local', '.internal', '.home.arpa'];

/** IPv4 ranges that are not public, as [first address, prefix length, zone]. */
const IPV4_RANGES: readonly [number, number, NetworkZone][] = [
  [0x00000000, 8, 'this-machine'], // 0/8: 0.0.0.0 reaches this machine
  [0x7f000000, 8, 'this-machine'], // 127/8
  [0x0a000000, 8, 'private'], // 10/8
  [0x64400000, 10, 'private'], // 100.64/10, carrier-grade NAT
  [0xa9fe0000, 16, 'link-local'], // 169.254/16
  [0xac100000, 12, 'private'], // 172.16/12
  [0xc0000000, 24, 'private'], // 192.0.0/24, IETF protocol assignments
  [0xc0000200, 24, 'unroutable'], // 192.0.2/24, documentation (TEST-NET-1)
  [0xc0586300, 24, 'unroutable'], // 192.88.99/24, 6to4 relay anycast: whichever relay answers
  [0xc0a80000, 16, 'private'], // 192.168/16
  [0xc6120000, 15, 'private'], // 198.18/15, benchmarking
  [0xc6336400, 24, 'unroutable'], // 198.51.100/24, documentation (TEST-NET-2)
  [0xcb007100, 24, 'unroutable'], // 203.0.113/24, documentation (TEST-NET-3)
  [0xe0000000, 4, 'unroutable'], // 224/4, multicast
  [0xf0000000, 4, 'unroutable'], // 240/4, reserved, and the broadcast address
];

function ipv4Number(host: string): number {
  return host.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Zone(address: number): NetworkZone {
  for (const [first, prefix, zone] of IPV4_RANGES) {
    if (Math.floor(address / 2 ** (32 - prefix)) === Math.floor(first / 2 ** (32 - prefix))) return zone;
  }
  return 'public';
}

// IPv6 is judged by IANA's special-purpose registry. An address that carries an
// IPv4 one a gateway will reach (IPv4-mapped and -translated, NAT64, 6to4) has
// that address's zone. Public is only what is left of global unicast
// (2000::/3): every other block is reserved, and so unroutable, as are a
// tunnel whose real peer cannot be read from the address (Teredo: an IPv4 peer
// behind a relay, hidden by an XOR) and blocks nobody routes (documentation,
// ORCHID, discard-only, SRv6 segment ids).
function ipv6Zone(text: string): NetworkZone {
  const groups = ipv6Groups(text);
  if (!groups) return 'unroutable';
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const embedded = g6 * 0x10000 + g7;
  const zeroTo = (end: number): boolean => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(7) && (g7 === 0 || g7 === 1)) return 'this-machine'; // :: and ::1
  if (zeroTo(5) && g5 === 0xffff) return ipv4Zone(embedded); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return ipv4Zone(embedded); // ::ffff:0:a.b.c.d, IPv4-translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Zone(embedded); // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private'; // 64:ff9b:1::/48, local-use NAT64
  if (g0 === 0x2002) return ipv4Zone(g1 * 0x10000 + g2); // 6to4
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return 'private'; // fc00::/7 unique-local, fec0::/10 site-local
  // What is left outside global unicast: the rest of ::/8 (IPv4-compatible
  // ::a.b.c.d among it), 64:ff9b::/32, 100::/64 discard-only, 5f00::/16 SRv6,
  // ff00::/8 multicast, and blocks not yet assigned.
  if ((g0 & 0xe000) !== 0x2000) return 'unroutable';
  if (g0 === 0x2001 && g1 === 0) return 'unroutable'; // 2001::/32, Teredo
  if (g0 === 0x2001 && g1 === 2 && g2 === 0) return 'private'; // 2001:2::/48, benchmarking, as 198.18/15
  if (g0 === 0x2001 && ((g1 & 0xfff0) === 0x10 || (g1 & 0xfff0) === 0x20)) return 'unroutable'; // ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28
  if (g0 === 0x2001 && g1 === 0xdb8) return 'unroutable'; // 2001:db8::/32, documentation
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return 'unroutable'; // 3fff::/20, documentation
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address in hex notation, or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const read = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const parts = half.split(':');
    return parts.every((part) => /^[0-9a-f]{1,4}$/.test(part)) ? parts.map((part) => parseInt(part, 16)) : undefined;
  };
  const head = read(halves[0]);
  const tail = read(halves[1]);
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}
