// The three contestants, behind one shape:
//   open(target) -> { call(text), blob(bytes), list(forced), close() }
// blob calls the minimal server's blob tool (listed under BENCH_TOOLS) and
// answers the length of the text it got.
// target: { kind: 'stdio', command, args, env }, { kind: 'http', url } (Streamable
// HTTP) or { kind: 'sse', url } (HTTP+SSE, 2024-11-05: the URL of the GET stream).
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * The floor: a hand-written client, as fast as one can be written (a Map from
 * id to resolver, no validation, no timers). It probes like a dual-era
 * client: server/discover, and initialize when that fails.
 */
export const raw = {
  name: 'raw',
  async open(target) {
    return target.kind === 'stdio' ? rawStdio(target) : target.kind === 'sse' ? rawSse(target) : rawHttp(target);
  },
};

// What every raw connection offers on top of its `request(method, params)`.
const rawOps = (request) => ({
  call: async (text) => (await request('tools/call', { name: 'echo', arguments: { text } })).result.content[0].text,
  blob: async (bytes) => (await request('tools/call', { name: 'blob', arguments: { bytes } })).result.content[0].text.length,
  list: async () => (await request('tools/list', {})).result.tools.length,
});

/**
 * Splits a byte stream into lines, decoding only complete ones: the last
 * 0x0A of each chunk is found with `lastIndexOf`, everything before it is
 * decoded in one go and split on "\n" (UTF-8 never has that byte inside a
 * character), and the rest stays a Buffer until a later chunk ends its line
 * (only then are pieces joined). One decode per chunk measured cheaper than
 * one per line, and both cheaper than `node:readline`, which decodes every
 * chunk through a StringDecoder, splits it with a regular expression and
 * emits each line as an event.
 */
function byteLines(onLine) {
  let pieces = [];
  return (chunk) => {
    const last = chunk.lastIndexOf(0x0a);
    if (last === -1) {
      pieces.push(chunk);
      return;
    }
    let text;
    if (pieces.length) {
      pieces.push(chunk.subarray(0, last));
      text = Buffer.concat(pieces).toString('utf8');
      pieces = [];
    } else {
      text = chunk.toString('utf8', 0, last);
    }
    let start = 0;
    let end;
    while ((end = text.indexOf('\n', start)) !== -1) {
      onLine(text.slice(start, end));
      start = end + 1;
    }
    onLine(start ? text.slice(start) : text);
    if (last + 1 < chunk.length) pieces.push(chunk.subarray(last + 1));
  };
}

async function rawStdio(target) {
  const child = spawn(target.command, target.args, { env: { ...process.env, ...target.env } });
  const pending = new Map();
  let next = 1;
  child.stdout.on(
    'data',
    byteLines((line) => {
      const message = JSON.parse(line);
      const resolve = pending.get(message.id);
      if (resolve) {
        pending.delete(message.id);
        resolve(message);
      }
    }),
  );
  let meta = MODERN;
  // Requests made in one turn go out in one write, as a careful hand-written
  // client would send them (and as rxmcp does): one syscall, not one each.
  const queued = [];
  const flush = () => {
    child.stdin.write(queued.length === 1 ? queued[0] : queued.join(''));
    queued.length = 0;
  };
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      if (queued.push(JSON.stringify({ jsonrpc: '2.0', id, method, params: meta ? { ...params, _meta: meta } : params }) + '\n') === 1) void Promise.resolve().then(flush);
    });
  const discovered = await request('server/discover', {});
  if (discovered.error) {
    meta = undefined;
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }
  return {
    ...rawOps(request),
    close: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * One POST (or GET without a body) over `node:http` on a keep-alive agent;
 * resolves with the status, the headers and the body, its chunks kept as
 * Buffers and decoded once at the end.
 */
function exchange(agent, url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode, headers: response.headers, text });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// Over Streamable HTTP: modern POSTs; if server/discover is refused,
// initialize and the 2025-11-25 session headers instead. An SSE answer is
// read whole and its line for this id picked out (no GET stream: the bench
// sends nothing that needs one).
async function rawHttp(target) {
  const agent = new Agent({ keepAlive: true });
  const url = new URL(target.url);
  let next = 1;
  let legacy = false;
  let session;
  const post = (message) => {
    const body = JSON.stringify(message);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body) };
    if (legacy && session) Object.assign(headers, { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' });
    if (!legacy) Object.assign(headers, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': message.method });
    if (!legacy && message.params?.name) headers['Mcp-Name'] = message.params.name;
    return exchange(agent, url, 'POST', headers, body);
  };
  const request = async (method, params) => {
    const id = next++;
    const response = await post({ jsonrpc: '2.0', id, method, params: legacy ? params : { ...params, _meta: MODERN } });
    if (method === 'initialize') session = response.headers['mcp-session-id'];
    const ok = response.status >= 200 && response.status < 300;
    if (!(response.headers['content-type'] ?? '').includes('text/event-stream')) return ok ? JSON.parse(response.text) : { error: response.text };
    const line = response.text.split('\n').find((l) => l.startsWith('data: ') && l.includes(`"id":${id}`));
    return JSON.parse(line.slice(6));
  };
  const discovered = await request('server/discover', {});
  if (discovered.error) {
    legacy = true;
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return { ...rawOps(request), close: async () => agent.destroy() };
}

// Over HTTP+SSE: one GET stream, whose first event names the endpoint; every
// message is POSTed there (202, empty) and every answer arrives on the stream,
// picked out by id. Events are split on blank lines by hand (the server writes
// "event: …\ndata: …\n\n" with the JSON on one line).
async function rawSse(target) {
  const agent = new Agent({ keepAlive: true });
  const url = new URL(target.url);
  const stream = await new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { Accept: 'text/event-stream' }, agent }, resolve);
    outgoing.on('error', reject);
    outgoing.end();
  });
  const pending = new Map();
  let endpoint;
  let found;
  const ready = new Promise((resolve) => (found = resolve));
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.slice(event.indexOf('data: ') + 6);
      if (event.startsWith('event: endpoint')) {
        endpoint = new URL(data, target.url);
        found();
        continue;
      }
      const message = JSON.parse(data);
      const resolve = pending.get(message.id);
      if (resolve) {
        pending.delete(message.id);
        resolve(message);
      }
    }
  });
  await ready;
  let next = 1;
  const post = (message) => {
    const body = JSON.stringify(message);
    return exchange(agent, endpoint, 'POST', { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }, body);
  };
  const request = (method, params) => {
    const id = next++;
    const answer = new Promise((resolve) => pending.set(id, resolve));
    return post({ jsonrpc: '2.0', id, method, params }).then(() => answer);
  };
  await request('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    ...rawOps(request),
    close: async () => {
      stream.destroy();
      agent.destroy();
    },
  };
}

