import type { Browser, ConsoleMessage, Frame, Page } from 'playwright-core';
import type { RecordedEvent } from '../support/apps-page.js';
import { type AppsHost, type ExampleServer, launchChromium, startAppsHost, startExampleServer, until } from '../support/apps-harness.js';


// The real basic-vanillajs server's real view (written with the ext-apps App
// SDK) rendered by rxmcp/apps in Chromium: the host page on one origin, the
// sandbox proxy on another, the server over Streamable HTTP on a third.

describe('rxmcp/apps in Chromium, with the basic-vanillajs example server', () => {
  let server: ExampleServer;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;
  const consoleLines: string[] = [];

  const events = (): Promise<RecordedEvent[]> => page.evaluate(() => window.appsHost.events);
  const waitForEvent = async (test: (event: RecordedEvent) => boolean): Promise<RecordedEvent> => {
    let found: RecordedEvent | undefined;
    await until(async () => {
      found = (await events()).find(test);
      return found !== undefined;
    }, 30000);
    return found as RecordedEvent;
  };
  // The view's own frame: the one inside the sandbox proxy's.
  const viewFrame = async (): Promise<Frame> => {
    let found: Frame | undefined;
    await until(() => {
      found = page.frames().find((frame) => frame.parentFrame() !== null && frame.parentFrame()?.url().startsWith(host.sandboxOrigin) === true);
      return found !== undefined;
    }, 30000);
    return found as Frame;
  };

  beforeAll(async () => {
    [server, host] = await Promise.all([startExampleServer('basic'), startAppsHost()]);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message: ConsoleMessage) => consoleLines.push(message.text()));
    await page.goto(host.pageUrl);
    await page.waitForFunction(() => window.appsHost !== undefined);
    await page.evaluate((url) => window.appsHost.mount({ serverUrl: url, tool: 'get-time' }), server.url);
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), host?.stop()]);
  });

  it('mounts the sandbox proxy from its own origin, and the view initialises with the App SDK', async () => {
    const mounted = await waitForEvent((event) => event.kind === 'mounted');
    expect(mounted).toEqual({ kind: 'mounted', src: host.sandboxUrl });
    const initialized = await waitForEvent((event) => event.kind === 'initialized');
    expect(initialized).toMatchObject({ kind: 'initialized', appInfo: { name: expect.any(String) }, protocolVersion: '2026-01-26' });
  }, 40000);

  it('gives the view the tool result, which it shows', async () => {
    const result = await waitForEvent((event) => event.kind === 'result');
    const time = (result as { result: { structuredContent: { time: string } } }).result.structuredContent.time;
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);
    const frame = await viewFrame();
    await until(async () => (await frame.locator('#server-time').textContent())?.includes(time) === true, 20000);
  }, 40000);

  it('runs the view\'s own tools/call through the host, answered by the server', async () => {
    const frame = await viewFrame();
    const before = (await events()).filter((event) => event.kind === 'tool-call').length;
    await frame.locator('#get-time-btn').click();
    const call = await waitForEvent((event) => event.kind === 'tool-call');
    expect((await events()).filter((event) => event.kind === 'tool-call').length).toBe(before + 1);
    expect(call).toMatchObject({ kind: 'tool-call', name: 'get-time', arguments: {}, result: { structuredContent: { time: expect.stringMatching(/^\d{4}-/) } } });
    const time = (call as { result: { structuredContent: { time: string } } }).result.structuredContent.time;
    await until(async () => (await frame.locator('#server-time').textContent())?.includes(time) === true, 20000);
  }, 40000);

  it('relays the view\'s message, log and link, and ignores messages from any other window', async () => {
    const forged = (text: string): Record<string, unknown> => ({ jsonrpc: '2.0', id: 9000, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text } ] } });
    // The page itself, a second frame on the sandbox's own origin, and the view going around the proxy.
    await page.evaluate((message) => window.postMessage(message, '*'), forged('forged by the page'));
    await page.evaluate((src) => {
      const other = document.createElement('iframe');
      other.src = src;
      other.id = 'other';
      document.body.appendChild(other);
    }, `${host.sandboxOrigin}/other.html`);
    let other: Frame | undefined;
    await until(() => (other = page.frames().find((frame) => frame.url() === `${host.sandboxOrigin}/other.html`)) !== undefined, 20000);
    await (other as Frame).evaluate((message) => window.parent.postMessage(message, '*'), forged('forged by a frame on the sandbox origin'));
    const frame = await viewFrame();
    await frame.evaluate((message) => window.top?.postMessage(message, '*'), forged('forged by the view around the proxy'));

    await frame.locator('#message-text').fill('hello from the view');
    await frame.locator('#send-message-btn').click();
    await frame.locator('#log-text').fill('a log line');
    await frame.locator('#send-log-btn').click();
    await frame.locator('#link-url').fill('https://example.com/docs');
    await frame.locator('#open-link-btn').click();
    await waitForEvent((event) => event.kind === 'open-link');
    const seen = await events();
    expect(seen.filter((event) => event.kind === 'message')).toEqual([{ kind: 'message', role: 'user', content: [{ type: 'text', text: 'hello from the view' }] }]);
    expect(seen).toContainEqual(expect.objectContaining({ kind: 'log', data: 'a log line' }));
    expect(seen).toContainEqual({ kind: 'open-link', url: 'https://example.com/docs' });
  }, 60000);

  it('blocks a fetch the view\'s CSP does not declare, while the page itself reaches the same URL', async () => {
    const frame = await viewFrame();
    const outcome = await frame.evaluate(async (url) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
      const fetched = await fetch(url).then(
        () => 'reached',
        () => 'failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The same policy is enforced twice (the document's meta and the frame's required policy): each reports.
      return { fetched, violations: [...new Set(violations)] };
    }, `${host.hostOrigin}/beacon/from-view`);
    expect(outcome).toEqual({ fetched: 'failed', violations: ['connect-src'] });
    expect(await page.evaluate((url) => fetch(url).then((response) => response.text()), `${host.hostOrigin}/beacon/from-page`)).toBe('seen');
    expect(host.beacons).toEqual(['/beacon/from-page']);
  }, 40000);

  it('sends ui/resource-teardown when unsubscribed, then removes the frame', async () => {
    const frame = await viewFrame();
    await frame.evaluate(() =>
      window.addEventListener('message', (event: MessageEvent) => {
        if ((event.data as { method?: unknown } | null)?.method === 'ui/resource-teardown') console.log('the view got ui/resource-teardown');
      }),
    );
    expect(await page.locator('#app iframe').count()).toBe(1);
    await page.evaluate(() => window.appsHost.unmount());
    await until(async () => (await page.locator('#app iframe').count()) === 0, 20000);
    expect(consoleLines).toContain('the view got ui/resource-teardown');
    expect(await page.evaluate(() => window.appsHost.errors)).toEqual([]);
  }, 40000);
});

