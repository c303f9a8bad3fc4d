import { reachableCsp } from '../../src/apps/csp-reach.js';
import { buildCsp } from '../../src/apps/csp.js';

// MCP Apps, "Security Implications" / CSP: a view's declared origins are
// granted only on the public network, judged by the same zones as the OAuth
// reach rules, unless the host opts in with allowPrivateNetworkOrigins.

// Every spelling the URL parser turns into a host on this machine, link-local or private.
const NOT_PUBLIC = [
  'http://127.0.0.1:8080',
  'http://127.1',
  'http://2130706433',
  'http://0x7f000001',
  'http://0x7f.1',
  'http://017700000001',
  'http://0177.0.0.1',
  'http://0.0.0.0:3000',
  'http://0',
  'http://localhost:3000',
  'https://LOCALHOST',
  'https://api.localhost',
  'https://*.localhost',
  'https://ip6-localhost',
  'http://[::1]:8080',
  'http://[::ffff:127.0.0.1]',
  'http://[::ffff:7f00:1]',
  'http://[::ffff:10.0.0.1]',
  'http://10.1.2.3',
  'http://172.16.0.1',
  'http://172.31.255.254',
  'http://192.168.1.1',
  'http://0xc0a80101',
  'http://169.254.169.254',
  'ws://169.254.169.254',
  'http://[fe80::1]',
  'http://[fc00::1]',
  'http://[fd12:3456::1]',
  'http://[64:ff9b::7f00:1]',
  'http://[2002:7f00:1::]',
  'http://100.64.0.1',
  'https://printer.local',
  'https://metadata.google.internal',
  'https://router.home.arpa',
  'https://intranet',
  'http://*',
];
const PUBLIC = ['https://api.example.com', 'https://*.example.com', 'wss://live.example.org:8443', 'https://8.8.8.8', 'https://172.32.0.1', 'https://[2606:4700::1111]'];

describe('the network a view may declare (MCP Apps: Security Implications, CSP)', () => {
  it.each(NOT_PUBLIC)('refuses the declared origin %s, under every key, by default', (origin) => {
    const declared = { connectDomains: [origin], resourceDomains: [origin], frameDomains: [origin], baseUriDomains: [origin] };
    const { csp, refused } = reachableCsp(declared, false);
    expect(csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
    expect(refused).toHaveLength(4);
    expect(refused[0]).toContain('connectDomains');
    expect(buildCsp(csp)).toBe(buildCsp(undefined));
  });

  it('keeps public origins, in order, beside the refused ones', () => {
    const { csp, refused } = reachableCsp({ connectDomains: [...PUBLIC, 'http://localhost:9', 'http://192.168.0.1'] }, false);
    expect(csp).toEqual({ connectDomains: PUBLIC });
    expect(refused).toEqual([
      'the view\'s connectDomains origin "http://localhost:9" was refused: its host is on this machine (allowPrivateNetworkOrigins: true lets it through)',
      'the view\'s connectDomains origin "http://192.168.0.1" was refused: its host is in a private network (allowPrivateNetworkOrigins: true lets it through)',
    ]);
  });

  it('lets this machine, link-local and private origins through when the host opts in, but never an unroutable one', () => {
    const { csp, refused } = reachableCsp({ connectDomains: ['http://localhost:3001', 'http://169.254.1.1', 'http://10.0.0.2', 'http://224.0.0.1', 'http://255.255.255.255'] }, true);
    expect(csp).toEqual({ connectDomains: ['http://localhost:3001', 'http://169.254.1.1', 'http://10.0.0.2'] });
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('not a unicast address');
  });

  // A wildcard reaches every name under it, so it is judged by the least
  // public of them: `*.localdomain` covers localhost.localdomain, `*.arpa`
  // covers router.home.arpa, though the wildcard's own spelling reads public.
  it.each(['https://*.localdomain', 'http://*.localdomain4:8080', 'wss://*.localdomain6', 'https://*.arpa', 'https://*.LocalDomain'])(
    'refuses the wildcard %s, which covers names of this machine or a private network, opted in or not',
    (origin) => {
      for (const allow of [false, true]) {
        const { csp, refused } = reachableCsp({ connectDomains: [origin, 'https://*.example.com'] }, allow);
        expect(csp).toEqual({ connectDomains: ['https://*.example.com'] });
        expect(refused).toEqual([expect.stringContaining('covers a whole top-level domain')]);
      }
    },
  );

  // The URL parser drops tabs and newlines wherever they are and takes `;`,
  // quotes and `*` in a host, so these read as public origins; a proxy that
  // joins the granted origins into its policy would read keywords, another
  // directive or a loopback source in them. What is not a bare origin is not granted.
  it.each([
    "https://cdn.example.com\n'unsafe-eval'",
    'https://a.example.com\thttp://127.0.0.1:*',
    'https://a.example.com;\tscript-src\t*',
    "https://a.example.com;script-src'unsafe-inline'",
    'http://127.0.0.1@a.example.com',
    'https://a.example.com/path',
    'https://a.example.com:*',
  ])('refuses %j, which the URL parser reads as a public origin but is not a bare origin, opted in or not', (origin) => {
    for (const allow of [false, true]) {
      const { csp, refused } = reachableCsp({ resourceDomains: [origin, 'https://cdn.example.com'] }, allow);
      expect(csp).toEqual({ resourceDomains: ['https://cdn.example.com'] });
      expect(refused).toEqual([expect.stringContaining('it is not an origin')]);
    }
  });

  it('refuses what the URL parser cannot read, opted in or not', () => {
    const { csp, refused } = reachableCsp({ resourceDomains: ['https://*.1', "https://a.example.com; script-src 'unsafe-eval'", 'not an origin'] }, true);
    expect(csp).toEqual({ resourceDomains: [] });
    expect(refused.every((line) => line.endsWith('it is not an origin'))).toBe(true);
  });
});
