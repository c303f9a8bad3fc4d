import { join } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { until } from '../support/apps-harness.js';
import { chosenBrowser, inspectorSession, type RunningInspect } from '../support/inspect.js';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';

// The page of `rxmcp inspect` (the built CLI, with its built page) in
// Debian's Chromium, headless: an ext-apps example server's real view, its
// server on stdio behind the gateway, inline and fullscreen, on the
// inspector's second origin; and sign-in from the page, in a popup, to the
// protected fixture behind a real authorization server.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const basic = join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');

// The view's frame: the one inside the sandbox proxy's frame, once the view has mounted.
async function viewFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await until(() => (found = page.frames().find((frame) => frame.parentFrame()?.parentFrame() === page.mainFrame())) !== undefined, 20_000);
  return found as Frame;
}

// Starts keeping, inside the view, the display modes its host tells it.
async function recordModes(view: Frame): Promise<() => Promise<string[]>> {
  await view.evaluate(() => {
    const modes: string[] = [];
    (window as unknown as { modes: string[] }).modes = modes;
    window.addEventListener('message', (event) => {
      const mode = event.data?.method === 'ui/notifications/host-context-changed' ? event.data.params?.displayMode : undefined;
      if (event.source === window.parent && typeof mode === 'string') modes.push(mode);
    });
  });
  return () => view.evaluate(() => (window as unknown as { modes: string[] }).modes);
}

