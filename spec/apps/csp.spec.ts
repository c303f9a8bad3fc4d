import { buildCsp, permissionsAllow, sandboxProxyHtml, VIEW_SANDBOX } from '../../src/apps/index.js';
import { injectCsp } from '../../src/apps/csp.js';

// The sandbox's policies: the CSP a view runs under, the features its frame
// may use, and the proxy page that applies them.

const directives = (policy: string): Record<string, string[]> =>
  Object.fromEntries(policy.split('; ').map((directive) => {
    const [name = '', ...sources] = directive.split(' ');
    return [name, sources];
  }));

describe('the CSP a view runs under', () => {
  it('is the spec\'s restrictive default when the resource declares none, less \'self\' as a source of resources, with objects, frames, forms and bases shut', () => {
    expect(directives(buildCsp(undefined))).toEqual({
      'default-src': ["'none'"],
      'script-src': ["'unsafe-inline'"],
      'style-src': ["'unsafe-inline'"],
      'img-src': ['data:'],
      'media-src': ['data:'],
      'font-src': ["'none'"],
      'connect-src': ["'none'"],
      'frame-src': ["'none'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      'form-action': ["'none'"],
    });
    expect(buildCsp({})).toBe(buildCsp(undefined));
  });

  it('adds exactly the declared origins, each where the spec maps it', () => {
    const policy = directives(
      buildCsp({
        connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com'],
      }),
    );
    expect(policy['connect-src']).toEqual(['https://api.example.com', 'wss://live.example.com:8443']);
    for (const name of ['script-src', 'style-src', 'img-src', 'media-src', 'font-src']) expect(policy[name]).toContain('https://*.cdn.example.com');
    expect(policy['frame-src']).toEqual(['https://www.youtube.com']);
    expect(policy['base-uri']).toEqual(['https://cdn.example.com']);
    expect(policy['default-src']).toEqual(["'none'"]);
  });

  it.each([
    ["https://evil.example.com; script-src 'unsafe-eval'", 'a directive smuggled after ;'],
    ['https://a.example.com https://b.example.com', 'two sources in one entry'],
    ["'unsafe-eval'", 'a keyword'],
    ["https://a.example.com'", 'a quote'],
    ['*', 'a bare wildcard'],
    ['https://*', 'a wildcard host'],
    ['https:', 'a scheme alone'],
    ['data:', 'a data: source'],
    ['blob:', 'a blob: source'],
    ['javascript://example.com', 'another scheme'],
    ['https://example.com/path', 'a path'],
    ['https://example.com\n', 'a line break'],
    ['https://exa,mple.com', 'a comma'],
    ['https://user@example.com', 'credentials'],
    ['https://example.com:99999999', 'a port past five digits'],
    ['', 'nothing'],
  ])('drops %j (%s), so the policy is never looser than declared', (origin) => {
    const policy = buildCsp({ connectDomains: [origin], resourceDomains: [origin], frameDomains: [origin], baseUriDomains: [origin] });
    expect(policy).toBe(buildCsp(undefined));
  });

  it('ignores declarations that are not lists of strings, and keys the spec does not name', () => {
    expect(buildCsp({ connectDomains: 'https://api.example.com', resourceDomains: [42, null, { origin: 'https://x.example.com' }], scriptDomains: ['https://x.example.com'] })).toBe(buildCsp(undefined));
    expect(buildCsp('connect-src *')).toBe(buildCsp(undefined));
    expect(buildCsp(JSON.parse('{"__proto__": {"connectDomains": ["https://x.example.com"]}}'))).toBe(buildCsp(undefined));
  });

  it('keeps at most 64 origins per list, each once', () => {
    const many = Array.from({ length: 100 }, (_, n) => `https://h${n}.example.com`);
    const policy = directives(buildCsp({ connectDomains: [...many, ...many] }));
    expect(policy['connect-src']).toHaveLength(64);
  });
});

describe('the features a view\'s frame may use', () => {
  it('maps the four permissions the spec names to the iframe allow attribute', () => {
    expect(permissionsAllow({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} })).toBe('camera; microphone; geolocation; clipboard-write');
    expect(permissionsAllow({ clipboardWrite: {} })).toBe('clipboard-write');
  });

  it('grants nothing else: unknown features, values that are not objects, and nothing at all', () => {
    expect(permissionsAllow({ bluetooth: {}, usb: {}, 'camera *; usb': {}, camera: true, microphone: 'yes' })).toBe('');
    expect(permissionsAllow(undefined)).toBe('');
    expect(permissionsAllow(['camera'])).toBe('');
  });
});

describe('the policy in the view\'s document', () => {
  it('comes first, right after a leading doctype, as a meta element', () => {
    expect(injectCsp('<!DOCTYPE html><html><head><script>1</script>', "default-src 'none'")).toBe(
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><html><head><script>1</script>`,
    );
    expect(injectCsp('<script>1</script><!doctype html>', 'x')).toBe('<meta http-equiv="Content-Security-Policy" content="x"><script>1</script><!doctype html>');
  });

  it('never lands after a character the parser starts the body with (a no-break space before the doctype)', () => {
    const meta = '<meta http-equiv="Content-Security-Policy" content="x">';
    expect(injectCsp('\u00a0<!doctype html><script>1</script>', 'x')).toBe(`${meta}\u00a0<!doctype html><script>1</script>`);
    expect(injectCsp('\u2028<!doctype html>', 'x')).toBe(`${meta}\u2028<!doctype html>`);
    expect(injectCsp('\ufeff <!doctype html><p>', 'x')).toBe(` <!doctype html>${meta}<p>`);
    expect(injectCsp('\r\n\t\f <!doctype html><p>', 'x')).toBe(`\r\n\t\f <!doctype html>${meta}<p>`);
  });

  it('escapes the policy so it cannot end its attribute', () => {
    expect(injectCsp('', 'a"><script>')).toBe('<meta http-equiv="Content-Security-Policy" content="a&quot;&gt;&lt;script&gt;">');
  });
});

describe('the sandbox proxy page', () => {
  const scriptOf = (html: string): string => /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';

  it('is one inline script that parses, carrying the policy builders and the view\'s sandbox flags', () => {
    const script = scriptOf(sandboxProxyHtml());
    expect(() => new Function(script)).not.toThrow();
    expect(script).toContain(JSON.stringify(VIEW_SANDBOX));
    expect(script).toContain("default-src 'none'");
    expect(VIEW_SANDBOX.split(' ')).not.toContain('allow-same-origin');
  });

  it('pins the host origin it is given, and nothing when it is not', () => {
    expect(scriptOf(sandboxProxyHtml({ hostOrigin: 'https://chat.example.com/some/page' }))).toMatch(/\)\("https:\/\/chat\.example\.com", /);
    expect(scriptOf(sandboxProxyHtml())).toMatch(/\)\(null, /);
  });
});
