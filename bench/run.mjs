// The benchmark: raw (a hand-written floor), the official client and rxmcp,
// each in processes of its own (bench/worker.mjs), taking turns phase by
// phase, against a minimal stdio server (both eras), the official SDK server
// over stdio, and the official SDK server over HTTP (both eras).
//
//   npm run bench            (node --expose-gc bench/run.mjs)
//   npm run bench -- --quick (fewer rounds, for a smoke run)
//   npm run bench -- --only minimal   (only the scenarios whose name contains it)
//   npm run bench -- --only gateway   (rxmcp direct against through `rxmcp serve`)
//   npm run bench -- --only scale     (a Registry's start, idle connections, names and checks)
//   npm run bench -- --only 'tool search'  (declaration size, recall@5 and latency of ToolSearch)
//   npm run bench -- --only list-turns  (tools/list requests per model turn, bench/list-turns.mjs)
//   npm run bench -- --only cold-start  (a ten-server config's start without and with a catalogue, bench/cold-start.mjs)
//   npm run bench -- --only import-time  (a fresh process's import of rxmcp, ESM and CJS, and CLI process time, bench/import-time.mjs)
//   npm run bench -- --drivers rxmcp  (raw and the drivers named; all by default)
//   npm run bench -- --only curves    (only the curves, bench/curves.mjs; or part of one's name)
//
// Writes bench/results/latest.md and latest.json, and a picture of every
// curve (bench/charts.mjs) beside them.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pictureOf, writeCharts } from './charts.mjs';
import { curveTable, runCurves } from './curves.mjs';
import { gatewayScenario, gatewayTable } from './gateway.mjs';
import { listTurnsScenarios } from './list-turns.mjs';
import { coldStartScenarios } from './cold-start.mjs';
import { importTimeScenarios } from './import-time.mjs';
import { scaleCurves, scaleScenarios } from './scale.mjs';
import { toolSearchScenarios } from './tool-search.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
// --drivers raw,rxmcp leaves the others out (raw, the floor, always runs).
const named = process.argv.includes('--drivers') ? process.argv[process.argv.indexOf('--drivers') + 1].split(',') : undefined;
const drivers = ['raw', 'official', 'rxmcp'].filter((name) => name === 'raw' || !named || named.includes(name));

const node = process.execPath;
const minimal = join(here, 'servers/minimal-server.mjs');
const sdk = join(here, 'servers/sdk-server.mjs');
const sse = join(here, 'servers/sse-server.mjs');

const scenarios = [
  // `wide`: also 1,024 calls in flight.
  { name: 'minimal stdio, modern', target: { kind: 'stdio', command: node, args: [minimal], env: {} }, scale: 1, heap: true, wide: true },
  { name: 'minimal stdio, legacy', target: { kind: 'stdio', command: node, args: [minimal], env: { BENCH_LEGACY: '1' } }, scale: 1, wide: true },
  // A one-tool catalogue, forced lists only: a list's fixed cost, which a
  // larger catalogue hides (issue 50). BENCH_TOOLS=1 lists `echo` alone.
  { name: 'minimal stdio, 1 tool, modern', target: { kind: 'stdio', command: node, args: [minimal], env: { BENCH_TOOLS: '1' } }, scale: 1, listOnly: true },
  { name: 'minimal stdio, 1 tool, legacy', target: { kind: 'stdio', command: node, args: [minimal], env: { BENCH_TOOLS: '1', BENCH_LEGACY: '1' } }, scale: 1, listOnly: true },
  { name: 'SDK stdio, modern', target: { kind: 'stdio', command: node, args: [sdk], env: {} }, scale: 0.5 },
  { name: 'SDK HTTP, modern', http: { args: [sdk, '--http'], path: '/mcp', kind: 'http' }, scale: 0.15 },
  { name: 'SDK HTTP, legacy', http: { args: [sdk, '--http', '--legacy'], path: '/mcp', kind: 'http' }, scale: 0.15 },
  { name: 'SDK v1 HTTP+SSE', http: { args: [sse], path: '/sse', kind: 'sse' }, scale: 0.15 },
  // rxmcp alone, direct against through `rxmcp serve` (bench/gateway.mjs).
  { name: 'gateway, SDK stdio', gateway: 'stdio', scale: 0.5 },
  { name: 'gateway, SDK HTTP', gateway: 'http', scale: 0.15 },
  // Registry start-up, idle connections, name mapping and output checks (bench/scale.mjs).
  ...scaleScenarios(quick),
  // Declaration size, recall and latency of ToolSearch (bench/tool-search.mjs).
  ...toolSearchScenarios(quick),
  // tools/list requests per model turn, counted by the server (bench/list-turns.mjs).
  ...listTurnsScenarios(quick),
  // A ten-server config's start, without and with a stored catalogue (bench/cold-start.mjs).
  ...coldStartScenarios(quick),
  // A fresh process loading rxmcp (ESM and CJS), and CLI commands' process time (bench/import-time.mjs).
  ...importTimeScenarios(quick),
];

