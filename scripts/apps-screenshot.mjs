#!/usr/bin/env node
// Takes docs/images/apps-demo.png: the web demo showing the budget-allocator
// example server's view (a real MCP App, in its sandbox on the demo's second
// origin), in the system's Chromium, headless.
//
//   npm run build && node scripts/apps-screenshot.mjs
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { findBrowser } = createRequire(import.meta.url)('./system-packages.cjs');
const out = join(root, 'docs', 'images', 'apps-demo.png');

const chosen = findBrowser();
if (!chosen) {
  console.error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
  process.exit(1);
}

const server = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => server.once('exit', resolve));
let browser;
try {
  const url = await new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
    createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
  });
  browser = await chromium.launch({ executablePath: chosen.path, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  await page.goto(`${url}?app=budget-allocator`);
  await page.locator('#tools button[data-tool="get-budget-data"]').click();
  await page.click('#run');
  // The view is ready when its sliders (built from the tool's result) are there and the page sized its frame.
  const view = await new Promise((resolve, reject) => {
    const deadline = Date.now() + 30000;
    const look = () => {
      const frame = page.frames().find((candidate) => candidate.parentFrame()?.parentFrame() === page.mainFrame());
      if (frame) resolve(frame);
      else if (Date.now() > deadline) reject(new Error('the view never mounted'));
      else setTimeout(look, 100);
    };
    look();
  });
  await view.locator('.slider-row').first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser?.close();
  server.kill();
  await exited;
}
