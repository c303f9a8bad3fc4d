import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/apps-harness.js';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';
import { registerWebClient, type SignInPages, startSignInPages } from '../support/sign-in-harness.js';

// Signing in from a web page, in real Chromium, against the real
// authorization server (oidc-provider) and the MCP server it protects: the
// page on one origin, the MCP server on a second, the authorization server
// on a third. The person's part (the sign-in and consent forms the
// authorization server renders) is played by clicking in those pages.

describe('signing in from a web page, in Chromium', () => {
  let servers: OAuthServers;
  let pages: SignInPages;
  let browser: Browser;
  // Every console line of every page, every error a call ended with, and every secret seen: checked by the last test.
  const consoleLines: string[] = [];
  const errors: string[] = [];
  const secrets = new Set<string>();
  // The authorization codes seen in any page's address, in order.
  const codes: string[] = [];

  beforeAll(async () => {
    servers = await startOAuthServers();
    pages = await startSignInPages(servers.url, (origin) => registerWebClient(servers.issuer, origin));
    browser = await launchChromium();
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([pages?.stop(), servers?.stop()]);
  });

  /** A fresh browser profile (no cookies, no storage), with its console and every code in a URL recorded. */
  async function freshContext(): Promise<BrowserContext> {
    const context = await browser.newContext();
    context.on('page', (opened) => watch(opened));
    return context;
  }

  function watch(page: Page): void {
    page.on('console', (message) => consoleLines.push(message.text()));
    page.on('pageerror', (error) => consoleLines.push(`${error.name}: ${error.message}`));
    page.on('framenavigated', (frame) => {
      const code = new URL(frame.url()).searchParams.get('code');
      if (code) {
        secrets.add(code);
        codes.push(code);
      }
    });
  }

  /** Plays the person in the authorization server's pages: signs in, then allows access. */
  async function consent(page: Page): Promise<void> {
    await page.waitForSelector('text=Sign in', { timeout: 20000 });
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Allow access', { timeout: 20000 });
    await page.click('button[type=submit]');
  }

  async function open(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${pages.origin}${path}`);
    await page.waitForFunction(() => window.signInPage !== undefined);
    return page;
  }

  async function outcome(page: Page): Promise<{ tools?: string[]; error?: { name: string; step?: string; message: string } }> {
    await page.waitForFunction(() => window.signInPage.tools !== undefined || window.signInPage.error !== undefined, undefined, { timeout: 30000 });
    const result = await page.evaluate(() => ({ tools: window.signInPage.tools, error: window.signInPage.error }));
    if (result.error) errors.push(result.error.message);
    return result;
  }

  /** Keeps the tokens the page's store holds, and the verifiers its sign-ins used, as secrets. */
  async function collectSecrets(page: Page): Promise<void> {
    const tokens = (await page.evaluate((key) => window.signInPage.readTokens(key), servers.url)) as Record<string, unknown> | undefined;
    for (const name of ['accessToken', 'refreshToken', 'clientSecret']) if (typeof tokens?.[name] === 'string') secrets.add(tokens[name] as string);
    for (const verifier of await page.evaluate(() => window.signInPage.verifiers())) secrets.add(verifier);
  }

  it('signs in through a popup opened from the click, and the call goes through; the tokens outlive a reload', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#sign-in')]);
      await consent(popup);
      await popup.waitForEvent('close', { timeout: 20000 });
      const { tools, error } = await outcome(page);
      expect(error).toBeUndefined();
      expect(tools).toContain('add');
      expect(await page.evaluate(() => window.signInPage.states)).toEqual(['signing-in', 'signed-in']);
      const tokens = (await page.evaluate((key) => window.signInPage.readTokens(key), servers.url)) as Record<string, unknown>;
      expect(tokens).toMatchObject({ issuer: servers.issuer, accessToken: expect.any(String) });
      await collectSecrets(page);

      // sessionStorage keeps them across a reload: the call needs no sign-in.
      await page.reload();
      await page.waitForFunction(() => window.signInPage !== undefined);
      await page.click('#call');
      expect((await outcome(page)).tools).toContain('add');
      expect(await page.evaluate(() => window.signInPage.states)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90000);

  it('keeps its sign-in window to itself: a window another sign-in (or script) opens by name does not take it over', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#sign-in')]);
      await popup.waitForSelector('text=Sign in');
      // What a second popupSignIn on the page (another server's client) does when its button is clicked.
      const [other] = await Promise.all([context.waitForEvent('page'), page.evaluate((url) => void window.open(url, 'rxmcp-sign-in', 'popup'), `${pages.origin}/blank`)]);
      await other.waitForLoadState();
      expect(new URL(popup.url()).origin).toBe(servers.issuer);
      await other.close();
      await consent(popup);
      await popup.waitForEvent('close', { timeout: 20000 });
      expect((await outcome(page)).tools).toContain('add');
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 90000);

  it('abandons the sign-in with McpAuthError when the person closes the window', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#sign-in')]);
      await popup.waitForSelector('text=Sign in');
      await popup.close();
      const { tools, error } = await outcome(page);
      expect(tools).toBeUndefined();
      expect(error).toEqual({ name: 'McpAuthError', step: 'authorize', message: 'sign-in failed at authorize: the sign-in window was closed before signing in finished' });
      expect(await page.evaluate(() => window.signInPage.waiting())).toBe(false);
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 60000);

  it('fails at once, saying what to do, when the browser refuses the window', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      // No sign-in waits yet: open() does nothing.
      expect(await page.evaluate(() => window.signInPage.waiting())).toBe(false);
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      // A popup blocker's answer: window.open returns null.
      await page.evaluate(() => {
        window.open = () => null;
      });
      const started = Date.now();
      await page.click('#sign-in');
      const { error } = await outcome(page);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(error?.name).toBe('McpAuthError');
      expect(error?.step).toBe('authorize');
      expect(error?.message).toContain('the browser refused to open the sign-in window');
      expect(error?.message).toContain('from a click or key handler');
      expect(error?.message).toContain('redirectSignIn');
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 60000);

  it('ignores answers from another origin, from another window, or with another state, and takes the right one', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#sign-in')]);
      await popup.waitForSelector('text=Sign in');
      const waitingUrl = new URL((await page.evaluate(() => window.signInPage.waitingUrl)) as string);
      const state = waitingUrl.searchParams.get('state') as string;
      const forged = (withState: string): string => `${pages.origin}/popup/signed-in?code=forged-code&state=${encodeURIComponent(withState)}&iss=${encodeURIComponent(servers.issuer)}`;
      // From the sign-in window while it shows the authorization server's page: the right state, the wrong origin.
      await popup.evaluate((url) => window.opener.postMessage({ type: 'rxmcp-sign-in', url }, '*'), forged(state));
      // From the page itself: the right origin and state, the wrong window.
      await page.evaluate((url) => window.postMessage({ type: 'rxmcp-sign-in', url }, location.origin), forged(state));
      // From the sign-in window on the page's own origin, with another state.
      await popup.goto(`${pages.origin}/blank`);
      await popup.evaluate((url) => window.opener.postMessage({ type: 'rxmcp-sign-in', url }, location.origin), forged('another-state'));
      // From there too, the right state but hostile shapes: too long, not a string, not an object, another message type.
      await popup.evaluate((url) => {
        for (const message of [{ type: 'rxmcp-sign-in', url: `${url}&pad=${'x'.repeat(9000)}` }, { type: 'rxmcp-sign-in', url: { href: url } }, url, { type: 'other', url }]) {
          window.opener.postMessage(message, location.origin);
        }
      }, forged(state));
      await page.waitForTimeout(1000);
      expect(await page.evaluate(() => ({ tools: window.signInPage.tools, error: window.signInPage.error, waiting: window.signInPage.waiting() }))).toEqual({ waiting: true });
      expect(servers.authorizationServer.stderr.some((line) => line.startsWith('token ') && line.includes('forged'))).toBe(false);
      // The person carries on in the same window, and the real answer is taken.
      await popup.goto(waitingUrl.href);
      await consent(popup);
      await popup.waitForEvent('close', { timeout: 20000 });
      expect((await outcome(page)).tools).toContain('add');
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 90000);

  it('finishSignIn leaves alone a window whose address holds no answer, or whose opener is on another origin', async () => {
    const context = await freshContext();
    try {
      // The redirect page opened by a page of its own origin, with no answer in its address (an app whose redirect page is its start page, opened in a new window).
      const same = await context.newPage();
      await same.goto(`${pages.origin}/blank`);
      const [plain] = await Promise.all([same.waitForEvent('popup'), same.evaluate((url) => void window.open(url, '_blank', 'popup'), `${pages.origin}/popup/signed-in`)]);
      await plain.waitForSelector('text=No window opened this page.', { timeout: 10000 });
      expect(plain.isClosed()).toBe(false);
      // Opened by a page of another origin, with an answer in its address (a redirect sign-in in a tab another site opened): it is that tab's, not the opener's.
      const foreign = await context.newPage();
      await foreign.goto(`${pages.origin.replace('127.0.0.1', 'localhost')}/blank`);
      const answer = `${pages.origin}/popup/signed-in?code=some-code&state=some-state&iss=${encodeURIComponent(servers.issuer)}`;
      const [tab] = await Promise.all([foreign.waitForEvent('popup'), foreign.evaluate((url) => void window.open(url, '_blank', 'popup'), answer)]);
      await tab.waitForSelector('text=No window opened this page.', { timeout: 10000 });
      expect(tab.isClosed()).toBe(false);
    } finally {
      await context.close();
    }
  }, 60000);

  it('signs in by leaving the page and coming back; the answer leaves the address bar and cannot be used twice', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/redirect');
      await page.click('#call');
      await page.waitForURL((url) => url.origin === servers.issuer, { timeout: 20000 });
      await consent(page);
      await page.waitForURL((url) => url.origin === pages.origin, { timeout: 20000 });
      await page.waitForFunction(() => window.signInPage !== undefined);
      const { tools, error } = await outcome(page);
      expect(error).toBeUndefined();
      expect(tools).toContain('add');
      expect(page.url()).toBe(`${pages.origin}/redirect`);
      expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('rxmcp:pending-sign-in:')))).toEqual([]);
      await collectSecrets(page);

      // The same answer again (the Back button, a bookmark): refused, and nothing sent to the token endpoint.
      const code = codes.at(-1) as string;
      const tokenRequests = servers.authorizationServer.stderr.filter((line) => line.startsWith('token ')).length;
      await page.evaluate((key) => sessionStorage.removeItem(`rxmcp:tokens:${key}`), servers.url);
      await page.goto(`${pages.origin}/redirect?code=${encodeURIComponent(code)}&state=used-or-foreign&iss=${encodeURIComponent(servers.issuer)}`);
      await page.waitForFunction(() => window.signInPage !== undefined);
      const replayed = await outcome(page);
      expect(replayed.error).toMatchObject({ name: 'McpAuthError', step: 'callback' });
      expect(replayed.error?.message).toContain('no sign-in of this tab is waiting for');
      expect(page.url()).toBe(`${pages.origin}/redirect`);
      expect(servers.authorizationServer.stderr.filter((line) => line.startsWith('token ')).length).toBe(tokenRequests);
    } finally {
      await context.close();
    }
  }, 90000);

  it('stops leaving the page after a few sign-ins in a row that the server keeps refusing, instead of looping', async () => {
    const context = await freshContext();
    try {
      // The MCP server refuses every token it is sent (a hostile or broken server): each fresh sign-in's token comes back 401.
      await context.route(`${servers.url}*`, async (route) => {
        if (route.request().headers()['authorization'] === undefined) return route.continue();
        return route.fulfill({
          status: 401,
          headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'www-authenticate', 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' },
          body: '{"error":"invalid_token"}',
        });
      });
      // And, as many authorization servers do for a page, it renews no token: each renewal is a new sign-in.
      await context.route(`${servers.issuer}/**`, async (route) => {
        if (!route.request().postData()?.includes('grant_type=refresh_token')) return route.continue();
        return route.fulfill({ status: 400, headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' }, body: '{"error":"invalid_grant"}' });
      });
      const page = await open(context, '/redirect');
      await page.click('#call');
      let leaves = 0;
      let error: { name: string; step?: string; message: string } | undefined;
      // Played for the person each time the page leaves; a loop would go on for ever.
      while (error === undefined && leaves < 6) {
        await page.waitForURL((url) => url.origin === servers.issuer, { timeout: 20000 });
        leaves++;
        // The authorization server remembers the person after the first time: it may send the page straight back.
        for (let forms = 0; forms < 3; forms++) {
          const next = await Promise.race([
            page.waitForURL((url) => url.origin === pages.origin, { timeout: 20000 }).then(() => 'back'),
            page.waitForSelector('button[type=submit]', { timeout: 20000 }).then(() => 'form'),
          ]);
          if (next === 'back') break;
          await page.click('button[type=submit]').catch(() => undefined);
        }
        await page.waitForURL((url) => url.origin === pages.origin, { timeout: 20000 });
        await page.waitForFunction(() => window.signInPage !== undefined);
        const ended = await Promise.race([
          page.waitForFunction(() => window.signInPage.error !== undefined, undefined, { timeout: 20000 }).then(() => 'error'),
          page.waitForURL((url) => url.origin === servers.issuer, { timeout: 20000 }).then(() => 'left'),
        ]);
        if (ended === 'error') error = await page.evaluate(() => window.signInPage.error);
      }
      expect(leaves).toBe(3);
      expect(error).toMatchObject({ name: 'McpAuthError', step: 'authorize' });
      expect(error?.message).toContain('still refuses');
      expect(page.url()).toBe(`${pages.origin}/redirect`);
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 120000);

  it('refuses an answer to a sign-in this tab began too long ago', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/redirect');
      const hourAgo = Date.now() - 3_600_000;
      await page.evaluate(
        ({ createdAt, issuer, resource, origin }) =>
          sessionStorage.setItem(
            'rxmcp:pending-sign-in:old-state',
            JSON.stringify({ createdAt, pending: { issuer, clientId: 'c', redirectUrl: `${origin}/redirect`, resource, state: 'old-state', codeVerifier: 'v'.repeat(43) } }),
          ),
        { createdAt: hourAgo, issuer: servers.issuer, resource: servers.url, origin: pages.origin },
      );
      await page.goto(`${pages.origin}/redirect?code=old-code&state=old-state&iss=${encodeURIComponent(servers.issuer)}`);
      await page.waitForFunction(() => window.signInPage !== undefined);
      const { error } = await outcome(page);
      expect(error).toMatchObject({ name: 'McpAuthError', step: 'callback' });
      expect(error?.message).toContain('refused as stale');
      expect(await page.evaluate(() => sessionStorage.getItem('rxmcp:pending-sign-in:old-state'))).toBeNull();
    } finally {
      await context.close();
    }
  }, 60000);

  it('keeps tokens per server in sessionStorage by default, drops a corrupt or foreign entry without throwing, and signs in afresh', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      const key = servers.url;
      const read = await page.evaluate((server) => {
        const entry = `rxmcp:tokens:${server}`;
        const results: unknown[] = [];
        for (const text of ['{not json', JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: 'http://elsewhere/mcp', tokens: { accessToken: 'a', issuer: 'i', clientId: 'c' } }), JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: server, tokens: { accessToken: 42 } }), '"just a string"',
          // Hostile: nested 100000 deep, an accessToken only through __proto__, and an entry too long to be one rxmcp wrote.
          '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
          `{"format":"rxmcp-tokens","version":1,"key":${JSON.stringify(server)},"tokens":{"__proto__":{"accessToken":"polluted"},"issuer":"i","clientId":"c"}}`,
          JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: server, tokens: { accessToken: 'x'.repeat(70_000), issuer: 'i', clientId: 'c' } }),
          JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: server, tokens: { accessToken: 'a', issuer: 'i', clientId: 'c', dpop: null } })]) {
          sessionStorage.setItem(entry, text);
          results.push([window.signInPage.readTokens(server) ?? null, sessionStorage.getItem(entry)]);
        }
        localStorage.setItem(entry, JSON.stringify({ format: 'rxmcp-tokens', version: 1, key: server, tokens: { accessToken: 'in-local', issuer: 'i', clientId: 'c', expiresAt: 1, dpop: { thumbprint: 't', keyPair: {} } } }));
        results.push(window.signInPage.readTokens(server, 'local'));
        localStorage.removeItem(entry);
        sessionStorage.setItem(entry, '{not json');
        return results;
      }, key);
      expect(read).toEqual([
        [null, null],
        [null, null],
        [null, null],
        [null, null],
        [null, null],
        [null, null],
        [null, null],
        [null, null],
        { accessToken: 'in-local', issuer: 'i', clientId: 'c', expiresAt: 1, dpop: { thumbprint: 't' } },
      ]);
      // With a corrupt entry in place, the client signs in as if there were none.
      await page.click('#call');
      await page.waitForSelector('#sign-in:not([hidden])');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#sign-in')]);
      await consent(popup);
      expect((await outcome(page)).tools).toContain('add');
      await collectSecrets(page);
    } finally {
      await context.close();
    }
  }, 90000);

  it('keeps a server URL\'s user info out of the storage: the entry of https://user:pass@host/mcp is that of https://host/mcp, in either storage', async () => {
    const context = await freshContext();
    try {
      const page = await open(context, '/popup');
      const seen = await page.evaluate((server) => {
        const keyed = server.replace('http://', 'http://ada:pa55-w0rd@');
        const tokens = { accessToken: 'kept-token', issuer: 'i', clientId: 'c' };
        const found: unknown[] = [];
        for (const storage of ['session', 'local'] as const) {
          window.signInPage.writeTokens(keyed, tokens, storage);
          found.push(window.signInPage.readTokens(server, storage) ?? null);
        }
        const everything = [sessionStorage, localStorage].flatMap((area) => Object.keys(area).map((name) => `${name}=${area.getItem(name) ?? ''}`));
        localStorage.clear();
        return { found, everything };
      }, servers.url);
      expect(seen.found).toEqual([
        { accessToken: 'kept-token', issuer: 'i', clientId: 'c' },
        { accessToken: 'kept-token', issuer: 'i', clientId: 'c' },
      ]);
      expect(seen.everything.filter((entry) => entry.startsWith('rxmcp:tokens:'))).toHaveLength(2);
      expect(seen.everything.filter((entry) => entry.includes('pa55-w0rd') || entry.includes('ada'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60000);

  it('never shows a token, code, verifier or secret in a console line or an error', () => {
    expect(secrets.size).toBeGreaterThan(5);
    const said = [...consoleLines, ...errors];
    for (const secret of secrets) expect(said.filter((line) => line.includes(secret))).toEqual([]);
  });
});