// Per round; a scenario's `scale` shrinks them for the slower servers.
// Twenty short rounds rather than a few long ones: a burst of noise from the
// machine then lands in one round's ratio, which the median leaves out.
const sizes = {
  warmup: quick ? 1000 : 4000,
  // Forced lists before the timed rounds. More than the calls: a client's
  // list path is code of its own, which V8 compiles only once it has run a
  // few thousand times, and a compile's CPU (background threads included)
  // lands in whatever phase it happens in. With the warm-up at one round's
  // lists, the SDK stdio scenario (scale 0.5) timed that compilation, not
  // the list (PERFORMANCE.md, issue 33).
  warmupLists: quick ? 300 : 6000,
  // The least of either warm-up, whatever a scenario's scale: the slower
  // servers (scale 0.15 over HTTP) would otherwise warm a client with 600
  // calls, and time its compilation in the first rounds of each process.
  warmupAtLeast: quick ? 0 : 3000,
  rounds: quick ? 3 : 20,
  roundsPerProcess: quick ? 3 : 4,
  sequential: quick ? 500 : 2500,
  inflight: quick ? 1000 : 5000,
  wide: quick ? 2048 : 4096,
  listCached: quick ? 300 : 1000,
  listForced: quick ? 30 : 1000,
  cold: quick ? 3 : 5,
  heapCalls: quick ? 20000 : 100000,
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

// Every round runs the drivers in a different order, so drift and warm-up
// effects land on all of them alike.
const orderFor = (round) => {
  const order = drivers.map((_, i) => i);
  const shift = round % order.length;
  const rotated = [...order.slice(shift), ...order.slice(0, shift)];
  return round % 2 ? rotated.reverse() : rotated;
};

// A server on 127.0.0.1 that prints {"port": N} once listening and stops when
// its stdin ends; the target is its URL at `path`.
async function startHttpServer({ args, path, kind }) {
  const child = spawn(node, args);
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the HTTP server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const { port } = JSON.parse(line);
  return { target: { kind, url: `http://127.0.0.1:${port}${path}` }, stop: () => child.stdin.end() };
}

// The measures, each taken once per round per driver (µs per call), and how
// each is compared with the floor. The 1,024-in-flight pair only where a
// scenario is `wide`.
const MEASURES = [
  ['seq', 'sequential, time per call'],
  ['seqCpu', 'sequential, client CPU per call'],
  ['inflight', '64 in flight, time per call'],
  ['inflightCpu', '64 in flight, client CPU per call'],
  ['wide', '1,024 in flight, time per call'],
  ['wideCpu', '1,024 in flight, client CPU per call'],
  ['listForced', 'listTools forced to the wire, time per call'],
  ['listForcedCpu', 'listTools forced to the wire, client CPU per call'],
];
const measuresOf = (scenario) => MEASURES.filter(([key]) => (scenario.wide || !key.startsWith('wide')) && (!scenario.listOnly || key.startsWith('list')));

// A driver's process, asked one phase at a time.
function startWorker(driver, target) {
  const child = spawn(node, ['--expose-gc', join(here, 'worker.mjs'), driver, JSON.stringify(target)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(op, args = {}) {
      child.stdin.write(JSON.stringify({ op, ...args }) + '\n');
      const { value, done } = await answers.next();
      if (done) throw new Error(`the ${driver} worker ended during ${op}`);
      return JSON.parse(value);
    },
    async stop() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function runScenario(scenario) {
  const server = scenario.http ? await startHttpServer(scenario.http) : undefined;
  const target = scenario.target ?? server.target;
  const n = (size) => Math.max(20, Math.round(size * scenario.scale));
  const warm = (size) => Math.max(sizes.warmupAtLeast, n(size));
  const size = {
    rounds: sizes.rounds,
    sequential: n(sizes.sequential),
    inflight: n(sizes.inflight),
    ...(scenario.wide && { wide: sizes.wide }),
    listForced: n(sizes.listForced),
    listCached: n(sizes.listCached),
    cold: Math.ceil(n(sizes.cold * 4) / 4),
  };
  const measures = measuresOf(scenario);
  const rows = drivers.map((driver) => ({ driver, latencies: [], inflightLatencies: [], cold: [], ...Object.fromEntries(measures.map(([key]) => [key, []])) }));
  const perCall = (run, count) => [(run.elapsed * 1000) / count, (run.cpu * 1000) / count];
  // Fresh processes, opened and warmed up side by side (nothing is timed
  // yet). If one fails, the others are stopped before the error goes on.
  const warmWorkers = async () => {
    const workers = drivers.map((driver) => startWorker(driver, target));
    const ready = await Promise.allSettled(
      workers.map(async (worker) => {
        await worker.ask('open');
        await worker.ask('warmup', { calls: warm(sizes.warmup), lists: warm(sizes.warmupLists), wide: size.wide });
      }),
    );
    const failed = ready.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await stopAll(workers);
      throw failed.reason;
    }
    return workers;
  };
  const stopAll = (workers) => Promise.all(workers.map((worker) => worker.stop()));
  try {
    // Every few rounds in fresh processes: how fast a process runs a given
    // client varies from process to process and mostly stays so for its life
    // (PERFORMANCE.md), so one process per client for the whole run would
    // make the run's ratios one draw of that luck.
    for (let first = 0; first < size.rounds; first += sizes.roundsPerProcess) {
      const workers = await warmWorkers();
      try {
        for (let round = first; round < Math.min(size.rounds, first + sizes.roundsPerProcess); round++) {
          for (const i of scenario.listOnly ? [] : orderFor(round)) {
            const run = await workers[i].ask('sequential', { count: size.sequential });
            const [time, cpu] = perCall(run, size.sequential);
            rows[i].seq.push(time);
            rows[i].seqCpu.push(cpu);
            rows[i].latencies.push(...run.latencies);
          }
          for (const i of scenario.listOnly ? [] : orderFor(round + 1)) {
            const run = await workers[i].ask('inflight', { count: size.inflight });
            const [time, cpu] = perCall(run, size.inflight);
            rows[i].inflight.push(time);
            rows[i].inflightCpu.push(cpu);
            rows[i].inflightLatencies.push(...run.latencies);
          }
          for (const i of size.wide ? orderFor(round + 2) : []) {
            const [time, cpu] = perCall(await workers[i].ask('inflight', { count: size.wide, width: 1024 }), size.wide);
            rows[i].wide.push(time);
            rows[i].wideCpu.push(cpu);
          }
          for (const i of orderFor(round + (size.wide ? 3 : 2))) {
            const [time, cpu] = perCall(await workers[i].ask('list', { count: size.listForced, forced: true }), size.listForced);
            rows[i].listForced.push(time);
            rows[i].listForcedCpu.push(cpu);
          }
        }
      } finally {
        await stopAll(workers);
      }
    }
    // Cold starts first in their processes, then the cached reads and the heap.
    const workers = drivers.map((driver) => startWorker(driver, target));
    try {
      for (let round = 0; round < size.cold; round++) {
        for (const i of orderFor(round)) rows[i].cold.push((await workers[i].ask('cold')).elapsed);
      }
      for (const [i, worker] of workers.entries()) {
        await worker.ask('open');
        await worker.ask('warmup', { calls: n(sizes.warmup), lists: size.listForced });
        rows[i].listCachedUs = perCall(await worker.ask('list', { count: size.listCached, forced: false }), size.listCached)[0];
        await worker.ask('close');
      }
      if (scenario.heap) {
        for (const [i, worker] of workers.entries()) rows[i].heapGrowthKb = (await worker.ask('heap', { count: sizes.heapCalls })).grownKb;
      }
    } finally {
      await stopAll(workers);
    }
  } finally {
    server?.stop();
  }
  const floor = rows.find((row) => row.driver === 'raw');
  // A ratio per round (the drivers ran side by side in it), then the median
  // and the mean of those: drift across rounds cancels out.
  const ratios = (row, key) => row[key].map((value, round) => value / floor[key][round]);
  return {
    size,
    rows: rows.map((row) => ({
      driver: row.driver,
      measures: Object.fromEntries(
        measures.map(([key]) => [
          key,
          { median: median(row[key]), mean: mean(row[key]), ratioMedian: median(ratios(row, key)), ratioMean: mean(ratios(row, key)) },
        ]),
      ),
      p50Us: 1000 * percentile(row.latencies, 50),
      p99Us: 1000 * percentile(row.latencies, 99),
      inflightP50Us: 1000 * percentile(row.inflightLatencies, 50),
      inflightP99Us: 1000 * percentile(row.inflightLatencies, 99),
      coldMs: median(row.cold),
      coldRatio: median(row.cold) / median(floor.cold),
      listCachedUs: row.listCachedUs,
      heapGrowthKb: row.heapGrowthKb,
    })),
  };
}

const fmt = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

function table(name, { size, rows }) {
  const header = `| | ${rows.map((row) => (row.driver === 'raw' ? 'raw' : `${row.driver} | vs raw`)).join(' | ')} |`;
  const rule = `|---|${rows.map((row) => (row.driver === 'raw' ? '---' : '---|---')).join('|')}|`;
  const line = (label, cell) => `| ${label} | ${rows.map(cell).join(' | ')} |`;
  // A list-only scenario times no calls.
  const calls = 'seq' in rows[0].measures;
  const lines = [
    `### ${name}`,
    '',
    `Per round: ${calls ? `${size.sequential} sequential calls, ${size.inflight} calls 64 in flight, ` : ''}` +
      `${size.wide ? `${size.wide} calls 1,024 in flight, ` : ''}${size.listForced} forced \`listTools\`; ` +
      `${size.rounds} rounds; ${size.cold} cold starts per driver. Each cell: median over rounds (mean); µs per call.`,
    '',
    header,
    rule,
  ];
  for (const [key, label] of MEASURES.filter(([key]) => key in rows[0].measures)) {
    lines.push(
      line(label, (row) => {
        const m = row.measures[key];
        const value = `${fmt(m.median)} (${fmt(m.mean)})`;
        return row.driver === 'raw' ? value : `${value} | **${m.ratioMedian.toFixed(2)}x** (${m.ratioMean.toFixed(2)}x)`;
      }),
    );
  }
  if (calls) lines.push(line('sequential p50 / p99 µs', (row) => `${fmt(row.p50Us)} / ${fmt(row.p99Us)}${row.driver === 'raw' ? '' : ' |'}`));
  if (calls) lines.push(line('64 in flight p50 / p99 µs', (row) => `${fmt(row.inflightP50Us)} / ${fmt(row.inflightP99Us)}${row.driver === 'raw' ? '' : ' |'}`));
  lines.push(line('cold start ms', (row) => `${fmt(row.coldMs)}${row.driver === 'raw' ? '' : ` | ${row.coldRatio.toFixed(2)}x`}`));
  lines.push(line('listTools cached µs', (row) => `${fmt(row.listCachedUs)}${row.driver === 'raw' ? '' : ' |'}`));
  if (rows.some((row) => row.heapGrowthKb !== undefined)) {
    lines.push(line(`heap growth over ${sizes.heapCalls} calls, KiB`, (row) => `${row.heapGrowthKb.toFixed(0)}${row.driver === 'raw' ? '' : ' |'}`));
  }
  return lines.join('\n');
}

const started = Date.now();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const results = {};
const sections = [];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
for (const scenario of scenarios.filter((s) => !only || s.name.includes(only))) {
  process.stdout.write(`running ${scenario.name}…\n`);
  if (scenario.run) {
    results[scenario.name] = await scenario.run();
  } else if (scenario.gateway) {
    const size = { rounds: sizes.rounds, sequential: Math.round(sizes.sequential * scenario.scale), warmup: Math.round(sizes.warmup * scenario.scale) };
    results[scenario.name] = await gatewayScenario(scenario.gateway, size);
  } else {
    results[scenario.name] = await runScenario(scenario);
  }
  const section = (scenario.table ?? (scenario.gateway ? gatewayTable : table))(scenario.name, results[scenario.name]);
  sections.push(section);
  process.stdout.write(section + '\n\n');
}
const curves = await runCurves({ quick, only, drivers, startWorker, orderFor, median });
const curveSections = curves.map((curve) => curveTable(curve, pictureOf(curve)));
for (const section of curveSections) process.stdout.write(section + '\n\n');
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const report = [
  `# Benchmark results`,
  '',
  `\`npm run bench${quick ? ' -- --quick' : ''}\` on ${machine}, ${new Date().toISOString()}, ${seconds} s.`,
  `Each driver in processes of its own (fresh ones every ${sizes.roundsPerProcess} rounds), taking turns phase by phase. ` +
    '"vs raw" is the ratio to the hand-written floor taken in each round, then the median over rounds (mean in brackets).',
  '',
  ...sections.flatMap((section) => [section, '']),
  ...(curveSections.length ? ['## Curves', '', ...curveSections.flatMap((section) => [section, ''])] : []),
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latest.md'), report);
const json = { machine, quick, seconds: Number(seconds), results, curves: [...curves, ...scaleCurves(results)] };
writeFileSync(join(here, 'results', 'latest.json'), JSON.stringify(json, null, 2) + '\n');
writeCharts(json, join(here, 'results'));
process.stdout.write(`done in ${seconds} s; written to bench/results/latest.md\n`);
