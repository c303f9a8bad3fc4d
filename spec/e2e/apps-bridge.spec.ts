import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { McpClient } from '../../src/index.js';
import { appsExtension } from '../../src/apps/index.js';
import { until } from '../support/apps-harness.js';
import { answered, callTool, chosenBrowser, type DemoPage, openApp, startDemo, viewFrame } from '../support/demo-page.js';

// What a view may reach through the demo page, in Chromium: only the tools
// its server meant for apps, and only past the page's Policy when the page
// asks one. The views are real (the ext-apps examples'); the model-only tool
// is our own fixture's (apps-visibility-server.mjs, official SDK v2), whose
// UI tool shows basic-vanillajs's view.
const root = join(__dirname, '..', '..');
const fixture = join(root, 'spec/fixtures/apps-visibility-server.mjs');

// A tools/call sent from inside the view as the App SDK sends it (a JSON-RPC
// request to its parent, the sandbox proxy, target '*'), and the answer it gets.
function callFromView(view: Frame, id: string, name: string): Promise<{ result?: { isError?: boolean; structuredContent?: unknown }; error?: { code: number; message: string } }> {
  return view.evaluate(
    ({ id, name }) =>
      new Promise((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.source === window.parent && event.data?.id === id) resolve(event.data);
        });
        window.parent.postMessage({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }, '*');
      }),
    { id, name },
  );
}

describe(`a view's tool calls through the web demo (${chosenBrowser ? chosenBrowser.path : 'no browser found'})`, () => {
  let demo: DemoPage;

  beforeAll(async () => {
    demo = await startDemo(['--app', `visibility=${fixture}`]);
  }, 60000);

  afterAll(async () => {
    await demo?.stop();
  });

  const ran = (tool: string): number => demo.log.filter((line) => line === `visibility: ran ${tool}`).length;

  it('refuses the view a tool meant for the model alone, which never reaches the server, and runs one meant for both', async () => {
    const page = await openApp(demo, 'visibility');
    try {
      await callTool(page, 'get-time');
      const view = await viewFrame(page);
      await view.locator('#server-time', { hasText: /^\d{4}-/ }).waitFor({ timeout: 20000 });
      expect(ran('get-time')).toBe(1);

      const refused = await callFromView(view, 'spec-model-only', 'model-only');
      expect(refused.result).toBeUndefined();
      expect(refused.error?.message).toContain('model-only');
      await page.locator('#log', { hasText: '[view] called model-only: refused' }).waitFor();
      expect(ran('model-only')).toBe(0);

      // The same route runs a tool the view may call: the refusal was the visibility's.
      const allowed = await callFromView(view, 'spec-get-time', 'get-time');
      expect(allowed.result?.structuredContent).toEqual({ time: expect.stringMatching(/^\d{4}-/) });
      expect(ran('get-time')).toBe(2);
      expect(ran('model-only')).toBe(0);

      // And the page, which stands for the model here, may call it.
      await callTool(page, 'model-only');
      await page.locator('#result', { hasText: 'only the model sees this' }).waitFor();
      expect(ran('model-only')).toBe(1);
    } finally {
      await page.close();
    }
  }, 60000);

  it("keeps system-monitor's app-only tool out of toolsForLlm, and refuses it to the model", async () => {
    const script = join(root, 'node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js');
    const mcp = McpClient.connectStdio({ command: process.execPath, args: [script, '--stdio'], extensions: appsExtension });
    try {
      const names = (await mcp.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toEqual(['get-system-info']);
      const [asModel] = await mcp.executeToolCalls([{ id: 'model', function: { name: 'poll-system-stats', arguments: {} } }]);
      expect(asModel?.is_error).toBe(true);
      const [asApp] = await mcp.executeToolCalls([{ id: 'app', function: { name: 'poll-system-stats', arguments: {} } }], { caller: 'app' });
      expect(asApp?.is_error).toBe(false);
      expect(asApp?.structured_content).toMatchObject({ memory: { usedPercent: expect.any(Number) } });
    } finally {
      await mcp.close();
    }
  }, 30000);

  describe("with the page's Policy asking about a view's calls", () => {
    let page: Page;
    let view: Frame;

    beforeAll(async () => {
      page = await openApp(demo, 'basic-vanillajs');
      await page.check('#ask-views');
      await callTool(page, 'get-time');
      view = await viewFrame(page);
      await view.locator('#server-time', { hasText: /^\d{4}-/ }).waitFor({ timeout: 20000 });
    }, 60000);

    afterAll(async () => {
      await page?.close();
    });

    it('shows the question on the page, and a denial reaches the view but not the server', async () => {
      const before = answered(demo, 'basic-vanillajs', 'get-time');
      await view.click('#get-time-btn');
      const question = page.locator('#ask');
      await question.locator('p', { hasText: 'The view wants to call get-time with {}' }).waitFor();
      expect(answered(demo, 'basic-vanillajs', 'get-time')).toBe(before);
      await question.locator('button[data-action="deny-once"]').click();
      // The view shows "[ERROR]" for a result without a time.
      await view.locator('#server-time', { hasText: '[ERROR]' }).waitFor();
      expect(await question.isHidden()).toBe(true);
      expect(answered(demo, 'basic-vanillajs', 'get-time')).toBe(before);
      await page.locator('#messages', { hasText: 'deny-once get-time' }).waitFor();
    }, 30000);

    it('lets the call through to the server once allowed', async () => {
      const before = answered(demo, 'basic-vanillajs', 'get-time');
      await view.click('#get-time-btn');
      await page.locator('#ask button[data-action="allow-once"]').click();
      await until(() => answered(demo, 'basic-vanillajs', 'get-time') === before + 1, 10000);
      await view.locator('#server-time', { hasText: /^\d{4}-/ }).waitFor();
    }, 30000);
  });
});
