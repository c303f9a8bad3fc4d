// What tracing costs a tool call: rxmcp's client CPU per call on the stdio
// path with the server answering in the same process (bench/stdio-in-process.mjs:
// no pipe, no server, no scheduling in the numbers), in four settings, each
// round in fresh processes in rotating order, medians printed:
//
//   off       `tracing: false`
//   absent    tracing left on, `@opentelemetry/api` not installed (hidden by spec/fixtures/without-otel.mjs)
//   no-sdk    tracing left on, the API installed, no SDK registered (the usual library user)
//   sdk       the SDK registered: a tracer provider recording every span (exported nowhere),
//             the W3C propagator, async-hooks context and a meter provider with a reader
//
//   npm run build && node bench/tracing.mjs [modern|legacy] [sequential|inflight] [rounds] [--instructions] [--modes=before,no-sdk]
//
// With --instructions each process runs under valgrind's callgrind (Debian:
// valgrind) and the figure is the instructions of the timed calls per call:
// a count other work on the machine does not move, where CPU time moves by
// a few percent from run to run.
//
// With RXMCP_BASE_DIST=/path/to/an/older/dist/esm, a fifth setting, `before`,
// runs that build (one without tracing) with its defaults: what the hooks
// themselves cost a client that does not trace.
import { execFileSync, spawn as spawnProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const base = process.env.RXMCP_BASE_DIST;
// --modes=off,no-sdk runs only those settings (`off` is the yardstick, always run).
const chosen = process.argv.find((arg) => arg.startsWith('--modes='))?.slice('--modes='.length).split(',');
const MODES = [...(base ? ['before'] : []), 'off', 'absent', 'no-sdk', 'sdk'].filter((mode) => !chosen || mode === 'off' || chosen.includes(mode));
const CALLS = { sequential: 6000, inflight: 8000 };
const hide = fileURLToPath(new URL('../spec/fixtures/without-otel.mjs', import.meta.url));

const instructions = process.argv.includes('--instructions');

async function parent(era = 'modern', phase = 'sequential', rounds = '9') {
  const got = Object.fromEntries(MODES.map((mode) => [mode, []]));
  for (let round = 0; round < Number(rounds); round++) {
    // Rotated, so that no setting always runs first (or last) in a round.
    const order = MODES.map((_, n) => MODES[(n + round) % MODES.length]);
    for (const mode of order) got[mode].push(await (instructions ? count : measure)(mode, era, phase));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const off = median(got.off);
  const shown = MODES.map((mode) => `${mode} ${median(got[mode]).toFixed(instructions ? 0 : 2)} (${((median(got[mode]) / off - 1) * 100).toFixed(1)}%)`);
  const unit = instructions ? 'instructions per call' : 'client CPU per call (µs)';
  console.log(`${era} ${phase}, ${unit}, median of ${rounds} rounds, against off: ${shown.join(', ')}`);
}

// Instructions per timed call, counted by callgrind (the child zeroes the counters before its timed calls).
function count(mode, era, phase) {
  const file = join(tmpdir(), `rxmcp-callgrind-${process.pid}-${mode}.out`);
  const flags = mode === 'absent' ? ['--import', hide] : [];
  try {
    execFileSync(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${file}`, process.execPath, '--no-concurrent-recompilation', '--no-concurrent-sparkplug', ...flags, fileURLToPath(import.meta.url), '--child', mode, era, phase],
      { stdio: 'ignore', env: { ...process.env, RXMCP_CALLGRIND: '1' } },
    );
    const total = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1];
    if (total === undefined) throw new Error(`callgrind wrote no total for ${mode}`);
    return Number(total) / CALLS[phase];
  } finally {
    rmSync(file, { force: true });
  }
}

function measure(mode, era, phase) {
  const flags = mode === 'absent' ? ['--import', hide] : [];
  return new Promise((resolve, reject) => {
    const worker = spawnProcess(process.execPath, [...flags, fileURLToPath(import.meta.url), '--child', mode, era, phase], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    worker.stdout.on('data', (chunk) => (out += chunk));
    worker.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`the ${mode} process exited with ${code}`))));
  });
}

async function registerSdk() {
  const { context, metrics, propagation, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  class Reader extends MetricReader {
    async onForceFlush() {}
    async onShutdown() {}
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Reader()] }));
}

async function child(mode, era, phase) {
  const { AnsweringChild } = await import('./stdio-in-process.mjs');
  createRequire(import.meta.url)('node:child_process').spawn = () => new AnsweringChild(era);
  syncBuiltinESMExports();
  if (mode === 'sdk') await registerSdk();
  const { McpClient } = await import(mode === 'before' ? `${base}/index.js` : '../dist/esm/index.js');
  const { firstValueFrom } = await import('rxjs');
  const { inflight, sequential } = await import('./phases.mjs');
  const mcp = McpClient.connectStdio({ command: 'in-process', ...(mode === 'off' ? { tracing: false } : {}) });
  const client = { call: async (text) => (await firstValueFrom(mcp.callTool('echo', { text }))).content[0].text };
  const calls = CALLS[phase];
  const run = (n) => (phase === 'sequential' ? sequential(client, n) : inflight(client, n, 64));
  await run(Math.max(3000, calls / 2));
  await run(calls);
  if (process.env.RXMCP_CALLGRIND) execFileSync('callgrind_control', ['-z', String(process.pid)], { stdio: 'ignore' });
  const { cpu } = await run(calls);
  process.stdout.write(String((1000 * cpu) / calls));
  process.exit(0);
}

if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else await parent(...process.argv.slice(2).filter((arg) => !arg.startsWith('--')));
