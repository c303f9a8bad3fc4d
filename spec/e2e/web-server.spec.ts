import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The web demo's server, as `npm run demo:web` starts it, asked over real
// HTTP what a foreign page could ask it: through a name re-pointed at
// 127.0.0.1 (DNS rebinding), from another origin, or with a body a page may
// POST anywhere without a preflight. Its own page's requests still go through.
const root = join(__dirname, '..', '..');

interface Answer {
  status: number;
  body: string;
}

const modern = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
// One valid request per endpoint, each answered 200 when nothing is refused.
const endpoints = {
  '/mcp': {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modern } }),
    headers: { 'Mcp-Method': 'server/discover', 'MCP-Protocol-Version': '2026-07-28', Accept: 'application/json, text/event-stream' },
  },
  '/tasks': { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick', arguments: {}, _meta: modern } }), headers: {} },
};

describe('the web demo server', () => {
  let server: ChildProcessWithoutNullStreams;
  let port: number;
  const serverLog: string[] = [];

  beforeAll(async () => {
    server = spawn(process.execPath, [join(root, 'demos/web/serve.mjs'), '--port', '0']);
    createInterface({ input: server.stderr }).on('line', (line) => serverLog.push(line));
    const url = await new Promise<string>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(line.replace(/^.*open /, '')));
    });
    port = Number(new URL(url).port);
  }, 60000);

  afterAll(() => {
    server?.kill();
  });

  // node:http lets a test set Host, which fetch does not.
  const send = (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });

  const post = (path: keyof typeof endpoints, headers: Record<string, string> = {}): Promise<Answer> =>
    send('POST', path, { 'Content-Type': 'application/json', ...endpoints[path].headers, ...headers }, endpoints[path].body);

  const statuses = async (answers: Array<Promise<Answer>>): Promise<number[]> => (await Promise.all(answers)).map((answer) => answer.status);

  it('refuses with 403 a request that names it by another host (DNS rebinding), and answers its own loopback names', async () => {
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.:${port}`, `127.0.0.1:${port === 1 ? 2 : 1}`]) {
      const refused = await Promise.all([send('GET', '/', { Host: host }), send('GET', '/app.js', { Host: host }), post('/mcp', { Host: host }), post('/tasks', { Host: host })]);
      expect([host, refused.map((answer) => answer.status)]).toEqual([host, [403, 403, 403, 403]]);
      // The body the spec allows: a JSON-RPC error with no id.
      expect(JSON.parse(refused[2]?.body ?? '')).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Host') } });
    }
    // Whoever runs the demo sees why a page of theirs got nothing.
    expect(serverLog).toContain('refused 403: the Host header does not name this server');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
      expect([host, await statuses([send('GET', '/', { Host: host }), post('/mcp', { Host: host }), post('/tasks', { Host: host })])]).toEqual([host, [200, 200, 200]]);
    }
  });

  it('refuses with 403 a request from a foreign Origin, and answers its own', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${port}, http://evil.example`]) {
      expect([origin, await statuses([send('GET', '/', { Origin: origin }), post('/mcp', { Origin: origin }), post('/tasks', { Origin: origin })])]).toEqual([origin, [403, 403, 403]]);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect([origin, await statuses([post('/mcp', { Origin: origin }), post('/tasks', { Origin: origin })])]).toEqual([origin, [200, 200]]);
    }
  });

  it('refuses with 415 a POST of a type a page may send cross-site without a preflight', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      expect([type, await statuses([post('/mcp', { 'Content-Type': type }), post('/tasks', { 'Content-Type': type })])]).toEqual([type, [415, 415]]);
    }
    expect(await statuses([post('/mcp', { 'Content-Type': 'application/json; charset=utf-8' }), post('/tasks', { 'Content-Type': 'Application/JSON' })])).toEqual([200, 200]);
  });

  it('lets no other page frame the demo page (its buttons allow a view\'s tool calls: no clickjacking them)', async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request({ host: '127.0.0.1', port, method: 'GET', path: '/', headers: { Host: `127.0.0.1:${port}` } }, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on('error', reject)
        .end();
    });
    expect(headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
  });

  it('stays up after a request target that is no URL and a client that hangs up halfway through its body', async () => {
    const raw = (text: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let seen = '';
        socket.on('data', (chunk) => (seen += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(seen));
        // The half-sent body gets no answer: the client leaves without one.
        setTimeout(() => socket.destroy(), 1000);
      });
    const host = `Host: 127.0.0.1:${port}\r\n`;
    expect(await raw(`GET http://[ HTTP/1.1\r\n${host}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 404/);
    await raw(`POST /tasks HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
    await raw(`POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
    expect(server.exitCode).toBeNull();
    expect(await statuses([send('GET', '/', {}), post('/mcp')])).toEqual([200, 200]);
  });
});
