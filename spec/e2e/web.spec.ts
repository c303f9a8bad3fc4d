import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, chromium, type Page } from 'playwright-core';
import { firstValueFrom } from 'rxjs';
import { findBrowser } from '../../scripts/system-packages.cjs';
import { McpClient } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { serverEverythingSse } from '../support/sse-peers.js';

// The web demo in Debian's Chromium, headless: the same rxmcp bundle a user
// would ship, against the official SDK server over Streamable HTTP.
const root = join(__dirname, '..', '..');
const artifacts = join(root, 'test-artifacts');

// The same lookup npm test's pretest checked: $RXMCP_BROWSER, else the system's Chromium or Chrome.
const chosen = findBrowser();

describe(`the web demo in a real browser (${chosen ? `${chosen.path}, from ${chosen.from}` : 'none found'})`, () => {
  let server: ChildProcessWithoutNullStreams;
  const serverLog: string[] = [];
  let browser: Browser;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    server = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0']);
    createInterface({ input: server.stderr }).on('line', (line) => serverLog.push(line));
    url = await new Promise<string>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
    });
    if (!chosen) throw new Error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
    browser = await chromium.launch({
      executablePath: chosen.path,
      headless: true,
      // Two names an attacker would own, resolved to 127.0.0.1 as a rebinding DNS server would.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP rebound.example 127.0.0.1, MAP attacker.example 127.0.0.1'],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(url);
    await page.locator('#server', { hasText: 'modern era' }).waitFor();
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  const choose = async (tool: string): Promise<void> => {
    await page.locator(`#tools button[data-tool="${tool}"]`).click();
    await page.locator('#call h2', { hasText: tool }).waitFor();
  };

  it('shows the server and its catalogue', async () => {
    await page.locator('#tools button[data-tool="count"]').waitFor();
    expect(await page.locator('#server').textContent()).toContain('rxmcp-fixture');
  });

  it('calls a tool that reports progress, and the bar runs to done, with the log lines', async () => {
    await choose('count');
    await page.fill('input[name=steps]', '5');
    await page.fill('input[name=delayMs]', '150');
    await page.click('#run');
    await page.locator('#status', { hasText: '/5)' }).waitFor();
    await page.locator('#status', { hasText: 'done' }).waitFor();
    expect(await page.locator('.bar div').evaluate((bar) => (bar as HTMLElement).style.width)).toBe('100%');
    expect(await page.locator('#result').textContent()).toBe('counted to 5');
    expect(await page.locator('#log').textContent()).toContain('[info] step 5');
  });

  it('answers the server\'s question in a form', async () => {
    await choose('deploy');
    await page.fill('input[name=env]', 'prod');
    await page.click('#run');
    await page.locator('#question', { hasText: 'Deploy to prod?' }).waitFor();
    await page.check('#question input[name=confirm]');
    await page.click('#answer');
    await page.locator('#result', { hasText: 'deployed to prod' }).waitFor();
    expect(await page.locator('#question').isHidden()).toBe(true);
  });

  it('cancels a slow call, and the server sees it', async () => {
    await choose('sleep');
    await page.fill('input[name=ms]', '30000');
    await page.click('#run');
    await eventually(() => serverLog.some((line) => line.startsWith('started sleep')), 10000);
    await page.click('#cancel');
    await eventually(() => serverLog.some((line) => line.startsWith('cancelled')), 10000);
    expect(await page.locator('#status').textContent()).toBe('cancelled');
  });

  it('shows a task\'s status as it changes, and its Cancel button leaves the task cancelled on the server', async () => {
    const tasksPage = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const onServer = McpClient.connectHttp({ url: new URL('/tasks', url).href, tasks: true });
    try {
      await tasksPage.goto(`${url}?server=tasks`);
      await tasksPage.locator('#server', { hasText: 'rxmcp-tasks-fixture' }).waitFor();
      await tasksPage.locator('#tools button[data-tool="slow"]').click();
      await tasksPage.locator('#call h2', { hasText: 'slow' }).waitFor();
      await tasksPage.fill('input[name=ms]', '6000');
      await tasksPage.click('#run');
      await tasksPage.locator('#status', { hasText: 'task working: First half' }).waitFor();
      await tasksPage.locator('#status', { hasText: 'task working: Second half' }).waitFor({ timeout: 10000 });
      const taskId = (await tasksPage.locator('#status').getAttribute('data-task-id')) as string;
      await tasksPage.click('#cancel');
      expect(await tasksPage.locator('#status').textContent()).toBe('cancelled');
      // Asked from outside the page (detached, so asking cancels nothing), the server says so too.
      let status: string | undefined;
      for (let tries = 0; tries < 50 && status !== 'cancelled'; tries++) {
        const seen = await firstValueFrom(onServer.resumeTask(taskId, { detach: true }));
        status = seen.task?.status;
        if (status !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe('cancelled');
    } finally {
      await onServer.close();
      await tasksPage.close();
    }
  });

  it('serves nothing to a page reached through a name an attacker re-pointed at 127.0.0.1 (DNS rebinding)', async () => {
    const rebound = await browser.newPage();
    try {
      const response = await rebound.goto(`http://rebound.example:${new URL(url).port}/`);
      expect(response?.status()).toBe(403);
      expect(await rebound.locator('#tools').count()).toBe(0);
    } finally {
      await rebound.close();
    }
  });

  it('refuses a call a page on another site sends it, as a form or as text', async () => {
    // The attacker's page, on a server of its own: a no-cors POST needs no preflight.
    const attack = `<script>for (const body of [new URLSearchParams({ a: 1 }), '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quick","arguments":{}}}'])
      fetch(${JSON.stringify(new URL('/tasks', url).href)}, { method: 'POST', mode: 'no-cors', body }).then(() => document.title += 'sent ');</script>`;
    const attacker: Server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attack));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const page = await browser.newPage();
    const refusals = () => serverLog.filter((line) => line === 'refused 403: the request comes from another origin').length;
    const before = refusals();
    try {
      await page.goto(`http://attacker.example:${(attacker.address() as { port: number }).port}/`);
      await eventually(() => refusals() === before + 2, 10000);
    } finally {
      await page.close();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });

  it('is pointed with ?url= at a server on this machine that serves only HTTP+SSE, and calls its tools', async () => {
    const sse = await serverEverythingSse();
    const ssePage = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    try {
      await ssePage.goto(`${url}?url=${encodeURIComponent(`${sse.origin}/sse`)}`);
      await ssePage.locator('#server', { hasText: 'mcp-servers/everything' }).waitFor();
      expect(await ssePage.locator('#server').textContent()).toMatch(/legacy era · .+ · sse$/);
      await ssePage.locator('#tools button[data-tool="get-sum"]').click();
      await ssePage.locator('#call h2', { hasText: 'get-sum' }).waitFor();
      await ssePage.fill('input[name=a]', '2');
      await ssePage.fill('input[name=b]', '40');
      await ssePage.click('#run');
      await ssePage.locator('#result', { hasText: 'The sum of 2 and 40 is 42.' }).waitFor();
    } finally {
      await ssePage.close();
      await sse.stop();
    }
    }, 40000);

  it('will not connect to a ?url= off this machine', async () => {
    const elsewhere = await browser.newPage();
    const asked: string[] = [];
    elsewhere.on('request', (request) => asked.push(request.url()));
    try {
      await elsewhere.goto(`${url}?url=${encodeURIComponent('http://attacker.example/sse')}`);
      await elsewhere.locator('#server', { hasText: 'will not connect to "http://attacker.example/sse"' }).waitFor();
      expect(asked.filter((address) => new URL(address).hostname === 'attacker.example')).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('shows a tool the server adds, when it says its list changed', async () => {
    await choose('grow');
    await page.fill('input[name=name]', 'freshly-added');
    await page.click('#run');
    await page.locator('#tools button[data-tool="freshly-added"]').waitFor({ timeout: 10000 });
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'web-demo.png') });
  });

  it('signs in to the protected server through a popup from the Sign in button, and shows auth$ and the catalogue', async () => {
    const context = await browser.newContext();
    try {
      const demo = await context.newPage();
      await demo.goto(`${url}?server=protected`);
      await demo.locator('#auth', { hasText: 'sign-in needed' }).waitFor({ timeout: 20000 });
      const [popup] = await Promise.all([demo.waitForEvent('popup'), demo.click('#sign-in')]);
      await popup.locator('text=Sign in').first().waitFor();
      await popup.click('button[type=submit]');
      await popup.locator('text=Allow access').waitFor();
      await popup.click('button[type=submit]');
      await demo.locator('#auth', { hasText: 'signed-in' }).waitFor({ timeout: 20000 });
      expect(await demo.locator('#sign-in').isHidden()).toBe(true);
      await demo.locator('#tools button[data-tool="admin-only"]').waitFor({ timeout: 20000 });
      expect(await demo.locator('#server').textContent()).toContain('modern era');
    } finally {
      await context.close();
    }
  }, 60000);
});
