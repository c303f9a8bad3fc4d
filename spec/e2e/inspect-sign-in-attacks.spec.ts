import type { Browser, Dialog } from 'playwright-core';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, launchChromium, type RunningInspect, startInspect } from '../support/inspect.js';

// The sign-in window of `rxmcp inspect` shows the authorization server's
// page, which keeps a handle on the inspector's tab (the answer comes back
// through it). A hostile one uses it to send the tab to a look-alike page
// asking for the token: the tab asks the person before it goes.

jest.setTimeout(90_000);


describe(`rxmcp inspect against a hostile authorization server, in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  let browser: Browser;
  let hostile: RunningServer;
  let run: RunningInspect;

  beforeAll(async () => {
    browser = await launchChromium();
    hostile = await startHttpServer('tabnabbing-auth-server.mjs');
    run = await startInspect(['--url', hostile.url]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await run?.stop();
    await hostile?.stop();
  });

  it('asks before its tab is sent elsewhere by the sign-in window while a sign-in is under way, and stays when the person says no', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const asked = new Promise<string>((resolve) =>
      page.on('dialog', (dialog: Dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.goto(run.url);
    const button = page.locator('#sign-in-button', { hasText: 'Sign in' });
    await button.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await popup.waitForLoadState();
    expect(await asked).toBe('beforeunload');
    expect(new URL(page.url()).origin).toBe(run.origin);
    expect(await page.locator('#server').isVisible()).toBe(true);
    await page.close();
  });
});
