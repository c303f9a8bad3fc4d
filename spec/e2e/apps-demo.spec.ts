import { hostname } from 'node:os';
import type { Frame, Page } from 'playwright-core';
import { until } from '../support/apps-harness.js';
import { answered, callTool, chosenBrowser, type DemoPage, openApp, startDemo, viewFrame } from '../support/demo-page.js';
import { eventually } from '../support/servers.js';

// `npm run demo:web` with the ext-apps example servers' real views (built on
// the real ext-apps App SDK), in Debian's Chromium: the page calls a tool
// with a UI, and the view appears, sized, themed and talking to its server.

interface Seen {
  method?: string;
  params?: Record<string, unknown>;
}

// Starts keeping, inside the view, every message its parent (the sandbox proxy, relaying the host) sends it.
async function record(view: Frame): Promise<() => Promise<Seen[]>> {
  await view.evaluate(() => {
    const seen: unknown[] = [];
    (window as unknown as { seen: unknown[] }).seen = seen;
    window.addEventListener('message', (event) => event.source === window.parent && seen.push(event.data));
  });
  return () => view.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
}

// Sends a JSON-RPC request from inside the view, as the App SDK does (to its parent, '*'), and waits for the answer.
function askFromView(view: Frame, request: { id: string; method: string; params: Record<string, unknown> }): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  return view.evaluate(
    (message) =>
      new Promise((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.source === window.parent && event.data?.id === message.id) resolve(event.data);
        });
        window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
      }),
    request,
  );
}

const contextChanges = (seen: Seen[]): Record<string, unknown>[] =>
  seen.filter((message) => message.method === 'ui/notifications/host-context-changed').map((message) => message.params ?? {});

