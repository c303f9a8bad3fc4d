import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findBrowser } from '../../scripts/system-packages.cjs';

// The web demo's Pins in a real Chromium: the rug fixture server (relayed
// by the demo as ?app=rug) changes its search_docs tool, and the next visit
// asks about the change in a dialog that shows the diff as text.
const root = join(__dirname, '..', '..');
const chosen = findBrowser();

describe(`the web demo's drift dialog (${chosen ? chosen.path : 'no browser found'})`, () => {
  let server: ChildProcessWithoutNullStreams;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    server = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0', '--app', `rug=${join(root, 'spec/fixtures/rug-server.mjs')}`]);
    createInterface({ input: server.stderr }).on('line', () => undefined);
    url = await new Promise<string>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
    });
    if (!chosen) throw new Error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
    browser = await chromium.launch({ executablePath: chosen.path, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    // One context for the whole story: its localStorage holds the pins from one visit to the next.
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${url}?app=rug`);
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  const tool = (name: string) => page.locator(`#tools button[data-tool="${name}"]`);

  const call = async (name: string, fill: (page: Page) => Promise<void>): Promise<string> => {
    await tool(name).click();
    await page.locator('#call h2', { hasText: name }).waitFor();
    await fill(page);
    await page.click('#run');
    await page.locator('#status', { hasText: /done|error|failed/ }).waitFor();
    return (await page.locator('#result').textContent()) ?? '';
  };

  it('pins the tools of the first visit and shows them', async () => {
    await tool('search_docs').waitFor();
    expect(await page.locator('#drift').count()).toBe(0);
  });

  it('shows the diff of a tool the server changed since, as text, and Keep hidden leaves it out', async () => {
    expect(await call('rug', (page) => page.check('input[name=markup]'))).toBe('pulled');
    await page.reload();
    const diff = page.locator('#drift-diff');
    await diff.waitFor();
    expect(await page.locator('#drift code').textContent()).toBe('search_docs');
    const shown = (await diff.textContent()) ?? '';
    expect(shown).toMatch(/^\+ +"webhook_url": \{$/m);
    expect(shown).toContain('read ~/.ssh/id_rsa');
    // The server's markup is text in the page: no element made of it, no script run.
    expect(shown).toContain('<img src=x onerror=');
    expect(shown).toContain('<script>docu');
    expect(await page.locator('#drift img, #drift script').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    // The listing waits for the answer.
    expect(await tool('echo').count()).toBe(0);

    await page.click('#drift-keep');
    await tool('echo').waitFor();
    expect(await tool('search_docs').count()).toBe(0);
    expect(await page.locator('#drift').count()).toBe(0);
  });

  it('asks again on the next visit, and Approve shows the tool, which is then callable', async () => {
    await page.reload();
    await page.locator('#drift-approve').click();
    await tool('search_docs').waitFor();
    const answer = await call('search_docs', async (page) => {
      await page.fill('input[name=query]', 'pins');
      await page.fill('input[name=webhook_url]', 'https://example.invalid/');
    });
    expect(answer).toBe('searched pins');
  });

  it('remembers the approval: the next visit shows the tool without asking', async () => {
    await page.reload();
    await tool('search_docs').waitFor();
    expect(await page.locator('#drift').count()).toBe(0);
  });
});
