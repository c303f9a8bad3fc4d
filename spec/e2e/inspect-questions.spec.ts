import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, inspectorSession } from '../support/inspect.js';

// The questions a server asks, as the page of `rxmcp inspect` shows them in
// Debian's Chromium, headless: server-everything over stdio behind the
// gateway (its elicitation form of every field type, URL elicitation,
// sampling) and over Streamable HTTP with --url (roots, which it reads again
// when told they changed); the answers are read back from what the server
// says it received.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe(`the questions of rxmcp inspect in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  const session = inspectorSession();

  const openOn = async (args: string[], connectedTo: string): Promise<Page> => {
    const run = await session.inspect(args);
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(run.url);
    await page.locator('#server', { hasText: connectedTo }).waitFor();
    return page;
  };

  const startCall = async (page: Page, tool: string, fill: Record<string, string> = {}): Promise<void> => {
    await page.locator(`#tools button[data-tool="${tool}"]`).click();
    await page.locator('#call h2', { hasText: tool }).waitFor();
    for (const [field, value] of Object.entries(fill)) await page.fill(`#call [name=${field}]`, value);
    await page.click('#run');
  };

  const result = async (page: Page): Promise<string> => {
    await page.locator('#status', { hasText: 'done' }).waitFor();
    return (await page.locator('#result').textContent()) as string;
  };

  describe('server-everything over stdio, through the gateway', () => {
    let page: Page;

    beforeAll(async () => {
      page = await openOn(['--', process.execPath, everything, 'stdio'], 'through the inspector\'s gateway');
      await page.locator('#tools button[data-tool="trigger-elicitation-request"]').waitFor();
    });

    afterAll(() => page?.close());

    it('asks its elicitation as a form of every field type, defaults filled in, and sends the choices as they are typed', async () => {
      await startCall(page, 'trigger-elicitation-request');
      const dialog = page.locator('dialog#question[open]');
      await dialog.waitFor();
      expect(await dialog.locator('.asked-by').textContent()).toMatch(/^Asked by "rxmcp-inspect \(.*node.*\)"/);
      expect(await dialog.textContent()).toContain('Please provide inputs for the following fields:');
      // Defaults, as the server wrote them.
      expect(await dialog.locator('[name=firstLine]').inputValue()).toBe('It was a dark and stormy night.');
      expect(await dialog.locator('[name=integer]').inputValue()).toBe('42');
      expect(await dialog.locator('[name=number]').inputValue()).toBe('3.14');
      expect(await dialog.locator('select[name=untitledSingleSelectEnum] option:checked').textContent()).toBe('Monica');
      expect(await dialog.locator('select[name=titledSingleSelectEnum] option:checked').textContent()).toBe('Superman');
      expect(await dialog.locator('select[name=legacyTitledEnum] option:checked').textContent()).toBe('Cats');
      expect(await dialog.locator('[data-field=untitledMultipleSelectEnum] label.choice').allTextContents()).toEqual(['Guitar', 'Piano', 'Violin', 'Drums', 'Bass']);
      expect(await dialog.locator('[data-field=titledMultipleSelectEnum] label.choice').allTextContents()).toEqual(['Tuna', 'Salmon', 'Trout']);
      // Each format its own control; the required field marked.
      expect(await dialog.locator('[name=email]').getAttribute('type')).toBe('email');
      expect(await dialog.locator('[name=homepage]').getAttribute('type')).toBe('url');
      expect(await dialog.locator('[name=birthdate]').getAttribute('type')).toBe('date');
      expect(await dialog.locator('[data-field=name] .required').count()).toBe(1);

      // Enter on an empty required field: told which, nothing sent.
      await dialog.locator('[name=firstLine]').press('Enter');
      expect(await dialog.locator('[data-field=name] .field-problem').textContent()).toBe('name is required');
      await dialog.locator('[name=name]').fill('Ada');
      await dialog.locator('[name=email]').fill('not an address');
      await dialog.locator('[name=integer]').fill('420');
      await dialog.locator('#answer').click();
      expect(await dialog.locator('[data-field=email] .field-problem').textContent()).toBe('email must be an email address');
      await dialog.locator('[name=email]').fill('ada@example.com');
      await dialog.locator('#answer').click();
      expect(await dialog.locator('[data-field=integer] .field-problem').textContent()).toBe('integer must be at most 100');
      await dialog.locator('[name=integer]').fill('7');
      await dialog.locator('[data-field=untitledMultipleSelectEnum] label.choice', { hasText: 'Piano' }).click();
      await dialog.locator('[data-field=titledMultipleSelectEnum] label.choice', { hasText: 'Trout' }).click();
      await dialog.locator('select[name=titledSingleSelectEnum]').selectOption({ label: 'Wonder Woman' });
      await dialog.locator('select[name=legacyTitledEnum]').selectOption({ label: 'Birds' });
      await dialog.locator('[name=check]').check();
      await dialog.locator('[name=birthdate]').fill('1815-12-10');
      await dialog.locator('[name=name]').press('Enter');

      const said = await result(page);
      expect(await page.locator('dialog#question').isVisible()).toBe(false);
      const raw = JSON.parse(said.slice(said.indexOf('{'), said.lastIndexOf('}') + 1)) as { action: string; content: Record<string, unknown> };
      expect(raw).toEqual({
        action: 'accept',
        content: {
          name: 'Ada',
          check: true,
          firstLine: 'It was a dark and stormy night.',
          email: 'ada@example.com',
          birthdate: '1815-12-10',
          integer: 7,
          number: 3.14,
          untitledSingleSelectEnum: 'Monica',
          untitledMultipleSelectEnum: ['Guitar', 'Piano'],
          titledSingleSelectEnum: 'hero-3',
          titledMultipleSelectEnum: ['fish-1', 'fish-3'],
          legacyTitledEnum: 'pet-3',
        },
      });
    });

    it('checks a tool\'s arguments before calling, and edits them as raw JSON', async () => {
      await page.locator('#tools button[data-tool="echo"]').click();
      await page.locator('#call h2', { hasText: 'echo' }).waitFor();
      await page.click('#run');
      expect(await page.locator('#call [data-field=message] .field-problem').textContent()).toBe('message is required');
      expect(await page.locator('#status').textContent()).toBe('');
      await page.fill('#call [name=message]', 'from the fields');
      await page.locator('#call .raw-toggle').check();
      expect(JSON.parse(await page.locator('#call .raw-json').inputValue())).toEqual({ message: 'from the fields' });
      await page.fill('#call .raw-json', '{"message": "from raw JSON"}');
      await page.click('#run');
      expect(await result(page)).toBe('Echo: from raw JSON');
      await page.locator('#call .raw-toggle').uncheck();
      expect(await page.inputValue('#call [name=message]')).toBe('from raw JSON');
    });

    it('answers cancel on Escape', async () => {
      await startCall(page, 'trigger-elicitation-request');
      await page.locator('dialog#question[open]').waitFor();
      await page.keyboard.press('Escape');
      expect(await result(page)).toContain('User cancelled the elicitation dialog');
      expect(await page.locator('dialog#question').isVisible()).toBe(false);
    });

    it('asks for a URL with its host set apart, and opens it only on consent', async () => {
      await startCall(page, 'trigger-url-elicitation', { url: 'https://example.com/connect?session=1', message: 'Connect your example account' });
      const dialog = page.locator('dialog#question[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Connect your example account');
      expect(await dialog.locator('.url-host').textContent()).toBe('example.com');
      expect(await dialog.locator('.url-full').textContent()).toBe('https://example.com/connect?session=1');
      const opened = page.context().waitForEvent('page');
      await dialog.locator('#open-url').click();
      const tab = await opened;
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
      expect(await result(page)).toContain('User completed the URL elicitation flow');
    });

    it('sends a URL question\'s decline, and opens nothing', async () => {
      let opened = 0;
      page.context().on('page', () => (opened += 1));
      await startCall(page, 'trigger-url-elicitation', { url: 'https://example.com/other', message: 'Elsewhere' });
      await page.locator('dialog#question[open] .url-host').waitFor();
      await page.keyboard.press('Enter');
      expect(await result(page)).toContain('User declined to open the URL');
      expect(opened).toBe(0);
    });

    it('shows a sampling request and sends the reply written by hand', async () => {
      await startCall(page, 'trigger-sampling-request', { prompt: 'Is it raining?' });
      const dialog = page.locator('dialog#question[open]');
      await dialog.locator('.sampling-message').waitFor();
      expect(await dialog.locator('.sampling-message').textContent()).toBe('userResource trigger-sampling-request context: Is it raining?');
      expect(await dialog.textContent()).toContain('You are a helpful test server.');
      expect(await dialog.locator('.sampling-facts').textContent()).toContain('maxTokens: 100');
      await dialog.locator('#sampling-text').fill('No, it is sunny.');
      await dialog.locator('#sampling-model').fill('a-person');
      await dialog.locator('#answer').click();
      const said = await result(page);
      const answer = JSON.parse(said.slice(said.indexOf('{'))) as Record<string, unknown>;
      expect(answer).toEqual({ role: 'assistant', content: { type: 'text', text: 'No, it is sunny.' }, model: 'a-person', stopReason: 'endTurn' });
    });

    it('drafts a sampling reply with the model set up under Answers, sent once approved', async () => {
      const model = await startFakeOpenAI({ apiKey: 'sk-inspect', cors: true, reply: (messages) => ({ role: 'assistant', content: `model read ${messages.length} messages` }) });
      try {
        await page.fill('#model-url', model.url);
        await page.fill('#model-key', 'sk-inspect');
        await page.fill('#model-name', 'fake-model');
        await startCall(page, 'trigger-sampling-request', { prompt: 'Plan my day' });
        const dialog = page.locator('dialog#question[open]');
        await dialog.locator('#ask-model').click();
        await dialog.locator('#model-status', { hasText: 'The model drafted this reply' }).waitFor();
        expect(await dialog.locator('#sampling-text').inputValue()).toBe('model read 2 messages');
        expect(model.requests[0]?.body.messages).toEqual([
          { role: 'system', content: 'You are a helpful test server.' },
          { role: 'user', content: 'Resource trigger-sampling-request context: Plan my day' },
        ]);
        // A draft is not an answer: the server has heard nothing yet.
        expect(await page.locator('#status').textContent()).toBe('running…');
        await dialog.locator('#answer').click();
        const said = await result(page);
        expect(JSON.parse(said.slice(said.indexOf('{')))).toEqual({ role: 'assistant', content: { type: 'text', text: 'model read 2 messages' }, model: 'fake-model', stopReason: 'endTurn' });
      } finally {
        await page.fill('#model-url', '');
        await model.close();
      }
    });

    // Last: the gateway keeps a call it asked about for minutes when a 2026-07-28 host leaves it (there is no
    // request to cancel), and declines the questions of a stdio server it cannot tie to one call meanwhile.
    it('withdraws the question when its call is cancelled', async () => {
      await startCall(page, 'trigger-elicitation-request');
      await page.locator('dialog#question[open]').waitFor();
      // The modal dialog covers the page: the call is cancelled as the page would, from its Cancel button.
      await page.evaluate(() => (document.getElementById('cancel') as HTMLButtonElement).click());
      await page.locator('dialog#question').waitFor({ state: 'hidden' });
      expect(await page.locator('#status').textContent()).toBe('cancelled');
    });
  });

  describe('a 2026-07-28 server over stdio, through the gateway, that asks for roots in each call', () => {
    let page: Page;

    beforeAll(async () => {
      page = await openOn(['--', process.execPath, join(root, 'spec/fixtures/roots-server.mjs')], 'through the inspector\'s gateway');
    });

    afterAll(() => page?.close());

    it('is offered the roots set up under Answers, as they are at each call', async () => {
      await page.fill('#root-uri', 'file:///srv/projects/alpha');
      await page.fill('#root-name', 'Alpha');
      await page.click('#add-root');
      await page.fill('#root-uri', 'file:///srv/projects/gamma');
      await page.click('#add-root');
      expect(await page.locator('#roots li code').allTextContents()).toEqual(['file:///srv/projects/alpha', 'file:///srv/projects/gamma']);
      await startCall(page, 'show_roots');
      expect(await result(page)).toBe('file:///srv/projects/alpha\nfile:///srv/projects/gamma');
      await page.click('#roots button[aria-label="remove file:///srv/projects/alpha"]');
      await page.click('#run');
      expect(await result(page)).toBe('file:///srv/projects/gamma');
    });
  });

  describe('a server whose questions are full of markup, through the gateway', () => {
    let page: Page;

    beforeAll(async () => {
      page = await openOn(['--', process.execPath, join(root, 'spec/fixtures/hostile-questions-server.mjs')], 'through the inspector\'s gateway');
    });

    afterAll(() => page?.close());

    const nothingRan = async (): Promise<void> => {
      expect(await page.locator('dialog#question img, dialog#question script, dialog#question a').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    };

    it('shows a form\'s markup as text, and answers it with a field named __proto__ among the others', async () => {
      await startCall(page, 'ask');
      const dialog = page.locator('dialog#question[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Message <img src=x onerror=');
      expect(await dialog.locator('[data-field=note] label').textContent()).toContain('Note <img src=x');
      expect(await dialog.locator('[name=note]').inputValue()).toContain('Default <img src=x');
      expect(await dialog.locator('select[name=pick] option:checked').textContent()).toBe('choice-39 <img src=x onerror="window.pwned=1"><script>window.pwned=2</script><a href="javascript:window.pwned=3">link</a>');
      expect(await dialog.locator('select[name=pick] option').count()).toBe(41);
      await nothingRan();
      await dialog.locator('[data-field=many] label.choice', { hasText: 'A <img' }).click();
      await dialog.locator('[name=__proto__]').fill('just text');
      await dialog.locator('#answer').click();
      const sent = JSON.parse(await result(page)) as { action: string; content: Record<string, unknown> };
      expect(sent.action).toBe('accept');
      expect(sent.content.note).toBe(`Default ${'<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><a href="javascript:window.pwned=3">link</a>'}`);
      expect(sent.content.many).toEqual(['a']);
      expect(sent.content.pick).toBe('choice-39');
    });

    it('shows a sampling request\'s markup as text', async () => {
      await startCall(page, 'sample');
      const dialog = page.locator('dialog#question[open]');
      await dialog.locator('.sampling-message').waitFor();
      expect(await dialog.textContent()).toContain('System <img src=x');
      expect(await dialog.locator('.sampling-message').textContent()).toContain('User <img src=x');
      expect(await dialog.textContent()).toContain('Tool <img src=x');
      await nothingRan();
      // Stopping the call is the way out here: this server asks again for as long as it gets no reply.
      await page.evaluate(() => (document.getElementById('cancel') as HTMLButtonElement).click());
      await page.locator('dialog#question').waitFor({ state: 'hidden' });
    });
  });

  describe('server-everything over Streamable HTTP (--url)', () => {
    let server: RunningServer;
    let page: Page;

    beforeAll(async () => {
      server = await startHttpServer('everything-http.mjs');
      page = await openOn(['--url', server.url], 'mcp-servers/everything');
    });

    afterAll(async () => {
      await page?.close();
      await server?.stop();
    });

    it('tells the server at once when a root is added or removed, and it reads them again', async () => {
      await page.locator('#log', { hasText: 'Roots updated: 0 root(s) received from client' }).waitFor();
      await page.fill('#root-uri', 'file:///srv/projects/beta');
      await page.fill('#root-name', 'Beta');
      await page.locator('#root-name').press('Enter');
      await page.locator('#log', { hasText: 'Roots updated: 1 root(s) received from client' }).waitFor();
      await startCall(page, 'get-roots-list');
      // The server's list reads as Markdown, and is shown so: the root's name and URI are in it.
      expect(await result(page)).toMatch(/Beta\s*URI: file:\/\/\/srv\/projects\/beta/);
      await page.click('#roots button[aria-label="remove file:///srv/projects/beta"]');
      await page.locator('#log div', { hasText: 'Roots updated: 0 root(s)' }).nth(1).waitFor();
    });

    it('refuses a root the client would refuse, saying why', async () => {
      await page.fill('#root-uri', 'file:///srv/../etc');
      await page.click('#add-root');
      expect(await page.locator('#roots-problem').textContent()).toBe('"file:///srv/../etc" has a . or .. segment (path traversal)');
      expect(await page.locator('#roots li').allTextContents()).toEqual(['none: servers are offered no roots']);
    });
  });
});
