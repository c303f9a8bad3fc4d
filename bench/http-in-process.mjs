// The client's JavaScript alone on the Streamable HTTP path: node:http's
// Agent is given sockets that answer in the same process, with the bytes the
// SDK server sends (bench/servers/sdk-server.mjs, either era), so no kernel,
// no server and no scheduling land in the numbers. What is left is what the
// client does per call, comparable from run to run within a few per cent,
// where the full benchmark's HTTP rows move by ten. The floor (`raw`) and
// rxmcp are bench/drivers.mjs's own; the official client's fetch does not go
// through node:http, so it is not measured here.
//
//   npm run build && node bench/http-in-process.mjs [modern|legacy] [sequential|inflight] [rounds]
//
// Each round runs both drivers in fresh processes, in alternating order;
// prints the median client CPU per call of each and the median of the
// per-round ratios.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';

const CALLS = 6000;

async function parent(era = 'modern', phase = 'sequential', rounds = '7') {
  const cpu = { raw: [], rxmcp: [] };
  const ratios = [];
  for (let round = 0; round < Number(rounds); round++) {
    const order = round % 2 ? ['rxmcp', 'raw'] : ['raw', 'rxmcp'];
    const got = {};
    for (const driver of order) got[driver] = await measure(driver, era, phase);
    cpu.raw.push(got.raw);
    cpu.rxmcp.push(got.rxmcp);
    ratios.push(got.rxmcp / got.raw);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`${era} ${phase}, client CPU per call (µs), median of ${rounds} rounds: raw ${median(cpu.raw).toFixed(1)}, rxmcp ${median(cpu.rxmcp).toFixed(1)}; rxmcp ÷ raw ${median(ratios).toFixed(2)}x`);
}

function measure(driver, era, phase) {
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', driver, era, phase], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    worker.stdout.on('data', (chunk) => (out += chunk));
    worker.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`the ${driver} process exited with ${code}`))));
  });
}

async function child(driverName, era, phase) {
  http.Agent.prototype.createConnection = () => {
    const socket = new AnsweringSocket(era);
    process.nextTick(() => socket.emit('connect'));
    return socket;
  };
  const { drivers } = await import('./drivers.mjs');
  const { inflight, sequential } = await import('./phases.mjs');
  const client = await drivers.find((driver) => driver.name === driverName).open({ kind: 'http', url: 'http://127.0.0.1:9/mcp' });
  const run = (count) => (phase === 'inflight' ? inflight(client, count) : sequential(client, count));
  await run(CALLS / 2);
  const { cpu } = await run(CALLS);
  await client.close();
  process.stdout.write(String((1000 * cpu) / CALLS));
  // The GET stream of a 2025-11-25 session never ends by itself.
  process.exit(0);
}

// The SDK server's answers, byte for byte but for the date and the session id.
const META = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench-sdk","version":"1.0.0"}}';
const chunked = (text) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
const head = (status, fields) => `HTTP/1.1 ${status}\r\n${fields.map((field) => `${field}\r\n`).join('')}Date: Wed, 02 Dec 2026 00:00:00 GMT\r\nTransfer-Encoding: chunked\r\n\r\n`;
const KEEP = ['Connection: keep-alive', 'Keep-Alive: timeout=60'];
const SSE_HEAD = head('200 OK', ['cache-control: no-cache, no-transform', 'connection: keep-alive', 'content-type: text/event-stream', 'mcp-session-id: 0b0493e0-1998-4b04-9886-e743d152e35e', 'x-accel-buffering: no']);
const json = (text) => head('200 OK', ['content-type: application/json', ...KEEP]) + chunked(text);
const event = (text) => SSE_HEAD + chunked(`event: message\ndata: ${text}\n\n`);
// An echo's result, left open for the era's own fields.
const echo = (message) => `{"content":[{"type":"text","text":${JSON.stringify(message.params.arguments.text)}}]`;

function answer(era, request, body) {
  if (request.startsWith('GET')) return SSE_HEAD;
  // The session's end, on close.
  if (request.startsWith('DELETE')) return head('200 OK', KEEP) + '0\r\n\r\n';
  const message = JSON.parse(body);
  const { id, method } = message;
  if (era === 'modern') {
    if (method === 'server/discover') return json(`{"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"resultType":"complete","ttlMs":0,"cacheScope":"private",${META}},"jsonrpc":"2.0","id":${id}}`);
    if (method === 'tools/call') return json(`{"result":${echo(message)},"resultType":"complete",${META}},"jsonrpc":"2.0","id":${id}}`);
  } else {
    if (method === 'server/discover') return head('400 Bad Request', ['content-type: text/plain;charset=UTF-8', ...KEEP]) + chunked('Bad Request: no session');
    if (method === 'initialize') return event(`{"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"bench-sdk","version":"1.0.0"}},"jsonrpc":"2.0","id":${id}}`);
    if (id === undefined) return head('202 Accepted', KEEP) + '0\r\n\r\n';
    if (method === 'tools/call') return event(`{"result":${echo(message)}},"jsonrpc":"2.0","id":${id}}`);
  }
  throw new Error(`no answer for ${method}`);
}

// A socket that reads each request (headers and Content-Length body) and
// answers it on the next turn of the event loop, as a network would.
class AnsweringSocket extends Duplex {
  constructor(era) {
    super();
    this.era = era;
    this.pending = '';
    this.connecting = false;
  }

  _read() {}

  _write(chunk, _encoding, done) {
    this.take(String(chunk));
    done();
  }

  _writev(chunks, done) {
    this.take(chunks.map(({ chunk }) => String(chunk)).join(''));
    done();
  }

  take(text) {
    this.pending += text;
    for (;;) {
      const end = this.pending.indexOf('\r\n\r\n');
      if (end === -1) return;
      const request = this.pending.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(request)?.[1] ?? 0);
      if (this.pending.length < end + 4 + length) return;
      const reply = answer(this.era, request, this.pending.slice(end + 4, end + 4 + length));
      this.pending = this.pending.slice(end + 4 + length);
      setImmediate(() => this.push(reply));
    }
  }

  // What node:http asks of a socket besides reading and writing.
  setKeepAlive() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setTimeout() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
}

// Last, once every declaration above is made.
if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else await parent(...process.argv.slice(2));
