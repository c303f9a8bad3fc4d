import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, inspectorSession, type RunningInspect } from '../support/inspect.js';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';

// The page of `rxmcp inspect` (the built CLI, with its built page) in
// Debian's Chromium, headless: server-everything over stdio behind the
// gateway, the SDK fixture over Streamable HTTP with --url, and the connect
// form's four ways to fail.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe(`rxmcp inspect in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  const session = inspectorSession();

  const inspect = async (args: string[]): Promise<RunningInspect> => {
    const run = await session.inspect(args);
    return run;
  };

  const callEcho = async (page: Page, field: string, text: string): Promise<void> => {
    await page.locator('#tools button[data-tool="echo"]').click();
    await page.locator('#call h2', { hasText: 'echo' }).waitFor();
    await page.fill(`#call input[name=${field}]`, text);
    await page.click('#run');
    await page.locator('#status', { hasText: 'done' }).waitFor();
  };

  it('shows a stdio server through the gateway: its tools, and an echo call\'s result', async () => {
    const run = await inspect(['--', process.execPath, everything, 'stdio']);
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(run.url);
    // The page talks to the gateway, and says what the server behind it is.
    await page.locator('#server', { hasText: "through the inspector's gateway" }).waitFor();
    expect(await page.locator('#server').textContent()).toMatch(/^mcp-servers\/everything \S+ · legacy era · 2025-11-25 · stdio, through the inspector's gateway$/);
    await page.locator('#tools button[data-tool="get-sum"]').waitFor();
    await callEcho(page, 'message', 'hello from the page');
    expect(await page.locator('#result').textContent()).toBe('Echo: hello from the page');
    await page.close();
  });

  it('keeps the run\'s token out of the connect form, and sends it to no server the form is pointed at next', async () => {
    const seen: Array<string | undefined> = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('no');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const run = await inspect(['--', process.execPath, everything, 'stdio']);
      const page = await session.browser.newPage({ viewport: { width: 1000, height: 700 } });
      await page.goto(run.url);
      await page.locator('#tools button[data-tool="echo"]').waitFor();
      expect(await page.locator('#connect-form').evaluate((form) => [...form.querySelectorAll('input')].map((input) => input.value).join(' '))).not.toContain(run.token);
      await page.fill('#connect-url', `http://127.0.0.1:${(other.address() as { port: number }).port}/mcp`);
      await page.click('#connect-button');
      await page.locator('#connection-error[data-kind]').waitFor();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((authorization) => authorization?.includes(run.token))).toEqual([]);
      await page.close();
    } finally {
      other.close();
    }
  });

  it('shows a server\'s markup as text, and never runs it', async () => {
    const run = await inspect(['--', process.execPath, join(root, 'spec/fixtures/markup-server.mjs')]);
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.goto(run.url);
    await page.locator('#tools button[data-tool="markup"]').click();
    await page.locator('#call h2', { hasText: 'markup' }).waitFor();
    await page.click('#run');
    await page.locator('#status', { hasText: 'done' }).waitFor();
    expect(await page.locator('#result').textContent()).toContain('result <img src=x onerror=');
    expect(await page.locator('#tools button').textContent()).toContain('Title <img src=x');
    expect(await page.locator('#call').textContent()).toContain('Description <img src=x onerror=');
    expect(await page.locator('main img, main script, main a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.close();
  });

  it('connects to --url itself, over Streamable HTTP', async () => {
    const fixture = await startHttpServer('cors-http-server.mjs');
    try {
      const run = await inspect(['--url', fixture.url]);
      const page = await session.browser.newPage({ viewport: { width: 1000, height: 700 } });
      await page.goto(run.url);
      await page.locator('#server', { hasText: 'rxmcp-fixture' }).waitFor();
      expect(await page.locator('#server').textContent()).toContain('streamable-http');
      expect(await page.inputValue('#connect-url')).toBe(fixture.url);
      await callEcho(page, 'text', 'over HTTP');
      expect(await page.locator('#result').textContent()).toBe('over HTTP');
      await page.close();
    } finally {
      await fixture.stop();
    }
  });

  describe('the connect form', () => {
    let page: Page;
    let withCors: RunningServer;
    let withoutCors: RunningServer;
    let oauth: OAuthServers;
    let html: Server;
    let htmlUrl: string;
    let closedUrl: string;

    beforeAll(async () => {
      [withCors, withoutCors, oauth] = await Promise.all([startHttpServer('cors-http-server.mjs'), startHttpServer('http-server.mjs'), startOAuthServers()]);
      html = createServer((_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<!doctype html><h1>Not here</h1>'));
      await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
      htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}/mcp`;
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      closedUrl = `http://127.0.0.1:${(closed.address() as { port: number }).port}/mcp`;
      await new Promise((resolve) => closed.close(resolve));
      const run = await inspect([]);
      // 390 px wide, as a phone held upright: the page must not scroll sideways.
      page = await session.browser.newPage({ viewport: { width: 390, height: 800 } });
      await page.goto(run.url);
    });

    afterAll(async () => {
      await page?.close();
      html?.close();
      await Promise.all([withCors?.stop(), withoutCors?.stop(), oauth?.stop()]);
    });

    const connectTo = async (url: string, headers: Record<string, string> = {}): Promise<void> => {
      await page.fill('#connect-url', url);
      await page.evaluate(() => document.querySelectorAll('.header-row').forEach((row) => row.remove()));
      for (const [name, value] of Object.entries(headers)) {
        await page.click('#add-header');
        await page.locator('.header-name').last().fill(name);
        await page.locator('.header-value').last().fill(value);
      }
      await page.click('#connect-button');
    };

    const failure = async (kind: string): Promise<string> => {
      await page.locator(`#connection-error[data-kind="${kind}"]`).waitFor();
      return (await page.locator('#connection-error').textContent()) as string;
    };

    it('opens on the form alone when inspect was given no server, without sideways scrolling at 390 px', async () => {
      expect(await page.locator('#server').textContent()).toBe('not connected');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });

    it('says nothing is listening on a closed port', async () => {
      await connectTo(closedUrl);
      expect(await failure('refused')).toContain('Nothing listening at');
    });

    it('says a web page is not an MCP endpoint', async () => {
      await connectTo(htmlUrl);
      expect(await failure('not-mcp')).toContain('answered 404 with "text/html"');
    });

    it('says CORS refused for an MCP server that does not let the page call it', async () => {
      await connectTo(withoutCors.url);
      expect(await failure('cors')).toContain('CORS refused');
    });

    it('says a sign-in is needed for the protected server, and offers one', async () => {
      await connectTo(oauth.url);
      // The connect form's verdict shows until the Sign-in panel takes over (spec/e2e/inspect-views.spec.ts signs in).
      await page.locator('#sign-in-status', { hasText: 'Sign-in needed' }).waitFor();
      await page.locator('#sign-in-button', { hasText: 'Sign in' }).waitFor();
    });

    it('connects with the form, replacing the failed connection and its error', async () => {
      await connectTo(withCors.url, { 'X-Inspect-Spec': 'yes' });
      await page.locator('#server', { hasText: 'rxmcp-fixture' }).waitFor();
      expect(await page.locator('#connection-error').isHidden()).toBe(true);
      await page.locator('#tools button[data-tool="echo"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
});
