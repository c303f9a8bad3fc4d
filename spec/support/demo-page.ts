import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Frame, Page } from 'playwright-core';
import { findBrowser } from '../../scripts/system-packages.cjs';
import { launchChromium, until } from './apps-harness.js';

// The web demo (demos/web/serve.mjs) as `npm run demo:web` starts it, with
// its MCP Apps servers, in Debian's Chromium, headless (launched as
// apps-harness.ts does): what the demo's apps specs drive. The process's
// stderr is kept, line by line: the relay writes there every call a server
// answered ("<server> answered tools/call \"<tool>\"") and what the servers
// print ("<server>: <line>").
const root = join(__dirname, '..', '..');

/** The browser the web specs use, as npm test's pretest found it. */
export const chosenBrowser = findBrowser();

export interface DemoPage {
  /** The page's URL (http://127.0.0.1:PORT/). */
  url: string;
  browser: Browser;
  /** The demo server's stderr lines so far. */
  log: string[];
  stop(): Promise<void>;
}

/** Starts the demo server (with `args`, e.g. `--app NAME=SCRIPT`) and a browser. */
export async function startDemo(args: string[] = []): Promise<DemoPage> {
  const server: ChildProcessWithoutNullStreams = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0', ...args]);
  const log: string[] = [];
  createInterface({ input: server.stderr }).on('line', (line) => log.push(line));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  let browser: Browser | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}: ${log.slice(-5).join(' | ')}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
    });
    browser = await launchChromium();
    const started = browser;
    return {
      url,
      browser: started,
      log,
      stop: async () => {
        await started.close();
        server.kill();
        await exited;
      },
    };
  } catch (error) {
    await browser?.close();
    server.kill();
    await exited;
    throw error;
  }
}

/** Opens the page on `app`'s server and waits for its catalogue. */
export async function openApp(demo: DemoPage, app: string, viewport = { width: 1100, height: 800 }): Promise<Page> {
  const page = await demo.browser.newPage({ viewport });
  await page.goto(`${demo.url}?app=${app}`);
  await page.locator('#tools button').first().waitFor();
  return page;
}

/** Chooses `tool` and presses Call. */
export async function callTool(page: Page, tool: string): Promise<void> {
  await page.locator(`#tools button[data-tool="${tool}"]`).click();
  await page.locator('#call h2', { hasText: tool }).waitFor();
  await page.click('#run');
}

/** The view's frame: the one inside the sandbox proxy's frame, once the view has mounted. */
export async function viewFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await until(() => (found = page.frames().find((frame) => frame.parentFrame()?.parentFrame() === page.mainFrame())) !== undefined, 20000);
  return found as Frame;
}

/** How many times the demo's relay saw `server` answer a call of `tool`. */
export function answered(demo: DemoPage, server: string, tool: string): number {
  return demo.log.filter((line) => line === `${server} answered tools/call ${JSON.stringify(tool)}`).length;
}

