import { zoneOf } from '../../src/auth/network-zone.js';
import { OAuthReach } from '../../src/auth/oauth-reach.js';
import { McpAuthError } from '../../src/index.js';

const zone = (url: string) => zoneOf(new URL(url));

describe('the network zone of a host, in every spelling the URL parser accepts', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://127.255.255.254/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:7f00:0001]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('%s is this machine', (url) => expect(zone(url)).toBe('this-machine'));

  it.each([
    'https://169.254.169.254/',
    'https://2852039166/',
    'https://[::ffff:169.254.169.254]/',
    'https://[fe80::1]/',
    'https://[febf:ffff::1]/',
  ])('%s is link-local', (url) => expect(zone(url)).toBe('link-local'));

  it.each([
    'https://10.0.0.1/',
    'https://10.255.255.255/',
    'https://0xa000001/',
    'https://012.0.0.1/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://100.127.255.255/',
    'https://198.18.0.1/',
    'https://192.0.0.170/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:192.168.0.1]/',
    'https://[64:ff9b::a00:1]/',
    'https://[2002:c0a8:101::1]/',
    'https://intranet/',
    'https://metadata.google.internal/',
    'https://printer.local./',
    'https://router.home.arpa/',
  ])('%s is private', (url) => expect(zone(url)).toBe('private'));

  it.each(['https://224.0.0.1/', 'https://255.255.255.255/', 'https://240.0.0.1/', 'https://[ff02::1]/', 'https://[::7f00:1]/'])('%s is unroutable', (url) =>
    expect(zone(url)).toBe('unroutable'),
  );

  // Tunnel and transition prefixes (IANA's IPv6 special-purpose registry): an
  // address that carries an IPv4 one is judged by it; one whose real peer
  // cannot be read from it, or that nobody routes, is never public.
  it.each([
    ['Teredo (2001::/32), whose peer hides behind a relay', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['Teredo with loopback as its obfuscated client', 'https://[2001::80ff:fffe]/'],
    ['Teredo at its first address', 'https://[2001::]/'],
    ['ORCHID (2001:10::/28)', 'https://[2001:10::1]/'],
    ['ORCHIDv2 (2001:20::/28)', 'https://[2001:2f::1]/'],
    ['documentation (2001:db8::/32)', 'https://[2001:db8::1]/'],
    ['documentation (3fff::/20)', 'https://[3fff:fff::1]/'],
    ['discard-only (100::/64)', 'https://[100::1]/'],
    ['the dummy prefix (100:0:0:1::/64)', 'https://[100:0:0:1::1]/'],
    ['SRv6 segment ids (5f00::/16)', 'https://[5f00::1]/'],
    ['the rest of ::/8, reserved', 'https://[::1:0:0:1]/'],
    ['an unassigned part of 64:ff9b::/32', 'https://[64:ff9b:2::1]/'],
    ['anything outside 2000::/3, unassigned', 'https://[4000::1]/'],
    ['6to4 carrying multicast', 'https://[2002:e000:1::1]/'],
    ['IPv4 documentation, TEST-NET-1 (192.0.2.0/24)', 'https://192.0.2.1/'],
    ['IPv4 documentation, TEST-NET-2 (198.51.100.0/24)', 'https://198.51.100.7/'],
    ['IPv4 documentation, TEST-NET-3 (203.0.113.0/24)', 'https://203.0.113.255/'],
    ['the 6to4 relay anycast prefix (192.88.99.0/24), a tunnel to whichever relay answers', 'https://192.88.99.1/'],
    ['6to4 carrying TEST-NET-1', 'https://[2002:c000:201::1]/'],
  ])('%s is not public but unroutable', (_name, url) => expect(zone(url)).toBe('unroutable'));

  it.each([
    ['6to4 (2002::/16) carrying 127.0.0.1', 'this-machine', 'https://[2002:7f00:1::1]/'],
    ['6to4 carrying 169.254.169.254', 'link-local', 'https://[2002:a9fe:a9fe::]/'],
    ['6to4 carrying 10.1.2.3', 'private', 'https://[2002:a01:203::1]/'],
    ['NAT64 (64:ff9b::/96) carrying 127.0.0.1', 'this-machine', 'https://[64:ff9b::127.0.0.1]/'],
    ['NAT64 carrying 169.254.169.254', 'link-local', 'https://[64:ff9b::a9fe:a9fe]/'],
    ['local-use NAT64 (64:ff9b:1::/48)', 'private', 'https://[64:ff9b:1::808:808]/'],
    ['IPv4-translated (::ffff:0:0:0/96) carrying 127.0.0.1', 'this-machine', 'https://[::ffff:0:7f00:1]/'],
    ['IPv4-translated carrying 10.0.0.1', 'private', 'https://[::ffff:0:a00:1]/'],
    ['benchmarking (2001:2::/48)', 'private', 'https://[2001:2::1]/'],
  ])('%s is %s', (_name, expected, url) => expect(zone(url)).toBe(expected));

  it.each([
    ['6to4 carrying 8.8.8.8', 'https://[2002:808:808::1]/'],
    ['NAT64 carrying 8.8.8.8', 'https://[64:ff9b::808:808]/'],
    ['AMT (2001:3::/32), globally reachable', 'https://[2001:3::1]/'],
    ['global unicast next to Teredo', 'https://[2001:200::1]/'],
  ])('%s stays public', (_name, url) => expect(zone(url)).toBe('public'));

  it.each([
    'https://auth.example.com/',
    'https://8.8.8.8/',
    'https://172.15.255.255/',
    'https://172.32.0.1/',
    'https://100.63.255.255/',
    'https://100.128.0.1/',
    'https://169.253.0.1/',
    'https://[2001:4860:4860::8888]/',
    'https://[::ffff:8.8.8.8]/',
    'https://localhost.example.com/',
  ])('%s is public', (url) => expect(zone(url)).toBe('public'));
});

