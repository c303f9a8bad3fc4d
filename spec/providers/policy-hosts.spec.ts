import { z } from 'zod';
import { type LlmToolCall, Policy, Toolkit } from '../../src/index.js';
import { hostMatch, hostOf } from '../../src/providers/policy/hosts.js';

describe('hosts, read once by the WHATWG parser and checked against a strict reading', () => {
  it('reads a host lowercased, without its port, userinfo or trailing dot', () => {
    expect(hostOf('https://good.org./')).toBe('good.org');
    expect(hostOf('https://GOOD.org:8443/a?b#c')).toBe('good.org');
    expect(hostOf('https://user:pw@good.org/')).toBe('good.org');
    expect(hostOf('http://[::1]:8080/')).toBe('[::1]');
    expect(hostOf('wss://good.org/socket')).toBe('good.org');
  });

  it.each([
    ['http://good.org\\@evil.com/', 'a backslash: WHATWG reads good.org, a strict reader evil.com'],
    ['http://good.org\t@evil.com/', 'a tab WHATWG strips'],
    ['http://go\nod.org/', 'a newline WHATWG strips'],
    [' http://good.org/', 'leading space WHATWG strips'],
    ['http://good%2eorg/', 'a percent-encoded dot'],
    ['http://good.org%2f@evil.com/', 'percent-encoding in the authority'],
    ['http://a@b@evil.com/', 'two @'],
    ['http://evil.com../', 'an empty label'],
    ['http://0x7f.1/', 'an IPv4 address WHATWG respells'],
    ['http://127.1/', 'a short IPv4 address'],
    ['http://ｇｏｏｄ.org/', 'full-width letters IDNA maps'],
    ['http://good。org/', 'an ideographic full stop IDNA maps to a dot'],
    ['http:good.org/', 'no //'],
    ['http:///good.org/', 'three slashes'],
    ['git://good.org/x', 'a scheme that is not special'],
  ])('cannot read %j (%s)', (url) => {
    expect(hostOf(url)).toBeUndefined();
    expect(hostMatch('good.org', url)).toBe('unknown');
  });
});

const call = (id: string, args: object): LlmToolCall => ({ id, function: { name: 'web_fetch', arguments: args } });

function web(): Toolkit {
  return new Toolkit({ name: 'web' }).tool('web_fetch', { input: z.looseObject({}) }, (args) => ({
    content: [{ type: 'text' as const, text: `ran ${JSON.stringify(args)}` }],
  }));
}

const policy = new Policy({
  provider: web(),
  rules: [
    { tool: 'web_fetch', decision: 'allow', host: '*.good.org' },
    { tool: 'web_fetch', decision: 'allow', host: 'good.org' },
    { tool: 'web_fetch', decision: 'deny', host: 'evil.com', note: 'never there' },
  ],
});

async function outcome(args: object): Promise<string> {
  const [answer] = await policy.executeToolCalls([call('1', args)]);
  const content = String(answer?.content);
  return content.startsWith('ran ') ? 'allowed' : content.startsWith('Denied by policy') ? 'denied' : 'asked';
}

describe('a Policy allowing good.org and denying evil.com', () => {
  it('denies evil.com spelled with a trailing dot', async () => {
    expect(await outcome({ url: 'https://evil.com./' })).toBe('denied');
  });

  it.each([
    [{ url: 'http://good.org\\@evil.com/' }],
    [{ url: 'https://good%2eorg/' }],
    [{ url: 'http:good.org/' }],
  ])('does not allow a URL two parsers read differently: %j', async (args) => {
    expect(await outcome(args)).not.toBe('allowed');
  });

  it.each([
    [{ url: 'https://good.org/', href: 'https://evil.com/' }],
    [{ url: 'https://good.org/', uri: 'https://evil.com/' }],
    [{ url: 'https://good.org/', endpoint: 'https://evil.com/' }],
    [{ url: 'https://good.org/', baseUrl: 'https://evil.com/' }],
    [{ url: 'https://good.org/', options: { proxy: 'http://evil.com:3128' } }],
    [{ url: 'https://good.org/', links: ['https://good.org/b', 'https://evil.com/'] }],
    [{ url: 'https://good.org/', host: 'evil.com' }],
  ])('reads every URL in the arguments, and denies when any is evil.com: %j', async (args) => {
    expect(await outcome(args)).toBe('denied');
  });

  it.each([
    [{ url: 'https://good.org/', proxy: 'evil.com:3128' }],
    [{ url: 'https://good.org/', options: { httpsProxy: 'evil.com' } }],
    [{ url: 'https://good.org/', server: 'evil.com' }],
  ])('reads a bare host under proxy and server keys too: %j is denied', async (args) => {
    expect(await outcome(args)).toBe('denied');
  });

  it.each([
    [{ url: 'https://good.org/', body: '{"requests":[{"url":"https://evil.com/x"}]}' }],
    [{ url: 'https://good.org/', options: '{"proxy":"evil.com:3128"}' }],
    [{ url: 'https://good.org/', body: "{'next':'https://evil.com/x',}" }],
  ])('reads URLs inside JSON held in a string, beside a decoy url (found by an attack review): %j is denied', async (args) => {
    expect(await outcome(args)).toBe('denied');
  });

  it('reads an address under an ip key as a host no allow rule covers', async () => {
    expect(await outcome({ url: 'https://good.org/', resolveTo: { ip: '203.0.113.7' } })).toBe('asked');
  });

  it('allows only when every URL is on an allowed host', async () => {
    expect(await outcome({ url: 'https://good.org/a' })).toBe('allowed');
    expect(await outcome({ url: 'https://docs.good.org/a', headers: { accept: 'text/html' } })).toBe('allowed');
    expect(await outcome({ url: 'https://good.org/', links: ['https://good.org/b'] })).toBe('allowed');
    // Each allow rule must cover every URL by itself.
    expect(await outcome({ url: 'https://good.org/', links: ['https://docs.good.org/b'] })).toBe('asked');
    expect(await outcome({ url: 'https://good.org/', links: ['https://elsewhere.net/b'] })).toBe('asked');
    expect(await outcome({ url: 'https://good.org/', referrer: 'ftp://elsewhere.net/' })).toBe('asked');
  });
});
