import type { Browser, Page } from 'playwright-core';
import type { RecordedEvent } from '../support/apps-page.js';
import { type AppsHost, type ExampleServer, launchChromium, startAppsHost, startViewFixture, until } from '../support/apps-harness.js';

// Views that try to run outside the policy their resource declared: by
// putting a character before their doctype (so that the policy lands in the
// body, where a meta policy counts for nothing), or by navigating their own
// frame to a page of their choosing, which then speaks to the host.

describe('an MCP Apps view escaping its CSP, in Chromium', () => {
  let server: ExampleServer;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, host] = await Promise.all([startViewFixture(), startAppsHost()]);
    browser = await launchChromium();
  }, 60000);

  beforeEach(async () => {
    page = await browser.newPage();
    await page.goto(host.pageUrl);
    await page.waitForFunction(() => window.appsHost !== undefined);
    host.beacons.length = 0;
  });

  afterEach(async () => {
    await page?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), host?.stop()]);
  });

  const report = async (tool: string): Promise<Record<string, unknown>> => {
    await page.evaluate(({ url, tool: name, beacon }) => window.appsHost.mount({ serverUrl: url, tool: name, arguments: { beacon } }), {
      url: server.url,
      tool,
      beacon: `${host.hostOrigin}/beacon`,
    });
    await until(async () => (await page.evaluate(() => window.appsHost.events)).some((event) => event.kind === 'message'), 30000);
    const events: RecordedEvent[] = await page.evaluate(() => window.appsHost.events);
    const message = events.find((event) => event.kind === 'message') as { content: Array<{ text: string }> };
    return JSON.parse(message.content[0]?.text ?? '{}') as Record<string, unknown>;
  };

  it.each(['nbsp_first', 'bom_first'])('keeps the policy of a view whose HTML starts with a character before its doctype (%s)', async (tool) => {
    expect(await report(tool)).toEqual({ eval: 'threw EvalError', fetch: 'failed' });
    expect(host.beacons).toEqual([]);
  }, 40000);

  it('does not hand a view the permissions the user granted the host page', async () => {
    // The page is, say, a chat that reads the user's location (or microphone) for its own purposes.
    await page.context().grantPermissions(['geolocation'], { origin: host.hostOrigin });
    await page.context().setGeolocation({ latitude: 59.91, longitude: 10.75 });
    const where = await report('locate');
    expect(where.where).not.toBe('59.91,10.75');
  }, 40000);

  it('relays nothing from a document the view navigated its frame to', async () => {
    await page.evaluate(({ url, beacon, wander }) => window.appsHost.mount({ serverUrl: url, tool: 'wander', arguments: { beacon, wander } }), {
      url: server.url,
      beacon: `${host.hostOrigin}/beacon`,
      wander: `${host.hostOrigin}/wander.html`,
    });
    await until(async () => (await page.evaluate(() => window.appsHost.events)).some((event) => event.kind === 'initialized'), 30000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const events: RecordedEvent[] = await page.evaluate(() => window.appsHost.events);
    expect(events.filter((event) => event.kind === 'message')).toEqual([]);
    expect(host.beacons).toEqual([]);
  }, 40000);
});
