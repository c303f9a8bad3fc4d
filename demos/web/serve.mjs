// One process for the web demo: the fixture MCP server (official SDK) over
// Streamable HTTP at /mcp, a server of long-running tools that answers with
// tasks (the 2026-07-28 tasks extension, which the SDK server does not
// speak) at /tasks, and the page, bundled for the browser from rxmcp's built
// root entry, on 127.0.0.1.
//
//   npm run demo:web            (builds, then prints the URL to open)
//   node demos/web/serve.mjs --port 8080
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

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Bundles the page's script for browsers; node-only modules stay out (see the spec that checks it). */
export async function bundlePage() {
  const result = await bundle({
    entryPoints: [join(here, 'app.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    alias: { rxmcp: join(root, 'dist/esm/index.js') },
    // Stdio and keep-alive load these on demand, and never in a browser.
    external: ['node:*'],
    logLevel: 'warning',
  });
  return { code: result.outputFiles[0].text, metafile: result.metafile };
}

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

export async function serve(port = 0) {
  const page = readFileSync(join(here, 'index.html'));
  const { code } = await bundlePage();
  // The tasks live in files (see the fixture) for as long as the server runs.
  const taskDir = mkdtempSync(join(tmpdir(), 'rxmcp-web-tasks-'));
  const tasks = tasksServer(taskDir);
  const server = createServer(async (req, res) => {
    // The page takes a query (?server=tasks); nothing else does.
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    if (req.method === 'GET' && req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
      return;
    }
    if (req.url !== '/mcp' && !(req.url === '/tasks' && req.method === 'POST')) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
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
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Stopped by a signal, it still runs its exit handlers (the tasks' directory goes).
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
  const portArgument = process.argv.indexOf('--port');
  const { url } = await serve(portArgument === -1 ? 0 : Number(process.argv[portArgument + 1]));
  process.stdout.write(`rxmcp web demo: open ${url}\n`);
}