describe(`rxmcp inspect shows MCP Apps views and signs in (${chosenBrowser ? chosenBrowser.path : 'no browser found'})`, () => {
  const session = inspectorSession();

  const inspect = async (args: string[]): Promise<RunningInspect> => {
    const run = await session.inspect(args);
    return run;
  };

  describe("basic-vanillajs's view, its server on stdio behind the gateway", () => {
    let run: RunningInspect;
    let page: Page;
    let view: Frame;

    beforeAll(async () => {
      run = await inspect(['--', process.execPath, basic, '--stdio']);
      page = await session.browser.newPage({ viewport: { width: 1100, height: 800 } });
      await page.goto(run.url);
      await page.locator('#tools button[data-tool="get-time"]').click();
      await page.locator('#call h2', { hasText: 'get-time' }).waitFor();
      await page.click('#run');
      view = await viewFrame(page);
      await view.locator('#server-time', { hasText: /^\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: 20_000 });
    }, 60_000);

    afterAll(async () => {
      await page?.close();
    });

    it('shows the view inline in its section, with the time the call returned beside it', async () => {
      expect(await page.locator('#view iframe').count()).toBe(1);
      expect(await page.locator('#view').isVisible()).toBe(true);
      await page.locator('#status', { hasText: 'done' }).waitFor();
      expect(await page.locator('#result').textContent()).toContain((await view.locator('#server-time').textContent()) as string);
    });

    it("runs the view on the sandbox's origin, not the page's, in a frame of no origin at all", async () => {
      const proxy = view.parentFrame() as Frame;
      const sandbox = new URL(proxy.url());
      expect(sandbox.origin).not.toBe(run.origin);
      expect(sandbox.hostname).toBe('127.0.0.1');
      // The page's token stays on the page: the frames' addresses do not carry it.
      expect(proxy.url()).not.toContain(run.token);
      expect(await view.evaluate(() => window.origin)).toBe('null');
      expect(await proxy.evaluate(() => window.origin)).toBe(sandbox.origin);
    });

    it("passes the view's own tool call to the server, and the view shows the answer", async () => {
      const before = await view.locator('#server-time').textContent();
      await view.click('#get-time-btn');
      await until(async () => {
        const now = await view.locator('#server-time').textContent();
        return now !== before && /^\d{4}-/.test(now ?? '');
      }, 10_000);
      await page.locator('#app-view .view-notes', { hasText: 'the view called get-time: ok' }).waitFor();
    });

    it('goes fullscreen with the Fullscreen button, tells the view, and Escape brings it back inline', async () => {
      const modes = await recordModes(view);
      await page.click('#fullscreen');
      await page.locator('#app-view.fullscreen').waitFor();
      const box = await page.locator('#view iframe').boundingBox();
      expect(box?.height).toBeGreaterThan(650);
      expect(box?.width).toBeGreaterThan(1000);
      await until(async () => (await modes()).includes('fullscreen'), 10_000);
      await page.keyboard.press('Escape');
      expect(await page.locator('#app-view.fullscreen').count()).toBe(0);
      await until(async () => (await modes()).at(-1) === 'inline', 10_000);
      expect(await page.locator('#fullscreen').isVisible()).toBe(true);
    });

    it('tears the view down when a new call replaces it, and when the connection is replaced', async () => {
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      // The view's onteardown handler writes this line when it is torn down.
      const teardowns = (): number => said.filter((line) => line === 'App is being torn down').length;
      await page.click('#run');
      await until(() => teardowns() === 1, 10_000);
      await until(async () => (await page.locator('#view iframe').count()) === 1, 10_000);
      await (await viewFrame(page)).locator('#server-time', { hasText: /^\d{4}-/ }).waitFor({ timeout: 20_000 });
      await page.click('#connect-button');
      await until(() => teardowns() === 2, 10_000);
      await until(async () => (await page.locator('#view iframe').count()) === 0, 10_000);
      expect(page.frames()).toHaveLength(1);
      expect(await page.locator('#view').isHidden()).toBe(true);
    });
  });

  describe('sign-in, to the protected fixture behind a real authorization server', () => {
    let oauth: OAuthServers;
    let run: RunningInspect;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      oauth = await startOAuthServers();
      run = await inspect(['--url', oauth.url]);
    });

    afterAll(async () => {
      await Promise.all(contexts.map((context) => context.close()));
      await oauth?.stop();
    });

    // A browser of its own: no cookies at the authorization server, no tokens in the tab.
    const freshPage = async (): Promise<Page> => {
      const context = await session.browser.newContext({ viewport: { width: 1000, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(run.url);
      return page;
    };

    // Clicks the panel's button and plays the person in the window it opens: signs in as ada, allows access.
    const signInThroughPopup = async (page: Page, label: string): Promise<void> => {
      const button = page.locator('#sign-in-button', { hasText: label });
      await button.waitFor();
      const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
      await popup.locator('button[type=submit]', { hasText: 'Sign in' }).click();
      await popup.locator('button[type=submit]', { hasText: 'Allow' }).click();
      await popup.waitForEvent('close');
    };

    it('signs in through a popup, then shows the server and its tools', async () => {
      const page = await freshPage();
      await page.locator('#sign-in-status', { hasText: 'wants you to sign in' }).waitFor();
      await signInThroughPopup(page, 'Sign in');
      await page.locator('#server', { hasText: 'rxmcp-fixture' }).waitFor();
      await page.locator('#tools button[data-tool="echo"]').waitFor();
      expect(await page.locator('#sign-in-status').textContent()).toBe(`Signed in at ${new URL(oauth.issuer).host}.`);
      expect(await page.locator('#connection-error').isHidden()).toBe(true);
    });

    it('says so when the sign-in window is closed, and signs in on "Sign in again" without a reload', async () => {
      const page = await freshPage();
      const button = page.locator('#sign-in-button', { hasText: 'Sign in' });
      await button.waitFor();
      const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
      await popup.locator('button[type=submit]', { hasText: 'Sign in' }).waitFor();
      await popup.close();
      await page.locator('#sign-in-status', { hasText: 'the sign-in window was closed before signing in finished' }).waitFor();
      expect(await page.locator('#server').textContent()).not.toContain('rxmcp-fixture');
      const loaded = page.url();
      await signInThroughPopup(page, 'Sign in again');
      await page.locator('#server', { hasText: 'rxmcp-fixture' }).waitFor();
      await page.locator('#tools button[data-tool="echo"]').waitFor();
      expect(await page.locator('#sign-in-status').textContent()).toContain('Signed in at');
      expect(page.url()).toBe(loaded);
    });
  });
});
