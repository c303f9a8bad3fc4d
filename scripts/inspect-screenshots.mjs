// Takes the screenshots of docs/inspect.md: the built `rxmcp inspect` (npm run
// build first) with server-everything and basic-vanillajs on stdio, in
// Debian's Chromium (or RXMCP_BROWSER), each state saved as
// docs/images/inspect-NAME.png. Run by hand: node scripts/inspect-screenshots.mjs
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { findBrowser } = createRequire(import.meta.url)('./system-packages.cjs');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const basic = join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
const out = (name) => join(root, 'docs', 'images', `inspect-${name}.png`);

/** Starts `rxmcp inspect --no-open ARGS` and resolves with its URL and a stop function. */
function inspect(args) {
  const child = spawn(process.execPath, [join(root, 'bin', 'rxmcp.mjs'), 'inspect', '--no-open', ...args]);
  const stop = () => new Promise((resolve) => (child.exitCode === null ? (child.once('exit', resolve), child.kill('SIGINT')) : resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`rxmcp inspect exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ url: line.replace(/^rxmcp inspect: /, ''), stop }));
  });
}

const browser = await chromium.launch({ executablePath: findBrowser().path, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const runs = [];
try {
  const run = await inspect(['--', process.execPath, everything, 'stdio']);
  runs.push(run);
  const page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
  await page.goto(run.url);

  // A tool's form, and an image result.
  await page.locator('#tools button[data-tool="get-tiny-image"]').click();
  await page.click('#run');
  await page.locator('#result img').waitFor();
  await page.screenshot({ path: out('tool-result') });

  // The form of a tool with choices and a raw JSON switch.
  await page.locator('#tools button[data-tool="get-structured-content"]').click();
  await page.locator('#call [name="location"]').selectOption({ index: 1 });
  await page.click('#run');
  await page.locator('#status', { hasText: 'done' }).waitFor();
  await page.screenshot({ path: out('structured-content') });

  // A resource read.
  await page.click('#tab-resources');
  await page.locator('#resources button[data-resource="demo://resource/static/document/features.md"]').click();
  await page.click('#read');
  await page.locator('#result', { hasText: 'Everything Server' }).waitFor();
  await page.screenshot({ path: out('resource') });

  // A prompt's argument, completed by the server.
  await page.click('#tab-prompts');
  await page.locator('#prompts button[data-prompt="completable-prompt"]').click();
  await page.locator('#call input[name=department]').focus();
  await page.locator('#call .suggestion', { hasText: 'Marketing' }).waitFor();
  await page.screenshot({ path: out('prompt-completion') });

  // A server's question, in the dialog above everything.
  await page.click('#tab-tools');
  await page.locator('#tools button[data-tool="trigger-elicitation-request"]').click();
  await page.click('#run');
  await page.locator('dialog#question[open]').waitFor();
  await page.screenshot({ path: out('question') });
  await page.keyboard.press('Escape');
  await page.locator('#status', { hasText: 'done' }).waitFor();

  // The requests, one open to its JSON.
  await page.click('#activity [data-pane=requests]');
  const opened = page.locator('#requests .wire', { hasText: /completion\/complete .* ms · ok/ }).last();
  await opened.locator('button').click();
  await opened.locator('pre').evaluate((pre) => pre.parentElement?.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: out('requests'), fullPage: true });

  // 390 px wide.
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await narrow.goto(run.url);
  await narrow.locator('#tools button[data-tool="echo"]').click();
  await narrow.fill('#call input[name=message]', 'hello at 390 px');
  await narrow.click('#run');
  await narrow.locator('#status', { hasText: 'done' }).waitFor();
  await narrow.screenshot({ path: out('narrow') });

  // A connection that fails, said plainly.
  await page.fill('#connect-url', 'http://127.0.0.1:9/mcp');
  await page.click('#connect-button');
  await page.locator('#connection-error:not([hidden])').waitFor();
  await page.screenshot({ path: out('nothing-listening') });

  // An MCP Apps view.
  const apps = await inspect(['--', process.execPath, basic, '--stdio']);
  runs.push(apps);
  const viewPage = await browser.newPage({ viewport: { width: 1200, height: 820 } });
  await viewPage.goto(apps.url);
  await viewPage.locator('#tools button[data-tool="get-time"]').click();
  await viewPage.click('#run');
  await viewPage.locator('#status', { hasText: 'done' }).waitFor();
  await viewPage.locator('#view iframe').waitFor();
  await viewPage.waitForTimeout(1500);
  await viewPage.screenshot({ path: out('view') });
  console.log('screenshots written to docs/images/inspect-*.png');
} finally {
  await browser.close();
  await Promise.all(runs.map((run) => run.stop()));
}
