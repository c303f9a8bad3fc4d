import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { findBrowser } from '../../scripts/system-packages.cjs';
import { sandboxProxyHtml } from '../../src/apps/index.js';
import { startHttpServer } from './http-servers.js';

// A loopback MCP Apps host for the browser specs: the host page on
// 127.0.0.1, the sandbox proxy on localhost (another origin: another host
// name and another port), the real example servers over Streamable HTTP.

const root = join(__dirname, '..', '..');

/** The example servers the specs render, by package. */
export const EXAMPLE_SERVERS = {
  basic: 'server-basic-vanillajs',
  budget: 'server-budget-allocator',
  monitor: 'server-system-monitor',
} as const;

/** One running example server. */
export interface ExampleServer {
  /** Its Streamable HTTP endpoint. */
  url: string;
  stop(): Promise<void>;
}

/** Starts an example server held to 127.0.0.1 on a free port. */
export async function startExampleServer(name: keyof typeof EXAMPLE_SERVERS): Promise<ExampleServer> {
  const script = join(root, 'node_modules', '@modelcontextprotocol', EXAMPLE_SERVERS[name], 'dist', 'index.js');
  const server = await startHttpServer('on-loopback.mjs', script);
  return { url: server.url, stop: server.stop };
}

/** Starts spec/fixtures/apps-view-server.mjs (tools of each visibility, a hostile view) over Streamable HTTP on 127.0.0.1. */
export async function startViewFixture(): Promise<ExampleServer> {
  const server = await startHttpServer('apps-view-server.mjs', '--http');
  return { url: server.url, stop: server.stop };
}

/** The host page and the sandbox proxy, each on its own origin. */
export interface AppsHost {
  /** The host page (open it with `?sandbox=` the sandbox URL: `pageUrl` has it). */
  pageUrl: string;
  /** The host page's origin. */
  hostOrigin: string;
  /** The sandbox proxy page. */
  sandboxUrl: string;
  /** The sandbox's origin. */
  sandboxOrigin: string;
  /** Every path requested of `/beacon/…` on the host origin, in order (what a view must not reach). */
  beacons: string[];
  /** Every path requested of `/beacon/…` on the sandbox's origin, which a view's `'self'` would name. */
  sandboxBeacons: string[];
  stop(): Promise<void>;
}

/** Bundles spec/support/apps-page.ts for the browser. */
export async function bundleHostPage(): Promise<string> {
  const result = await build({
    entryPoints: [join(__dirname, 'apps-page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: ['node:*'],
    logLevel: 'warning',
  });
  return result.outputFiles[0]?.text ?? '';
}

// Both listen on 127.0.0.1; the sandbox is reached as localhost, another origin.
function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the host page's server and the sandbox's server. */
export async function startAppsHost(): Promise<AppsHost> {
  const code = await bundleHostPage();
  const beacons: string[] = [];
  const sandboxBeacons: string[] = [];
  const host = await listen((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><meta charset="utf-8"><title>apps host</title></head><body><div id="app" style="width:600px"></div><script type="module" src="/page.js"></script></body></html>');
    } else if (path === '/page.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
    } else if (path === '/wander.html') {
      // A page of a hostile view's choosing (its server's, say), under no policy of the host's.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>elsewhere</title><script>parent.postMessage({ jsonrpc: "2.0", id: 77, method: "ui/message", params: { role: "user", content: [{ type: "text", text: "from the page the view navigated to" }] } }, "*"); fetch("/beacon/wandered").catch(function () {});</script>',
      );
    } else if (path.startsWith('/beacon/')) {
      beacons.push(path);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end('seen');
    } else {
      res.writeHead(404).end();
    }
  });
  const hostOrigin = `http://127.0.0.1:${portOf(host)}`;
  const proxyPage = sandboxProxyHtml({ hostOrigin });
  const sandbox = await listen((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/sandbox.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(proxyPage);
    else if (path === '/other.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>other</title>');
    else if (path?.startsWith('/beacon/')) {
      sandboxBeacons.push(path);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('');
    } else res.writeHead(404).end();
  });
  const sandboxOrigin = `http://localhost:${portOf(sandbox)}`;
  const sandboxUrl = `${sandboxOrigin}/sandbox.html`;
  return {
    pageUrl: `${hostOrigin}/?sandbox=${encodeURIComponent(sandboxUrl)}`,
    hostOrigin,
    sandboxUrl,
    sandboxOrigin,
    beacons,
    sandboxBeacons,
    stop: async () => {
      await Promise.all([close(host), close(sandbox)]);
    },
  };
}

/** Launches the system's Chromium, headless, or throws saying how to get one. */
export async function launchChromium(): Promise<Browser> {
  const chosen = findBrowser();
  if (!chosen) throw new Error('no browser: install chromium (sudo apt-get install -y chromium) or name one in RXMCP_BROWSER');
  return chromium.launch({
    executablePath: chosen.path,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Resolves once `predicate` (which may be async) holds, polling; rejects after `ms`. */
export async function until(predicate: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
