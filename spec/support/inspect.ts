import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, chromium } from 'playwright-core';
import { findBrowser } from '../../scripts/system-packages.cjs';

const bin = join(__dirname, '..', '..', 'bin', 'rxmcp.mjs');

/** A running `rxmcp inspect --no-open` (the built CLI, as a user runs it). */
export interface RunningInspect {
  /** The page's URL as printed, token included. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  token: string;
  child: ChildProcessWithoutNullStreams;
  /** What it wrote on stderr so far, a line each. */
  stderr: string[];
  /** Sends SIGINT and resolves with the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** Starts `rxmcp inspect --no-open ...args` and resolves once it printed its URL. */
export function startInspect(args: string[]): Promise<RunningInspect> {
  const child = spawn(process.execPath, [bin, 'inspect', '--no-open', ...args]);
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    return exited;
  };
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`rxmcp inspect exited with ${code}: ${stderr.join('\n')}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const url = /^rxmcp inspect: (http:\/\/127\.0\.0\.1:\d+\/\?token=([A-Za-z0-9_-]+))$/.exec(line);
      if (!url) return reject(new Error(`rxmcp inspect printed ${JSON.stringify(line)}`));
      resolve({ url: url[1] as string, origin: new URL(url[1] as string).origin, token: url[2] as string, child, stderr, stop });
    });
  });
}

/** The browser the inspect specs drive: Debian's Chromium, or the one RXMCP_BROWSER names. */
export const chosenBrowser = findBrowser();

/** Launches {@link chosenBrowser} headless, or fails with the one line that says what to install. */
export function launchChromium(): Promise<Browser> {
  if (!chosenBrowser) throw new Error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
  return chromium.launch({
    executablePath: chosenBrowser.path,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A describe block's browser and `rxmcp inspect` runs: see {@link inspectorSession}. */
export interface InspectorSession {
  /** The browser, launched before the block's tests. */
  readonly browser: Browser;
  /** Starts `rxmcp inspect --no-open ...args`, stopped after the block's tests. */
  inspect(args: string[]): Promise<RunningInspect>;
}

/** Called in a describe block: launches Chromium before its tests, and closes it and stops every run after them. */
export function inspectorSession(): InspectorSession {
  let browser: Browser | undefined;
  const runs: RunningInspect[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(runs.map((run) => run.stop()));
  });
  return {
    get browser() {
      if (!browser) throw new Error('the browser is launched in beforeAll: use it in a test');
      return browser;
    },
    async inspect(args) {
      const run = await startInspect(args);
      runs.push(run);
      return run;
    },
  };
}
