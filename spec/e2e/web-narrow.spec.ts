import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, chromium } from 'playwright-core';
import { findBrowser } from '../../scripts/system-packages.cjs';

// The web demo on a phone held upright (390 px wide), in Chromium: one
// column, and no sideways scrolling (issue #48).
const root = join(__dirname, '..', '..');
const chosen = findBrowser();

describe('the web demo at 390 px wide', () => {
  let server: ChildProcessWithoutNullStreams;
  let browser: Browser;

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  it('shows the tools and a call without scrolling sideways', async () => {
    server = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0']);
    const url = await new Promise<string>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
    });
    if (!chosen) throw new Error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
    browser = await chromium.launch({ executablePath: chosen.path, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(url);
    await page.locator('#tools button[data-tool="echo"]').click();
    await page.fill('input[name=text]', 'a-very-long-word-'.repeat(20));
    await page.click('#run');
    await page.locator('#status', { hasText: 'done' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 60_000);
});
