// An MCP server that speaks stdio, reached by the web page over HTTP.
//
// The ext-apps example servers can serve HTTP themselves, but they listen on
// 0.0.0.0 (every network the machine is on) and answer any origin (CORS `*`),
// so any web page the user opens, and any machine on their network, could
// call their tools. Run over stdio instead, they are reachable only through
// the demo's own server, whose loopback guard refuses foreign hosts and
// origins before this relay sees a request.
//
// The relay is Streamable HTTP at its plainest: each POSTed JSON-RPC request
// is written to the child with an id of the relay's own (pages share the
// child, and their ids would collide), and the child's answer goes back as one
// JSON body under the page's id. Notifications are accepted with 202; there
// is no stream for the server to speak on its own (GET is 405), so what the
// child says unasked is logged and, for a request, refused.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// A page waits at most this long for the child's answer.
const ANSWER_MS = 60000;
// What a page may POST: a JSON-RPC message, never megabytes.
const MAX_BODY = 4 * 1024 * 1024;

const jsonRpcError = (id, code, message) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * Starts `node <script> --stdio` and relays HTTP requests to it.
 *
 * @param {{ name: string, script: string, log: (line: string) => void }} options
 *   `name` labels the log lines; `log` gets "<name> started (pid N)", one
 *   line per request the child answered ("<name> answered tools/call \"<tool>\"",
 *   or the method), and every line the child printed on stderr ("<name>: <line>")
 * @returns {{ handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>, stop: () => void, child: import('node:child_process').ChildProcess }}
 */
export function stdioRelay({ name, script, log }) {
  const child = spawn(process.execPath, [script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  log(`${name} started (pid ${child.pid})`);
  const pending = new Map();
  let nextId = 1;
  let gone = false;

  const fail = (reason) => {
    gone = true;
    for (const entry of pending.values()) entry.answer(503, jsonRpcError(entry.id, -32000, reason));
    pending.clear();
  };
  child.on('exit', (code, signal) => {
    log(`${name} exited (${signal ?? code})`);
    fail(`the ${name} server stopped`);
  });
  // A write after the child died must not take the demo down with it.
  child.stdin.on('error', () => undefined);
  createInterface({ input: child.stderr }).on('line', (line) => log(`${name}: ${line}`));

  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      log(`${name} printed a line that is not JSON, ignored`);
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
    const entry = typeof message.id === 'number' && !('method' in message) ? pending.get(message.id) : undefined;
    if (entry) {
      pending.delete(message.id);
      log(`${name} answered ${entry.what}`);
      entry.answer(200, JSON.stringify({ ...message, id: entry.id }));
      return;
    }
    if (typeof message.method === 'string' && 'id' in message) {
      child.stdin.write(jsonRpcError(message.id, -32601, 'the demo relays no requests from the server') + '\n');
    }
    log(`${name} said unasked: ${JSON.stringify(message.method ?? message.id)}`);
  });

  async function handle(req, res) {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const chunks = [];
    let size = 0;
    try {
      for await (const chunk of req) {
        size += chunk.length;
        if (size > MAX_BODY) {
          res.writeHead(413, { Connection: 'close' }).end();
          return;
        }
        chunks.push(chunk);
      }
    } catch {
      return;
    }
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(jsonRpcError(null, -32700, 'the body is not JSON'));
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message) || message.jsonrpc !== '2.0') {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(jsonRpcError(null, -32600, 'one JSON-RPC message per POST'));
      return;
    }
    if (typeof message.method !== 'string' || !('id' in message)) {
      // A page cancels by hanging up (below), so a cancellation names a page's
      // id the child never saw; nothing else the page says unasked matters to it.
      if (message.method !== 'notifications/cancelled' && typeof message.method === 'string') child.stdin.write(JSON.stringify(message) + '\n');
      res.writeHead(202).end();
      return;
    }
    if (gone) {
      res.writeHead(503, { 'Content-Type': 'application/json' }).end(jsonRpcError(message.id, -32000, `the ${name} server stopped`));
      return;
    }
    const id = nextId++;
    const what = message.method === 'tools/call' ? `tools/call ${JSON.stringify(message.params?.name)}` : message.method;
    let answered = false;
    let timer;
    const entry = {
      id: message.id,
      what,
      answer: (status, body) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
      },
    };
    timer = setTimeout(() => {
      pending.delete(id);
      entry.answer(504, jsonRpcError(message.id, -32001, `the ${name} server did not answer ${what} in ${ANSWER_MS} ms`));
    }, ANSWER_MS);
    pending.set(id, entry);
    res.on('close', () => {
      if (answered || !pending.delete(id)) return;
      clearTimeout(timer);
      answered = true;
      // The page gave up on the call: the child is told, as a client on stdio would.
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the page hung up' } }) + '\n');
    });
    child.stdin.write(JSON.stringify({ ...message, id }) + '\n');
  }

  return {
    handle,
    child,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}