// The official stdio transport gives up on a message over 10 MiB by default,
// which a 10,000-tool catalogue or a 16 MiB result (the curves) is; it is
// given rxmcp's default bound instead (64 MiB), which costs neither a thing.
const MAX_MESSAGE = 64 * 1024 * 1024;

/**
 * The official client, @modelcontextprotocol/client 2.4.0, negotiating the era
 * itself. HTTP+SSE through the SSEClientTransport that package exports (it
 * marks it deprecated, but it is the one a user of today's client has; the v1
 * SDK's @modelcontextprotocol/sdk/client/sse.js is the same transport's older
 * home).
 */
export const official = {
  name: 'official',
  async open(target) {
    const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    const transport =
      target.kind === 'stdio'
        ? new StdioClientTransport({ command: target.command, args: target.args, env: { ...process.env, ...target.env }, maxBufferSize: MAX_MESSAGE })
        : target.kind === 'sse'
          ? new SSEClientTransport(new URL(target.url))
          : new StreamableHTTPClientTransport(new URL(target.url));
    await client.connect(transport);
    return {
      call: async (text) => (await client.callTool({ name: 'echo', arguments: { text } })).content[0].text,
      blob: async (bytes) => (await client.callTool({ name: 'blob', arguments: { bytes } })).content[0].text.length,
      list: async (forced) => (await client.listTools(undefined, { cacheMode: forced ? 'refresh' : 'use' })).tools.length,
      close: () => client.close(),
    };
  },
};

/**
 * rxmcp, as a user would write it. On HTTP+SSE the wire is pinned, as the
 * official client's is by the transport it is given: with the default
 * ('auto') a connection would first POST to the URL twice (server/discover,
 * initialize) and only then open the stream, which only the cold start would see.
 */
export const rxmcp = {
  name: 'rxmcp',
  async open(target) {
    const mcp =
      target.kind === 'stdio'
        ? McpClient.connectStdio({ command: target.command, args: target.args, env: target.env ?? {} })
        : McpClient.connectHttp({ url: target.url, ...(target.headers && { headers: target.headers }), ...(target.kind === 'sse' && { httpTransport: 'sse' }) });
    return {
      call: async (text) => (await firstValueFrom(mcp.callTool('echo', { text }))).content[0].text,
      blob: async (bytes) => (await firstValueFrom(mcp.callTool('blob', { bytes }))).content[0].text.length,
      list: async (forced) => (await firstValueFrom(mcp.listTools({ refresh: forced }))).length,
      close: () => mcp.close(),
    };
  },
};

export const drivers = [raw, official, rxmcp];