describe(`the web demo renders MCP Apps views (${chosenBrowser ? chosenBrowser.path : 'no browser found'})`, () => {
  let demo: DemoPage;

  beforeAll(async () => {
    demo = await startDemo();
  }, 60000);

  afterAll(async () => {
    await demo?.stop();
  });

  describe("basic-vanillajs's view", () => {
    let page: Page;
    let view: Frame;

    beforeAll(async () => {
      page = await openApp(demo, 'basic-vanillajs');
      await callTool(page, 'get-time');
      view = await viewFrame(page);
      await view.locator('#server-time', { hasText: /^\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: 20000 });
    }, 60000);

    afterAll(async () => {
      await page?.close();
    });

    it('shows the view inline, on the sandbox origin, with the time the tool call returned', async () => {
      expect(await view.locator('#server-time').textContent()).toBe(await page.locator('#result').textContent());
      expect(answered(demo, 'basic-vanillajs', 'get-time')).toBe(1);
      // The view runs in a document of its own inside the proxy, whose origin is not the page's.
      const proxy = view.parentFrame() as Frame;
      expect(new URL(proxy.url()).port).not.toBe(new URL(page.url()).port);
      expect(await page.locator('#view iframe').count()).toBe(1);
    });

    it('passes a tool call the view makes to the server, and the view shows the answer', async () => {
      const before = await view.locator('#server-time').textContent();
      await view.click('#get-time-btn');
      await eventually(() => answered(demo, 'basic-vanillajs', 'get-time') === 2, 10000);
      await until(async () => {
        const now = await view.locator('#server-time').textContent();
        return now !== before && /^\d{4}-/.test(now ?? '');
      }, 10000);
      await page.locator('#log', { hasText: '[view] called get-time: ok' }).waitFor();
    });

    it("puts the view's ui/message into the page's conversation", async () => {
      await view.fill('#message-text', 'Hello from inside the view');
      await view.click('#send-message-btn');
      const line = page.locator('#messages div', { hasText: 'Hello from inside the view' });
      await line.waitFor();
      expect(await line.locator('b').textContent()).toBe('user (from the view)');
    });

    it('offers a link the view asks to open in the conversation, and opens nothing itself', async () => {
      await view.fill('#link-url', 'https://example.com/docs');
      await view.click('#open-link-btn');
      const link = page.locator('#messages a', { hasText: 'https://example.com/docs' });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe('https://example.com/docs');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(page.context().pages()).toHaveLength(1);
      expect(page.url()).toMatch(/\?app=basic-vanillajs$/);
    });

    it('drops a message from the view that is not JSON-RPC, and says so in the log', async () => {
      await view.evaluate(() => window.parent.postMessage({ hello: 'not JSON-RPC' }, '*'));
      await page.locator('#log', { hasText: '[view] a message dropped' }).waitFor();
      // The view still works after it.
      await view.click('#get-time-btn');
      await page.locator('#log div', { hasText: '[view] called get-time: ok' }).nth(1).waitFor();
    });

    it('keeps its log and conversation to a bounded length however much a view says', async () => {
      await view.evaluate(() => {
        for (let n = 0; n < 3000; n++) {
          window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `spam ${n}` } }, '*');
          window.parent.postMessage({ jsonrpc: '2.0', id: `spam-${n}`, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: `spam ${n}` }] } }, '*');
        }
      });
      await page.locator('#log div', { hasText: '[view info] spam 2999' }).waitFor();
      await page.locator('#messages div', { hasText: 'spam 2999' }).waitFor();
      expect(await page.locator('#log > div').count()).toBeLessThanOrEqual(500);
      expect(await page.locator('#messages > div').count()).toBeLessThanOrEqual(500);
    });

    it('makes the frame as tall as the view asks, follows it as it grows, and holds it to the page\'s bound', async () => {
      const frame = page.locator('#view iframe');
      const height = async () => (await frame.boundingBox())?.height ?? 0;
      const first = await height();
      expect(first).toBeGreaterThan(200);
      expect(first).toBeLessThan(800);
      const grow = (px: number) =>
        view.evaluate((extra) => {
          document.getElementById('tall')?.remove();
          const tall = document.createElement('div');
          tall.id = 'tall';
          tall.style.height = `${extra}px`;
          document.body.append(tall);
        }, px);
      await grow(300);
      await until(async () => Math.abs((await height()) - (first + 300)) <= 2, 10000);
      // The page's inline maxHeight (1200) bounds what a view may take.
      await grow(5000);
      await until(async () => (await height()) === 1200, 10000);
      await view.evaluate(() => document.getElementById('tall')?.remove());
      await until(async () => Math.abs((await height()) - first) <= 2, 10000);
    });

    it('tells the view the theme, and the new one when the page switches it', async () => {
      const theme = () => view.evaluate(() => document.documentElement.dataset.theme);
      expect(await theme()).toBe('light');
      await page.click('#theme');
      await until(async () => (await theme()) === 'dark', 10000);
      await page.click('#theme');
      await until(async () => (await theme()) === 'light', 10000);
    });

    it('tells the view its container size, and the new size when the window is resized', async () => {
      const seen = await record(view);
      await page.setViewportSize({ width: 900, height: 800 });
      const width = await page.locator('#view').evaluate((element) => element.clientWidth);
      const fits = (change: Record<string, unknown>) => (change.containerDimensions as { width?: number } | undefined)?.width === width;
      await until(async () => contextChanges(await seen()).some(fits), 10000);
      const last = contextChanges(await seen()).filter(fits).pop();
      expect(last).toMatchObject({ displayMode: 'inline', containerDimensions: { width, maxHeight: 1200 }, theme: 'light', locale: expect.any(String), platform: 'web' });
      await page.setViewportSize({ width: 1100, height: 800 });
    });

    it('shows the view fullscreen when it asks, tells it so, and returns it inline on Exit', async () => {
      const seen = await record(view);
      const pip = await askFromView(view, { id: 'spec-pip', method: 'ui/request-display-mode', params: { mode: 'pip' } });
      // Not offered by the page: the view keeps the mode it has.
      expect(pip.result).toEqual({ mode: 'inline' });
      expect(await page.locator('#view.fullscreen').count()).toBe(0);

      const full = await askFromView(view, { id: 'spec-full', method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
      expect(full.result).toEqual({ mode: 'fullscreen' });
      await page.locator('#view.fullscreen').waitFor();
      const box = await page.locator('#view iframe').boundingBox();
      expect(box?.height).toBeGreaterThan(700);
      expect(box?.width).toBeGreaterThan(1000);
      const changes = async () => contextChanges(await seen());
      await until(async () => (await changes()).some((change) => change.displayMode === 'fullscreen' && (change.containerDimensions as { height?: number } | undefined)?.height !== undefined), 10000);

      await page.click('#exit-fullscreen');
      expect(await page.locator('#view.fullscreen').count()).toBe(0);
      await until(async () => (await changes()).pop()?.displayMode === 'inline', 10000);
    });

    it('closing the view sends it ui/resource-teardown, then removes the frame', async () => {
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      // The view's onteardown handler writes this line when it is torn down.
      await page.click('#cancel');
      await eventually(() => said.includes('App is being torn down'), 10000);
      await eventually(() => page.frames().length === 1, 10000);
      expect(await page.locator('#view iframe').count()).toBe(0);
      expect(await page.locator('#status').textContent()).toBe('closed');
    });
  });

  describe("system-monitor's view", () => {
    let page: Page;

    afterAll(async () => {
      await page?.close();
    });

    it('shows the server\'s system in the view, which polls an app-only tool the page does not list', async () => {
      page = await openApp(demo, 'system-monitor');
      const listed = await page.locator('#tools button').evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.tool));
      expect(listed).toContain('get-system-info');
      expect(listed).not.toContain('poll-system-stats');
      await callTool(page, 'get-system-info');
      const view = await viewFrame(page);
      await view.locator('#info-hostname', { hasText: hostname() }).waitFor({ timeout: 20000 });
      // The view starts polling on its own; each poll is a tools/call the server answers.
      await eventually(() => answered(demo, 'system-monitor', 'poll-system-stats') >= 2, 15000);
      await view.locator('#memory-percent', { hasText: /^\d+%$/ }).waitFor();
      await page.locator('#log', { hasText: '[view] called poll-system-stats: ok' }).waitFor();
    }, 40000);

    it('stops the polling when the view is closed', async () => {
      await page.click('#cancel');
      await eventually(() => page.frames().length === 1, 10000);
      const polls = answered(demo, 'system-monitor', 'poll-system-stats');
      // The view polls every 2 s: three periods without one mean it is gone.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(answered(demo, 'system-monitor', 'poll-system-stats')).toBe(polls);
    }, 20000);
  });

  it("shows budget-allocator's view, built from the tool's result", async () => {
    const page = await openApp(demo, 'budget-allocator');
    try {
      await callTool(page, 'get-budget-data');
      const view = await viewFrame(page);
      // Until the result arrives the view shows no sliders and "Allocated: $0 / $0".
      await view.locator('.slider-row').first().waitFor({ timeout: 20000 });
      expect(await view.locator('.slider-row').count()).toBeGreaterThan(2);
      await view.locator('#status-bar', { hasText: /Allocated: \$[1-9][\d,.]* \/ \$[1-9][\d,.]*/ }).waitFor();
      expect(answered(demo, 'budget-allocator', 'get-budget-data')).toBe(1);
    } finally {
      await page.close();
    }
  }, 40000);
});
