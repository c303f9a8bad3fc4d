import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, launchChromium, type RunningInspect, startInspect } from '../support/inspect.js';

// The Activity section of `rxmcp inspect` in Debian's Chromium: the log with
// the level the server sends from, the server's notifications, and every
// request with its answer's time, each opening to its JSON. The server is an
// SDK fixture over stdio, behind the gateway, and over Streamable HTTP.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');

describe(`rxmcp inspect's activity in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  let browser: Browser;
  let run: RunningInspect;

  beforeAll(async () => {
    browser = await launchChromium();
    run = await startInspect(['--', process.execPath, join(root, 'spec/fixtures/log-levels-server.mjs')]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await run?.stop();
  });

  const opened = async (url = run.url): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(url);
    await page.locator('#tools button[data-tool="log-every-level"]').waitFor();
    return page;
  };

  const call = async (page: Page, tool: string, outcome: string): Promise<void> => {
    await page.locator(`#tools button[data-tool="${tool}"]`).click();
    await page.locator('#call h2', { hasText: tool }).waitFor();
    await page.click('#run');
    await page.locator('#status', { hasText: outcome }).waitFor();
  };

  const logLines = (page: Page): Promise<string[]> => page.locator('#log > div').allTextContents();

  it('shows the log from the level chosen, and a new level applies to the next messages at once', async () => {
    const page = await opened();
    await call(page, 'log-every-level', 'done');
    await page.locator('#log > div', { hasText: 'a emergency message' }).waitFor();
    const atInfo = await logLines(page);
    expect(atInfo).toContain('[info] a info message');
    expect(atInfo.some((line) => line.includes('a debug message'))).toBe(false);

    await page.selectOption('#log-level', 'error');
    // The first setLevel went with the connection; the second is the person's choice.
    await page.locator('#requests .wire', { hasText: /logging\/setLevel.*· ok$/ }).nth(1).waitFor({ state: 'attached' });
    const before = (await logLines(page)).length;
    await call(page, 'log-every-level', 'done');
    await page.locator('#log > div').nth(before + 3).waitFor();
    const atError = (await logLines(page)).slice(before);
    expect(atError).toEqual(['[error] a error message', '[critical] a critical message', '[alert] a alert message', '[emergency] a emergency message']);
    await page.close();
  });

  it('lists the server\'s notifications as they come, each opening to its JSON', async () => {
    const page = await opened();
    await call(page, 'log-every-level', 'done');
    await page.click('#activity [data-pane=notifications]');
    await page.locator('#notifications .wire', { hasText: 'notifications/message' }).first().waitFor();
    expect(await page.locator('#activity [data-pane=notifications]').textContent()).toMatch(/^Notifications \([1-9]\d*\)$/);
    await page.locator('#notifications .wire button', { hasText: 'notifications/message' }).last().click();
    const json = await page.locator('#notifications .wire pre').textContent();
    expect(json).toMatch(/^received \d\d:\d\d:\d\d\.\d{3}\n/);
    expect(JSON.parse((json ?? '').split('\n').slice(1).join('\n'))).toMatchObject({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'emergency', data: 'a emergency message' } });
    await page.close();
  });

  it('keeps of a huge answer only the first 20,000 characters of its JSON, and says so', async () => {
    const page = await opened();
    await call(page, 'big', 'done');
    await page.click('#activity [data-pane=requests]');
    const answered = page.locator('#requests .wire').filter({ has: page.locator('button', { hasText: /→ tools\/call #\S+ {2}· \d+ ms · ok$/ }) });
    await answered.locator('button').click();
    const text = (await answered.locator('pre').textContent()) ?? '';
    expect(text).toContain('"name": "big"');
    expect(text).toMatch(/\n… \(cut at 20,000 characters\)$/);
    expect(text.length).toBeLessThan(45_000);
    await page.close();
  });

  it('pairs each request with its answer and how long it took, and marks an error answer with its code', async () => {
    const server = await startHttpServer('log-levels-server.mjs', '--http');
    const direct = await startInspect(['--url', server.url]);
    try {
      const page = await opened(direct.url);
      await call(page, 'log-every-level', 'done');
      await call(page, 'refuse', 'failed');
      await page.click('#activity [data-pane=requests]');
      const titled = (title: RegExp) => page.locator('#requests .wire').filter({ has: page.locator('button', { hasText: title }) });
      await titled(/→ tools\/call #\S+ {2}· \d+ ms · ok$/).waitFor();
      const refused = titled(/→ tools\/call #\S+ {2}· \d+ ms · error -32099$/);
      await refused.waitFor();
      expect(await refused.getAttribute('class')).toBe('wire failed');
      await refused.locator('button').click();
      const [sent, answer] = ((await refused.locator('pre').textContent()) ?? '').split('\n\n');
      expect(JSON.parse((sent ?? '').split('\n').slice(1).join('\n'))).toMatchObject({ method: 'tools/call', params: { name: 'refuse' } });
      expect(JSON.parse((answer ?? '').split('\n').slice(1).join('\n'))).toMatchObject({ error: { code: -32099, message: 'refused on purpose', data: { why: 'a test' } } });
      await page.close();
    } finally {
      await direct.stop();
      await server.stop();
    }
  });
});
