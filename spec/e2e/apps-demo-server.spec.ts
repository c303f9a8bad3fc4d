import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually } from '../support/servers.js';

// The web demo's server as `npm run demo:web` starts it, asked over real
// HTTP about its MCP Apps parts: the example servers it runs on stdio and
// relays to the page, the sandbox proxy it serves on a second port, and
// what becomes of its children when it stops.
const root = join(__dirname, '..', '..');
const APPS = ['basic-vanillajs', 'system-monitor', 'budget-allocator'];

interface Demo {
  process: ChildProcessWithoutNullStreams;
  port: number;
  log: string[];
  exited: Promise<void>;
}

async function startServe(args: string[] = []): Promise<Demo> {
  const child = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0', ...args]);
  const log: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => log.push(line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
  });
  return { process: child, port: Number(new URL(url).port), log, exited };
}

// The app servers' pids, as the relay logged them when it started each.
const pidsOf = (log: string[]): number[] => log.flatMap((line) => /^[a-z0-9-]+ started \(pid (\d+)\)$/.exec(line)?.[1] ?? []).map(Number);

// Running, and not a zombie left for a parent to reap.
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

// node:http lets a test set Host, which fetch does not.
const send = (port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });

describe("the web demo server's MCP Apps parts", () => {
  let demo: Demo;

  beforeAll(async () => {
    demo = await startServe();
  }, 60000);

  afterAll(async () => {
    demo?.process.kill();
    await demo?.exited;
  });

  const post = (path: string, message: unknown, headers: Record<string, string> = {}) =>
    send(demo.port, 'POST', path, { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, typeof message === 'string' ? message : JSON.stringify(message));
  const answers = (tool: string) => demo.log.filter((line) => line === `basic-vanillajs answered tools/call ${JSON.stringify(tool)}`).length;

  it("relays each example server on the page's own origin, with the page's own ids", async () => {
    const initialize = await post('/apps/basic-vanillajs/mcp', {
      jsonrpc: '2.0',
      id: 'page-1',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
    });
    expect(initialize.status).toBe(200);
    expect(JSON.parse(initialize.body)).toMatchObject({ jsonrpc: '2.0', id: 'page-1', result: { protocolVersion: '2025-11-25', serverInfo: { name: expect.any(String) } } });
    // Two pages' requests with the same id do not cross.
    const [first, second] = await Promise.all([
      post('/apps/basic-vanillajs/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get-time', arguments: {} } }),
      post('/apps/basic-vanillajs/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    ]);
    expect(JSON.parse(first?.body ?? '')).toMatchObject({ id: 7, result: { structuredContent: { time: expect.stringMatching(/^\d{4}-/) } } });
    expect(JSON.parse(second?.body ?? '')).toMatchObject({ id: 7, result: { tools: [expect.objectContaining({ name: 'get-time' })] } });
    expect(answers('get-time')).toBe(1);
    for (const app of APPS.slice(1)) {
      const listed = await post(`/apps/${app}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect([app, listed.status]).toEqual([app, 200]);
    }
    expect(await post('/apps/basic-vanillajs/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ status: 202 });
  });

  it('refuses what a page may not send, before any of it reaches a server', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get-time', arguments: {} } };
    const before = answers('get-time');
    expect((await post('/apps/basic-vanillajs/mcp', call, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('/apps/basic-vanillajs/mcp', call, { Host: `rebound.example:${demo.port}` })).status).toBe(403);
    expect((await post('/apps/basic-vanillajs/mcp', call, { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await post('/apps/basic-vanillajs/mcp', [call])).status).toBe(400);
    expect((await post('/apps/basic-vanillajs/mcp', '{"jsonrpc":')).status).toBe(400);
    expect((await send(demo.port, 'GET', '/apps/basic-vanillajs/mcp', { Accept: 'text/event-stream' })).status).toBe(405);
    expect((await post('/apps/no-such-app/mcp', call)).status).toBe(404);
    expect(answers('get-time')).toBe(before);
  });

  it('serves the sandbox proxy on a second port, under the same loopback rules, framable by the page alone', async () => {
    const page = await send(demo.port, 'GET', '/', {});
    const meta = /<meta name="rxmcp-demo" content="([^"]*)"/.exec(page.body)?.[1] ?? '';
    const config = JSON.parse(meta.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as { sandboxPort: number; sandboxPath: string; apps: string[] };
    expect(config.apps).toEqual(APPS);
    expect(config.sandboxPort).not.toBe(demo.port);
    const proxy = await send(config.sandboxPort, 'GET', config.sandboxPath, {});
    expect(proxy.status).toBe(200);
    expect(proxy.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(proxy.headers['content-security-policy']).toBe(`frame-ancestors http://127.0.0.1:${demo.port} http://localhost:${demo.port}`);
    expect(proxy.body).toContain('ui/notifications/sandbox-');
    expect((await send(config.sandboxPort, 'GET', config.sandboxPath, { Host: `rebound.example:${config.sandboxPort}` })).status).toBe(403);
    expect((await send(config.sandboxPort, 'GET', config.sandboxPath, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await send(config.sandboxPort, 'GET', '/mcp', {})).status).toBe(404);
    // The page's own server does not serve the proxy: the view must never share the page's origin.
    expect((await send(demo.port, 'GET', config.sandboxPath, {})).status).toBe(404);
  });

  it('stops every app server it started when it is stopped, even one that would outlive its stdin', async () => {
    const other = await startServe(['--app', `deaf=${join(root, 'spec/fixtures/deaf-server.mjs')}`]);
    const pids = pidsOf(other.log);
    expect(pids).toHaveLength(APPS.length + 1);
    expect(pids.every(running)).toBe(true);
    other.process.kill('SIGTERM');
    await other.exited;
    try {
      await eventually(() => !pids.some(running), 10000);
    } finally {
      // Should one survive, the test still leaves nothing behind.
      pids.filter(running).forEach((pid) => process.kill(pid));
    }
  }, 30000);

  it('leaves no app server behind when it is killed outright', async () => {
    const other = await startServe();
    const pids = pidsOf(other.log);
    expect(pids).toHaveLength(APPS.length);
    // No exit handler runs: each child ends when its stdin closes with the dead parent's pipe.
    other.process.kill('SIGKILL');
    await other.exited;
    try {
      await eventually(() => !pids.some(running), 10000);
    } finally {
      pids.filter(running).forEach((pid) => process.kill(pid));
    }
  }, 30000);
});
