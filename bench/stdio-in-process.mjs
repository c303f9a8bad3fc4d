// The client's JavaScript alone on the stdio path: `spawn` is given a child
// that answers in the same process, as the minimal server would
// (bench/servers/minimal-server.mjs, either era), so no pipe, no server and
// no scheduling land in the numbers. What is left is what the client does
// per call, garbage collection included. As with bench/http-in-process.mjs,
// the floor (`raw`) and rxmcp are bench/drivers.mjs's own.
//
//   npm run build && node bench/stdio-in-process.mjs [modern|legacy] [sequential|inflight|wide] [rounds] [--instructions]
//
// inflight is 64 calls in flight, wide 1,024. Each round runs both drivers in
// fresh processes, in alternating order, and the medians are printed.
//
// By default it measures client CPU per call, which on this machine moves
// by a fifth from process to process (V8 sizes its young generation
// differently from run to run, and with a thousand calls in flight that
// decides what every collection copies). With --instructions each process
// runs under valgrind's callgrind (Debian: valgrind), counting the
// instructions of the timed calls only (the counters are zeroed after the
// warm-up), with V8 compiling on the main thread so that what it runs does
// not depend on when a background compile lands; the counts then agree to a
// few per cent, except for a round in which a full collection falls. A
// write costs nothing here and a real pipe's does, so either ratio is
// higher than the benchmark's: compare them with each other, not with its
// targets.
import { EventEmitter } from 'node:events';
import { execFileSync, spawn as spawnProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CALLS = { sequential: 6000, inflight: 8000, wide: 8192 };
// What a pipe hands a reader at most in one chunk.
const PIPE_CHUNK = 65536;

async function parent(era = 'legacy', phase = 'wide', rounds = '9') {
  const instructions = process.argv.includes('--instructions');
  const got = { raw: [], rxmcp: [] };
  const ratios = [];
  for (let round = 0; round < Number(rounds); round++) {
    const order = round % 2 ? ['rxmcp', 'raw'] : ['raw', 'rxmcp'];
    const one = {};
    for (const driver of order) one[driver] = await (instructions ? count : measure)(driver, era, phase);
    got.raw.push(one.raw);
    got.rxmcp.push(one.rxmcp);
    ratios.push(one.rxmcp / one.raw);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const unit = instructions ? 'instructions per call' : 'client CPU per call (µs)';
  const shown = (value) => (instructions ? String(Math.round(value)) : value.toFixed(2));
  console.log(`${era} ${phase}, ${unit}, median of ${rounds} rounds: raw ${shown(median(got.raw))}, rxmcp ${shown(median(got.rxmcp))}; rxmcp ÷ raw ${median(ratios).toFixed(3)}x`);
}

function measure(driver, era, phase) {
  return new Promise((resolve, reject) => {
    const worker = spawnProcess(process.execPath, [fileURLToPath(import.meta.url), '--child', driver, era, phase], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    worker.stdout.on('data', (chunk) => (out += chunk));
    worker.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`the ${driver} process exited with ${code}`))));
  });
}

// Instructions per timed call, counted by callgrind.
async function count(driver, era, phase) {
  const file = join(tmpdir(), `rxmcp-callgrind-${process.pid}-${driver}.out`);
  try {
    execFileSync(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${file}`, process.execPath, '--no-concurrent-recompilation', '--no-concurrent-sparkplug', fileURLToPath(import.meta.url), '--child', driver, era, phase],
      { stdio: 'ignore', env: { ...process.env, RXMCP_CALLGRIND: '1' } },
    );
    const total = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1];
    if (total === undefined) throw new Error(`callgrind wrote no total for ${driver}`);
    return Number(total) / CALLS[phase];
  } finally {
    rmSync(file, { force: true });
  }
}

async function child(driverName, era, phase) {
  // Both drivers take `spawn` from node:child_process: the ESM view follows the module once synced.
  createRequire(import.meta.url)('node:child_process').spawn = () => new AnsweringChild(era);
  syncBuiltinESMExports();
  const { drivers } = await import('./drivers.mjs');
  const { inflight, sequential } = await import('./phases.mjs');
  const client = await drivers.find((driver) => driver.name === driverName).open({ kind: 'stdio', command: 'in-process', args: [], env: {} });
  const calls = CALLS[phase];
  const run = (n) => (phase === 'sequential' ? sequential(client, n) : inflight(client, n, phase === 'wide' ? 1024 : 64));
  // As the benchmark warms up: at least 3,000 calls, then a round untimed.
  await run(Math.max(3000, calls / 2));
  await run(calls);
  if (process.env.RXMCP_CALLGRIND) execFileSync('callgrind_control', ['-z', String(process.pid)], { stdio: 'ignore' });
  const { cpu } = await run(calls);
  process.stdout.write(String((1000 * cpu) / calls));
  process.exit(0);
}

const LEGACY_DISCOVER = '{"jsonrpc":"2.0","id":ID,"error":{"code":-32601,"message":"Method not found"}}';
const MODERN_DISCOVER = '{"jsonrpc":"2.0","id":ID,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":60000,"cacheScope":"public"}}';
const INITIALIZE = '{"jsonrpc":"2.0","id":ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"minimal","version":"1"}}}';

// The minimal server's answer to one request line, the text and id found by
// search rather than by parsing, so that the answering costs little of the
// process's CPU and the same for either driver.
function answer(era, line) {
  const id = /"id":(\d+)/.exec(line)?.[1];
  if (id === undefined) return undefined;
  if (line.includes('"server/discover"')) return (era === 'legacy' ? LEGACY_DISCOVER : MODERN_DISCOVER).replace('ID', id);
  if (line.includes('"initialize"')) return INITIALIZE.replace('ID', id);
  const text = /"text":("(?:[^"\\]|\\.)*")/.exec(line)?.[1] ?? '""';
  return `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${text}}]${era === 'legacy' ? '' : ',"resultType":"complete"'}}}`;
}

/**
 * What the drivers use of a ChildProcess. It reads the lines written to its
 * stdin and answers them on a later turn of the event loop, as a pipe
 * would, in chunks of at most a pipe's read.
 */
export class AnsweringChild extends EventEmitter {
  constructor(era) {
    super();
    this.era = era;
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.pending = '';
    this.stdout = Object.assign(new EventEmitter(), { destroy() {} });
    this.stderr = new EventEmitter();
    this.stdin = Object.assign(new EventEmitter(), {
      writable: true,
      write: (text) => this.take(String(text)),
      end: () => undefined,
    });
    process.nextTick(() => this.emit('spawn'));
  }

  take(text) {
    this.pending += text;
    const last = this.pending.lastIndexOf('\n');
    if (last === -1) return true;
    const lines = this.pending.slice(0, last).split('\n');
    this.pending = this.pending.slice(last + 1);
    const answers = lines.map((line) => answer(this.era, line)).filter((reply) => reply !== undefined);
    if (answers.length === 0) return true;
    const bytes = Buffer.from(answers.join('\n') + '\n');
    setImmediate(() => {
      for (let at = 0; at < bytes.length; at += PIPE_CHUNK) this.stdout.emit('data', bytes.subarray(at, at + PIPE_CHUNK));
    });
    return true;
  }
}

// Run, unless imported for its AnsweringChild (bench/tracing.mjs).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--child') await child(...process.argv.slice(3));
  else await parent(...process.argv.slice(2).filter((arg) => arg !== '--instructions'));
}
