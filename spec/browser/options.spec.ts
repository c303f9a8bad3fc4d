import { McpClientError } from 'rxmcp';
import { BrowserTokenStore, popupSignIn, redirectSignIn } from 'rxmcp/browser';

// The options of rxmcp/browser, checked when they are given: a page's own
// address stands in for `location` (the checks read nothing else of it).

describe('rxmcp/browser options', () => {
  const saved = (globalThis as { location?: unknown }).location;
  beforeAll(() => {
    (globalThis as { location?: unknown }).location = new URL('https://app.example/tools/index.html');
  });
  afterAll(() => {
    (globalThis as { location?: unknown }).location = saved;
  });

  it('resolves a relative redirect URL against the page, and answers it absolute', () => {
    expect(popupSignIn({ redirectUrl: 'signed-in' }).redirectUrl).toBe('https://app.example/tools/signed-in');
    expect(popupSignIn({ redirectUrl: '/signed-in' }).redirectUrl).toBe('https://app.example/signed-in');
  });

  it('refuses a redirect URL on another origin, or with a query or fragment, for both sign-ins', () => {
    for (const make of [popupSignIn, redirectSignIn] as Array<(options: { redirectUrl: string }) => unknown>) {
      expect(() => make({ redirectUrl: 'https://evil.example/signed-in' })).toThrow(new McpClientError(`option redirectUrl must be on this page's origin "https://app.example"; got "https://evil.example"`));
      expect(() => make({ redirectUrl: 'http://app.example/signed-in' })).toThrow(McpClientError);
      expect(() => make({ redirectUrl: '/signed-in?x=1' })).toThrow('option redirectUrl must hold no query or fragment');
      expect(() => make({ redirectUrl: '/signed-in#x' })).toThrow('option redirectUrl must hold no query or fragment');
      expect(() => make({ redirectUrl: '' })).toThrow(McpClientError);
    }
  });

  it('refuses unknown options and ill-typed values', () => {
    expect(() => popupSignIn({ redirectUrl: '/cb', timeout: 5 } as never)).toThrow(new McpClientError('unknown option: timeout'));
    expect(() => popupSignIn({ redirectUrl: '/cb', timeoutMs: -1 })).toThrow(McpClientError);
    expect(() => popupSignIn({ redirectUrl: '/cb', closedPollMs: 0 })).toThrow('option closedPollMs must be more than 0');
    expect(() => popupSignIn({ redirectUrl: '/cb', timeoutMs: 30 * 24 * 60 * 60 * 1000 })).toThrow('option timeoutMs must be at most 2147483647 ms');
    expect(() => popupSignIn({ redirectUrl: '/cb', features: 42 } as never)).toThrow(McpClientError);
    expect(() => popupSignIn(undefined as never)).toThrow('popupSignIn needs options: { redirectUrl }');
    expect(() => redirectSignIn({ redirectUrl: '/cb', maxAgeMs: Number.NaN })).toThrow(McpClientError);
    expect(() => new BrowserTokenStore({ storage: 'cookie' } as never)).toThrow(new McpClientError(`option storage must be 'session' or 'local'; got "cookie"`));
    expect(() => new BrowserTokenStore({ namespace: '' })).toThrow(McpClientError);
    expect(() => new BrowserTokenStore({ store: 'local' } as never)).toThrow(new McpClientError('unknown option: store'));
  });

  it('keeps tokens in sessionStorage under the rxmcp namespace unless told otherwise', () => {
    expect(new BrowserTokenStore()).toMatchObject({ storage: 'session', namespace: 'rxmcp' });
    expect(new BrowserTokenStore({ storage: 'local', namespace: 'my-app' })).toMatchObject({ storage: 'local', namespace: 'my-app' });
  });

  it('reads as empty, without throwing, where the browser has no storage to give', () => {
    expect(new BrowserTokenStore().get('https://tools.example/mcp')).toBeUndefined();
    expect(() => new BrowserTokenStore().clear('https://tools.example/mcp')).not.toThrow();
    expect(() => new BrowserTokenStore().set('https://tools.example/mcp', { accessToken: 'secret-token', issuer: 'i', clientId: 'c' })).toThrow(
      'sign-in failed at token-store: the browser refused to keep the tokens in sessionStorage (disabled or full)',
    );
  });
});
