// One process for the web demo: the fixture MCP server (official SDK) over
// Streamable HTTP at /mcp, a server of long-running tools that answers with
// tasks (the 2026-07-28 tasks extension, which the SDK server does not
// speak) at /tasks, the MCP Apps example servers (children on stdio, relayed
// at /apps/<name>/mcp, see stdio-relay.mjs), and the page, bundled for the
// browser from rxmcp's built entries, on 127.0.0.1 alone. The MCP Apps
// sandbox proxy page is served on a second port, so views run on another
// origin than the page (see sandbox-origin.mjs). Requests that do not name
// a server by a loopback Host, that come from another Origin, or that POST
// anything but JSON are refused before they are read (see loopback-guard.mjs).
// With ?server=protected, the page signs in (a popup) to an MCP server behind
// a real authorization server, both started here (see sign-in-servers.mjs).
//
//   npm run demo:web            (builds, then prints the URL to open)
//   node demos/web/serve.mjs --port 8080 --sandbox-port 8081
//   node demos/web/serve.mjs --app mine=./my-server.mjs   (also relays `node ./my-server.mjs --stdio`)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { build as bundle } from 'esbuild';
import { build } from '../../spec/fixtures/fixture-server.mjs';
import { toRequest, writeResponse } from '../../spec/fixtures/node-fetch-adapter.mjs';
import { tasksServer } from '../../spec/fixtures/tasks-server.mjs';
import { loopbackGuard } from './loopback-guard.mjs';
import { SANDBOX_PATH, serveSandbox } from './sandbox-origin.mjs';
import { startSignInServers } from './sign-in-servers.mjs';
import { stdioRelay } from './stdio-relay.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Bundles the page's script for browsers; node-only modules stay out (see the spec that checks it). */
export async function bundlePage(entry = 'app.ts') {
  const result = await bundle({
    entryPoints: [join(here, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    alias: { rxmcp: join(root, 'dist/esm/index.js'), 'rxmcp/apps': join(root, 'dist/esm/apps/index.js'), 'rxmcp/browser': join(root, 'dist/esm/browser/index.js') },
    // Stdio and keep-alive load these on demand, and never in a browser.
    external: ['node:*'],
    logLevel: 'warning',
  });
  return { code: result.outputFiles[0].text, metafile: result.metafile };
}

const SIGNED_IN_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head><body>Signing in…<script type="module" src="/signed-in.js"></script></body></html>';

const grown = new Set();
const http = {
  toolsChanged: () => handler.notify.toolsChanged(),
  grown,
  grow: (name) => grown.add(name),
};
const handler = createMcpHandler(() => build({ http }), { keepAliveMs: 10000 });

// The tasks server over Streamable HTTP at its plainest: each POSTed request
// answered with one JSON body, anything else accepted with 202.
function answerTasks(tasks, body, res) {
  let message;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    res.writeHead(400).end();
    return;
  }
  const answer = tasks.answer(message);
  if (answer) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  else res.writeHead(202).end();
}

/** The ext-apps example servers the demo starts, each a package with its stdio entry at dist/index.js. */
export const EXAMPLE_APPS = ['basic-vanillajs', 'system-monitor', 'budget-allocator'];

const exampleScript = (name) => join(root, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');

/**
 * Starts the demo: the page's server on `port`, the sandbox proxy on
 * `sandboxPort`, and one stdio child per app server (the examples, then
 * `extraApps`, name → script). Everything stops when the process exits.
 */
export async function serve(port = 0, { sandboxPort = 0, extraApps = {} } = {}) {
  const log = (line) => process.stderr.write(`${line}\n`);
  const scripts = { ...Object.fromEntries(EXAMPLE_APPS.map((name) => [name, exampleScript(name)])), ...extraApps };
  const relays = new Map(Object.entries(scripts).map(([name, script]) => [name, stdioRelay({ name, script, log })]));
  process.on('exit', () => relays.forEach((relay) => relay.stop()));
  const [{ code }, { code: signedInCode }] = await Promise.all([bundlePage(), bundlePage('signed-in.ts')]);
  // The tasks live in files (see the fixture) for as long as the server runs.
  const taskDir = mkdtempSync(join(tmpdir(), 'rxmcp-web-tasks-'));
  const tasks = tasksServer(taskDir);
  const template = readFileSync(join(here, 'index.html'), 'utf8');
  let page;
  let refusal;
  const server = createServer(async (req, res) => {
    const refused = refusal(req);
    if (refused) {
      process.stderr.write(`refused ${refused.status}: ${refused.reason}\n`);
      // The body the spec allows for a refusal: a JSON-RPC error without an id.
      const body = { jsonrpc: '2.0', error: { code: -32000, message: `${refused.status === 403 ? 'Forbidden' : 'Unsupported Media Type'}: ${refused.reason}` } };
      res.writeHead(refused.status, { 'Content-Type': 'application/json', Connection: 'close' }).end(JSON.stringify(body));
      return;
    }
    // The page takes a query (?server=tasks); nothing else does. Read as a
    // string: a request target need not be a URL the URL parser accepts.
    const path = req.url.split('?', 1)[0];
    const app = /^\/apps\/([a-z0-9-]+)\/mcp$/.exec(req.url);
    if (app && relays.has(app[1])) {
      await relays.get(app[1]).handle(req, res);
      return;
    }
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      // Written once the sandbox's port is known, a moment after this server listens.
      if (page === undefined) res.writeHead(503, { 'Retry-After': '1' }).end();
      // Framed by no one: its buttons answer a view's requests (and a Policy's questions), which a page
      // framing it invisibly could have the user click.
      else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' }).end(page);
      return;
    }
    if (req.method === 'GET' && req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
      return;
    }
    // The sign-in window's last page: its address carries the authorization code, which no other site may learn from a Referer.
    if (req.method === 'GET' && path === '/signed-in') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }).end(SIGNED_IN_PAGE);
      return;
    }
    if (req.method === 'GET' && req.url === '/signed-in.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(signedInCode);
      return;
    }
    if (req.url !== '/mcp' && !(req.url === '/tasks' && req.method === 'POST')) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    try {
      for await (const chunk of req) chunks.push(chunk);
    } catch {
      // The client went away before its request was whole: there is no one to answer.
      return;
    }
    if (req.url === '/tasks') {
      answerTasks(tasks, Buffer.concat(chunks), res);
      return;
    }
    const hangUp = new AbortController();
    let finished = false;
    res.on('close', () => finished || hangUp.abort());
    await writeResponse(res, await handler.fetch(toRequest(req, Buffer.concat(chunks), hangUp.signal)));
    finished = true;
    res.end();
  });
  const forget = () => rmSync(taskDir, { recursive: true, force: true });
  server.on('close', forget);
  process.on('exit', forget);
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  // No request is handled before the server listens, so none goes unchecked.
  refusal = loopbackGuard(server.address().port);
  const { sandboxProxyHtml } = await import('../../dist/esm/apps/index.js');
  const sandbox = await serveSandbox({ port: sandboxPort, pagePort: server.address().port, html: sandboxProxyHtml(), log });
  server.on('close', () => sandbox.close());
  const signIn = await startSignInServers(`http://127.0.0.1:${server.address().port}/signed-in`, log);
  server.on('close', () => signIn.stop());
  // The page learns where the sandbox is, which app servers there are and where the protected server is from the page itself.
  const demo = { sandboxPort: sandbox.address().port, sandboxPath: SANDBOX_PATH, apps: [...relays.keys()], signIn: { url: signIn.url, clientId: signIn.clientId } };
  page = template.replace('<meta name="rxmcp-demo" />', `<meta name="rxmcp-demo" content="${JSON.stringify(demo).replaceAll('&', '&amp;').replaceAll('"', '&quot;')}" />`);
  return { server, sandbox, url: `http://127.0.0.1:${server.address().port}/`, sandboxUrl: `http://127.0.0.1:${sandbox.address().port}${SANDBOX_PATH}` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Stopped by a signal, it still runs its exit handlers (the tasks' directory goes).
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const extraApps = {};
  process.argv.forEach((argument, at) => {
    if (argument !== '--app') return;
    const [, name, script] = /^([a-z0-9-]+)=(.+)$/.exec(process.argv[at + 1] ?? '') ?? [];
    if (!name) throw new Error(`--app takes NAME=SCRIPT (a name of a-z, 0-9 and -), not ${JSON.stringify(process.argv[at + 1])}`);
    extraApps[name] = script;
  });
  const { url } = await serve(Number(option('--port') ?? 0), { sandboxPort: Number(option('--sandbox-port') ?? 0), extraApps });
  process.stdout.write(`rxmcp web demo: open ${url}\n`);
}
