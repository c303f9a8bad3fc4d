import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, inspectorSession } from '../support/inspect.js';

// The catalogue of `rxmcp inspect` (the built CLI and page) in Debian's
// Chromium, headless: tabs for what the server offers, resources read and
// subscribed to, templates and prompts filled with the server's
// completions, and tasks. server-everything over stdio behind the gateway,
// and over Streamable HTTP (the gateway runs no tasks for a page; the
// server itself does).

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe(`the catalogue of rxmcp inspect in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  const session = inspectorSession();

  const open = async (args: string[]): Promise<Page> => {
    const run = await session.inspect(args);
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(run.url);
    return page;
  };

  const tab = (page: Page, kind: string) => page.locator(`#tab-${kind}`);

  /**
   * Subscribes to server-everything's architecture.md (`subscribed` then
   * looks at the page), has the server send updates of what is subscribed
   * (toggle-subscriber-updates: every 5 s), and shows the resource again.
   */
  const subscribeWithUpdates = async (page: Page, subscribed: () => Promise<void> = async () => undefined): Promise<void> => {
    await tab(page, 'resources').click();
    const resource = page.locator('#resources button[data-resource="demo://resource/static/document/architecture.md"]');
    await resource.click();
    await page.click('#subscribe');
    await subscribed();
    await tab(page, 'tools').click();
    await page.locator('#tools button[data-tool="toggle-subscriber-updates"]').click();
    await page.click('#run');
    await page.locator('#status', { hasText: 'done' }).waitFor();
    await tab(page, 'resources').click();
    await resource.click();
  };

  describe('server-everything over stdio, through the gateway', () => {
    let page: Page;

    beforeAll(async () => {
      page = await open(['--', process.execPath, everything, 'stdio']);
      await page.locator('#tools button[data-tool="echo"]').waitFor();
    });

    afterAll(() => page?.close());

    it('shows a tab for each thing the server declares, its count in the label, and no tab for what it does not', async () => {
      await tab(page, 'resources').filter({ hasText: 'Resources (9)' }).waitFor();
      await tab(page, 'prompts').filter({ hasText: 'Prompts (4)' }).waitFor();
      expect(await tab(page, 'tools').textContent()).toMatch(/^Tools \(\d+\)$/);
      expect(await tab(page, 'tools').getAttribute('aria-selected')).toBe('true');
      // The gateway declares no tasks to the page: no Tasks tab.
      expect(await tab(page, 'tasks').isHidden()).toBe(true);
    });

    it('moves between the tabs with the arrow keys, Home and End', async () => {
      await tab(page, 'tools').focus();
      await page.keyboard.press('ArrowRight');
      expect(await tab(page, 'resources').getAttribute('aria-selected')).toBe('true');
      expect(await page.locator('#resources').isVisible()).toBe(true);
      expect(await page.locator('#tools').isHidden()).toBe(true);
      await page.keyboard.press('End');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-prompts');
      expect(await page.locator('#prompts').isVisible()).toBe(true);
      await page.keyboard.press('Home');
      expect(await tab(page, 'tools').getAttribute('aria-selected')).toBe('true');
      expect(await page.locator('#tools').isVisible()).toBe(true);
    });

    it('reads a resource and shows its text', async () => {
      await tab(page, 'resources').click();
      await page.locator('#resources button[data-resource="demo://resource/static/document/features.md"]').click();
      expect(await page.locator('#call h2').textContent()).toBe('features.md');
      expect(await page.locator('#call .meta').textContent()).toBe('demo://resource/static/document/features.md · text/markdown');
      await page.click('#read');
      await page.locator('#result', { hasText: 'Everything Server - Features' }).waitFor();
    });

    it('offers the server\'s completions for a template\'s variable, and reads the URI the template makes of it', async () => {
      await page.locator('#resources button[data-template="demo://resource/dynamic/text/{resourceId}"]').click();
      await page.locator('#call input[name=resourceId]').fill('7');
      await page.locator('#call .suggestion', { hasText: '7' }).click();
      expect(await page.inputValue('#call input[name=resourceId]')).toBe('7');
      await page.click('#read');
      await page.locator('#status', { hasText: 'read demo://resource/dynamic/text/7' }).waitFor();
      expect(await page.locator('#result').textContent()).toContain('Resource 7: This is a plaintext resource');
    });

    it('completes a prompt\'s arguments, the first narrowing the second, and shows the messages it renders', async () => {
      await tab(page, 'prompts').click();
      await page.locator('#prompts button[data-prompt="completable-prompt"]').click();
      expect(await page.locator('#call label').allTextContents()).toEqual(['department (required)', 'name (required)']);
      await page.locator('#call input[name=department]').focus();
      await page.locator('#call .suggestion', { hasText: 'Marketing' }).waitFor();
      expect(await page.locator('#call .suggestion').allTextContents()).toEqual(['Engineering', 'Sales', 'Marketing', 'Support']);
      await page.locator('#call input[name=department]').fill('S');
      await page.locator('#call .suggestion', { hasText: 'Marketing' }).waitFor({ state: 'detached' });
      expect(await page.locator('#call .suggestion').allTextContents()).toEqual(['Sales', 'Support']);
      await page.locator('#call .suggestion', { hasText: 'Sales' }).click();
      await page.locator('#call input[name=name]').focus();
      await page.locator('#call .suggestion', { hasText: 'Eve' }).click();
      await page.click('#get');
      await page.locator('#status', { hasText: 'done' }).waitFor();
      expect(await page.locator('#result .message').allTextContents()).toEqual(['userPlease promote Eve to the head of the Sales team.']);
    });

    it('asks for a prompt\'s required arguments before getting it', async () => {
      await page.locator('#prompts button[data-prompt="args-prompt"]').click();
      expect(await page.locator('#call label').allTextContents()).toEqual(['city (required)', 'state']);
      await page.click('#get');
      expect(await page.locator('#status').textContent()).toBe('Required: city');
      await page.locator('#call input[name=city]').fill('Lyon');
      await page.click('#get');
      await page.locator('#result .message', { hasText: 'What\'s weather in Lyon?' }).waitFor();
    });

    it('subscribes to a resource through the gateway, and hears its updates', async () => {
      await subscribeWithUpdates(page);
      await page.locator('#updates', { hasText: /Subscribed: \d+ updates? so far\./ }).waitFor({ timeout: 15_000 });
      await page.click('#subscribe');
    });
  });

  describe('server-everything over Streamable HTTP, reached by the page itself', () => {
    let page: Page;
    let server: RunningServer;

    beforeAll(async () => {
      server = await startHttpServer('everything-http.mjs');
      page = await open(['--url', server.url]);
      await page.locator('#tools button[data-tool="echo"]').waitFor();
    });

    afterAll(async () => {
      await page?.close();
      await server?.stop();
    });

    it('runs a tool that requires a task as one, showing its status as it goes, and lists it under Tasks', async () => {
      await tab(page, 'tasks').waitFor();
      await page.locator('#tools button[data-tool="simulate-research-query"]').click();
      expect(await page.locator('#as-task').isChecked()).toBe(true);
      expect(await page.locator('#as-task').isDisabled()).toBe(true);
      await page.locator('#call input[name=topic]').fill('tide pools');
      await page.click('#run');
      await page.locator('#status', { hasText: /^task .+: working: Gathering sources/ }).waitFor();
      await page.locator('#status', { hasText: /^task .+: completed/ }).waitFor({ timeout: 20_000 });
      expect(await page.locator('#result').textContent()).toContain('tide pools');
      const taskId = /^task (.+): completed/.exec((await page.locator('#status').textContent()) as string)?.[1] as string;
      await tab(page, 'tasks').click();
      await page.locator('#tasks button.entry', { hasText: taskId }).filter({ hasText: 'completed' }).waitFor();
      expect(await tab(page, 'tasks').textContent()).toMatch(/^Tasks \(\d+\)$/);
    });

    it('cancels a running task from the Tasks tab, and shows the result of one that ended', async () => {
      await tab(page, 'tools').click();
      await page.locator('#tools button[data-tool="simulate-research-query"]').click();
      await page.locator('#call input[name=topic]').fill('coral');
      await page.click('#run');
      await page.locator('#status', { hasText: 'working' }).waitFor();
      const taskId = /^task (.+?): /.exec((await page.locator('#status').textContent()) as string)?.[1] as string;
      await tab(page, 'tasks').click();
      const listed = page.locator('#tasks button.entry', { hasText: taskId });
      await listed.filter({ hasText: 'working' }).click();
      expect(await page.locator('#call h2').textContent()).toBe(`Task ${taskId}`);
      await page.click('#task-cancel');
      await page.locator('#status', { hasText: 'cancelled' }).waitFor();
      await listed.filter({ hasText: 'cancelled' }).waitFor();
      expect(await page.locator('#task-cancel').isDisabled()).toBe(true);
      await page.locator('#tasks button.entry', { hasText: 'completed' }).first().click();
      await page.click('#task-result');
      await page.locator('#result', { hasText: 'tide pools' }).waitFor();
    });

    it('subscribes to a resource, counts its updates and reads it again at each', async () => {
      await subscribeWithUpdates(page, async () => {
        expect(await page.locator('#subscribe').textContent()).toBe('Unsubscribe');
        expect(await page.locator('#updates').textContent()).toBe('Subscribed: no update yet.');
      });
      await page.locator('#updates', { hasText: /Subscribed: \d+ updates? so far\./ }).waitFor();
      await page.locator('#status', { hasText: 'read again after an update' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#result').textContent()).toContain('Architecture');
      await page.click('#subscribe');
      expect(await page.locator('#subscribe').textContent()).toBe('Subscribe');
    });
  });

  describe('a server whose catalogue carries markup, and more resources than a page shows', () => {
    let page: Page;

    beforeAll(async () => {
      page = await open(['--', process.execPath, join(root, 'spec/fixtures/markup-catalogue-server.mjs')]);
      await tab(page, 'resources').filter({ hasText: 'Resources (1001)' }).waitFor();
    });

    afterAll(() => page?.close());

    const ranNothing = async (): Promise<void> => {
      expect(await page.locator('main img, main script, main a').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    };

    it('shows the first 200 resources, and says how many more there are', async () => {
      await tab(page, 'resources').click();
      expect(await page.locator('#resources button[data-resource]').count()).toBe(200);
      expect(await page.locator('#resources .more').textContent()).toBe('800 more not shown');
    });

    it('shows a resource\'s names and contents as text, and never runs them', async () => {
      await page.locator('#resources button[data-resource^="markup://first/"]').click();
      expect(await page.locator('#call h2').textContent()).toContain('Title <img src=x onerror=');
      await page.click('#read');
      await page.locator('#result', { hasText: 'contents <img src=x onerror=' }).waitFor();
      expect(await page.locator('#resources').textContent()).toContain('Template <img src=x onerror=');
      await ranNothing();
    });

    it('shows a prompt, its argument, the server\'s completions (20 of them) and its messages as text', async () => {
      await tab(page, 'prompts').click();
      await page.locator('#prompts button[data-prompt="markup"]').click();
      expect(await page.locator('#call').textContent()).toContain('Prompt description <img src=x');
      await page.locator('#call input[name=arg]').fill('v');
      await page.locator('#call .suggestion').first().waitFor();
      expect(await page.locator('#call .suggestion').count()).toBe(20);
      expect(await page.locator('#call .suggestions small').textContent()).toBe('4980 more');
      await page.locator('#call .suggestion').nth(3).click();
      await page.click('#get');
      await page.locator('#result .message', { hasText: 'message v3 <img src=x onerror=' }).waitFor();
      await ranNothing();
    });

    it('lists the resources again when the server says they changed', async () => {
      await tab(page, 'tools').click();
      await page.locator('#tools button[data-tool="add-resource"]').click();
      await page.click('#run');
      await page.locator('#status', { hasText: 'done' }).waitFor();
      await tab(page, 'resources').filter({ hasText: 'Resources (1002)' }).waitFor();
      await tab(page, 'resources').click();
      expect(await page.locator('#resources .more').textContent()).toBe('801 more not shown');
    });
  });

  describe('a 2026-07-28 server of the tasks extension, reached by the page itself', () => {
    let page: Page;
    let server: RunningServer;

    beforeAll(async () => {
      server = await startHttpServer('tasks-http-server.mjs');
      page = await open(['--url', server.url]);
      await page.locator('#server', { hasText: 'modern era' }).waitFor();
    });

    afterAll(async () => {
      await page?.close();
      await server?.stop();
    });

    it('runs a tool that requires a task as one, and says under Tasks that such a server lists none', async () => {
      await page.locator('#tools button[data-tool="required"]').click();
      expect(await page.locator('#as-task').isChecked()).toBe(true);
      await page.locator('#call input[name=ms]').fill('300');
      await page.click('#run');
      await page.locator('#status', { hasText: /^task .+: completed/ }).waitFor();
      await tab(page, 'tasks').click();
      expect(await page.locator('#tasks').textContent()).toContain('This server does not list its tasks');
    });
  });
});
