import type { Browser, Page } from 'playwright-core';
import type { RecordedEvent } from '../support/apps-page.js';
import { type AppsHost, type ExampleServer, launchChromium, startAppsHost, startViewFixture, until } from '../support/apps-harness.js';

// A hostile view in Chromium: spec/fixtures/apps-view-server.mjs serves one
// that speaks the protocol by hand and then tries every way out of the
// sandbox (the host page's DOM, storage, eval, popups, the network, top
// navigation, forms, forged messages, tools kept from apps), and reports.

describe('a hostile MCP Apps view in Chromium', () => {
  let server: ExampleServer;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;
  let report: Record<string, unknown>;
  let events: RecordedEvent[];

  beforeAll(async () => {
    [server, host] = await Promise.all([startViewFixture(), startAppsHost()]);
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(host.pageUrl);
    await page.waitForFunction(() => window.appsHost !== undefined);
    await page.evaluate(({ url, beacon }) => window.appsHost.mount({ serverUrl: url, tool: 'hostile', arguments: { beacon } }), { url: server.url, beacon: `${host.hostOrigin}/beacon` });
    await until(async () => (await page.evaluate(() => window.appsHost.events)).some((event) => event.kind === 'message'), 40000);
    events = await page.evaluate(() => window.appsHost.events);
    const message = events.find((event) => event.kind === 'message') as { content: Array<{ text: string }> };
    report = JSON.parse(message.content[0]?.text ?? '{}') as Record<string, unknown>;
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), host?.stop()]);
  });

  it('cannot reach the proxy\'s or the host page\'s document, storage or cookies', () => {
    expect(report).toMatchObject({
      parentDocument: 'threw SecurityError',
      topDocument: 'threw SecurityError',
      storage: 'threw SecurityError',
      cookie: 'threw SecurityError',
    });
  });

  it('cannot eval, even though its CSP declaration tried to smuggle unsafe-eval in', () => {
    expect(report.eval).toBe('threw EvalError');
    expect(report.violations).toContain('script-src');
  });

  it('cannot open a popup, fetch, load an image, submit a form or navigate the page: nothing reaches the host', async () => {
    expect(report).toMatchObject({ popup: 'blocked', fetch: 'failed', image: 'failed' });
    expect(report.violations).toEqual(expect.arrayContaining(['connect-src', 'img-src', 'form-action']));
    expect(host.beacons).toEqual([]);
    expect(page.url()).toBe(host.pageUrl);
  });

  it('cannot post to the host page around the proxy', () => {
    const texts = events.filter((event) => event.kind === 'message').map((event) => JSON.stringify(event));
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('forged around the proxy');
  });

  it('may call a tool meant for apps, and is refused one meant for the model only', () => {
    expect(report).toMatchObject({ modelOnly: 'refused', appOnly: 'ran' });
    expect(events.filter((event) => event.kind === 'tool-call')).toEqual([
      { kind: 'tool-call', name: 'model_only', arguments: {}, refused: 'tool "model_only" is not visible to apps' },
      expect.objectContaining({ kind: 'tool-call', name: 'app_only', result: expect.objectContaining({ structuredContent: { name: 'app_only', arguments: {} } }) }),
    ]);
  });
});