describe('where OAuth requests may go', () => {
  const refused = (server: string, endpoint: string, allowPrivateNetwork = false) => {
    try {
      new OAuthReach(new URL(server), allowPrivateNetwork).check(new URL(endpoint), 'server-metadata');
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(McpAuthError);
      return (error as Error).message;
    }
  };

  it('lets a remote server point only at public https endpoints', () => {
    expect(refused('https://mcp.example.com/mcp', 'https://auth.example.com/token')).toBeUndefined();
    expect(refused('https://mcp.example.com/mcp', 'http://127.0.0.1:9000/token')).toMatch(/on this machine, and the MCP server is not/);
    expect(refused('https://mcp.example.com/mcp', 'https://[::ffff:7f00:1]/token')).toMatch(/on this machine/);
    expect(refused('https://mcp.example.com/mcp', 'https://169.254.169.254/latest')).toMatch(/link-local/);
    expect(refused('https://mcp.example.com/mcp', 'https://10.0.0.1/token')).toMatch(/private network.*allowPrivateNetwork/);
    expect(refused('https://mcp.example.com/mcp', 'http://auth.example.com/token')).toMatch(/in the clear/);
    expect(refused('https://mcp.example.com/mcp', 'https://224.0.0.1/token')).toMatch(/not a unicast address/);
    expect(refused('https://mcp.example.com/mcp', 'ftp://auth.example.com/token')).toMatch(/not an http\(s\) URL/);
  });

  it('lets private addresses in with allowPrivateNetwork, but never loopback, link-local or plain http', () => {
    expect(refused('https://mcp.example.com/mcp', 'https://10.0.0.1/token', true)).toBeUndefined();
    expect(refused('https://mcp.example.com/mcp', 'https://auth.internal/token', true)).toBeUndefined();
    expect(refused('https://mcp.example.com/mcp', 'http://10.0.0.1/token', true)).toMatch(/in the clear/);
    expect(refused('https://mcp.example.com/mcp', 'https://127.0.0.1/token', true)).toMatch(/on this machine/);
    expect(refused('https://mcp.example.com/mcp', 'https://169.254.169.254/token', true)).toMatch(/link-local/);
  });

  it.each(['https://localhost.localdomain/token', 'https://ip6-localhost/token', 'https://localhost4:8443/token', 'https://LOCALHOST6.localdomain6./token'])(
    'refuses %s, another name of loopback, to a remote server even with allowPrivateNetwork',
    (endpoint) => {
      expect(refused('https://mcp.example.com/mcp', endpoint)).toMatch(/on this machine, and the MCP server is not/);
      expect(refused('https://mcp.example.com/mcp', endpoint, true)).toMatch(/on this machine, and the MCP server is not/);
    },
  );

  it('refuses Teredo and documentation addresses even to a server on one, and with allowPrivateNetwork', () => {
    expect(refused('https://mcp.example.com/mcp', 'https://[2001::80ff:fffe]/token', true)).toMatch(/not a unicast address/);
    expect(refused('https://[2001:0:4136:e378::1]/mcp', 'https://[2001:0:4136:e378::2]/token')).toMatch(/tunnel/);
    expect(refused('https://mcp.example.com/mcp', 'https://[2002:7f00:1::1]/token', true)).toMatch(/on this machine/);
  });

  it('refuses a host with an empty label, which no resolver reads as spelled', () => {
    expect(refused('https://mcp.example.com/mcp', 'https://localhost../token')).toMatch(/not a unicast address/);
    expect(refused('https://mcp.example.com/mcp', 'https://auth..example.com/token')).toMatch(/not a unicast address/);
  });

  it('lets a server on this machine use an authorization server on this machine, over plain http too', () => {
    expect(refused('http://127.0.0.1:3000/mcp', 'http://localhost:9000/token')).toBeUndefined();
    expect(refused('http://localhost:3000/mcp', 'http://[::1]:9000/token')).toBeUndefined();
    expect(refused('http://127.0.0.1:3000/mcp', 'https://auth.example.com/token')).toBeUndefined();
    expect(refused('http://127.0.0.1:3000/mcp', 'https://10.0.0.1/token')).toMatch(/private network/);
  });

  it('lets a server in a private network use an authorization server there, over https only', () => {
    expect(refused('https://10.0.0.5/mcp', 'https://10.0.0.6/token')).toBeUndefined();
    expect(refused('https://mcp.corp.internal/mcp', 'https://192.168.1.2/token')).toBeUndefined();
    expect(refused('https://10.0.0.5/mcp', 'http://10.0.0.6/token')).toMatch(/in the clear/);
    expect(refused('https://10.0.0.5/mcp', 'http://127.0.0.1/token')).toMatch(/on this machine/);
  });
});
