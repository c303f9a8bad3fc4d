// The benchmark: raw (a hand-written floor), the official client and rxmcp,
// in one process, interleaved, against a minimal stdio server (both eras),
// the official SDK server over stdio, and the official SDK server over HTTP
// (both eras).
//
//   npm run bench            (node --expose-gc bench/run.mjs)
//   npm run bench -- --quick (fewer rounds, for a smoke run)
//   npm run bench -- --only minimal   (only the scenarios whose name contains it)
//   npm run bench -- --drivers rxmcp  (raw and the drivers named; all by default)
//
// Writes bench/results/latest.md and latest.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { drivers as allDrivers } from './drivers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
// --drivers raw,rxmcp leaves the others out (raw, the floor, always runs).
const named = process.argv.includes('--drivers') ? process.argv[process.argv.indexOf('--drivers') + 1].split(',') : undefined;
const drivers = allDrivers.filter((driver) => driver.name === 'raw' || !named || named.includes(driver.name));
const gc = globalThis.gc ?? (() => undefined);
if (!globalThis.gc) console.warn('run with --expose-gc (npm run bench does) for stable numbers');

const node = process.execPath;
const minimal = join(here, 'servers/minimal-server.mjs');
const sdk = join(here, 'servers/sdk-server.mjs');

const scenarios = [
  { name: 'minimal stdio, modern', target: { kind: 'stdio', command: node, args: [minimal], env: {} }, scale: 1, heap: true },
  { name: 'minimal stdio, legacy', target: { kind: 'stdio', command: node, args: [minimal], env: { BENCH_LEGACY: '1' } }, scale: 1 },
  { name: 'SDK stdio, modern', target: { kind: 'stdio', command: node, args: [sdk], env: {} }, scale: 0.5 },
  { name: 'SDK HTTP, modern', http: [], scale: 0.15 },
  { name: 'SDK HTTP, legacy', http: ['--legacy'], scale: 0.15 },
];

// Per round; a scenario's `scale` shrinks them for the slower servers.
const sizes = {
  warmup: quick ? 1000 : 4000,
  rounds: quick ? 3 : 10,
  sequential: quick ? 500 : 2000,
  inflight: quick ? 1000 : 4000,
  listCached: quick ? 300 : 1000,
  listForced: quick ? 30 : 200,
  cold: quick ? 3 : 5,
  heapCalls: quick ? 20000 : 100000,
};

const cpuMs = (used) => (used.user + used.system) / 1000;

async function sequential(client, count) {
  const latencies = new Float64Array(count);
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await client.call(`s${i}`);
    latencies[i] = performance.now() - t;
  }
  const elapsed = performance.now() - start;
  return { elapsed, cpu: cpuMs(process.cpuUsage(cpu)), latencies };
}

async function inflight(client, total, width = 64) {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  let issued = 0;
  const lane = async () => {
    while (issued < total) {
      issued++;
      await client.call(`c${issued}`);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)) };
}

async function listing(client, count, forced) {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.list(forced);
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)) };
}

async function coldStart(driver, target) {
  const start = performance.now();
  const client = await driver.open(target);
  await client.call('cold');
  const elapsed = performance.now() - start;
  await client.close();
  return elapsed;
}

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

async function startHttpServer(args) {
  const child = spawn(node, [sdk, '--http', ...args]);
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the HTTP server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const { port } = JSON.parse(line);
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.stdin.end() };
}

// The measures, each taken once per round per driver (µs per call), and how
// each is compared with the floor.
const MEASURES = [
  ['seq', 'sequential, time per call'],
  ['seqCpu', 'sequential, client CPU per call'],
  ['inflight', '64 in flight, time per call'],
  ['inflightCpu', '64 in flight, client CPU per call'],
  ['listForced', 'listTools forced to the wire, time per call'],
  ['listForcedCpu', 'listTools forced to the wire, client CPU per call'],
];

async function runScenario(scenario) {
  const server = scenario.http ? await startHttpServer(scenario.http) : undefined;
  const target = scenario.target ?? { kind: 'http', url: server.url };
  const n = (size) => Math.max(20, Math.round(size * scenario.scale));
  const size = {
    rounds: sizes.rounds,
    sequential: n(sizes.sequential),
    inflight: n(sizes.inflight),
    listForced: n(sizes.listForced),
    listCached: n(sizes.listCached),
    cold: Math.ceil(n(sizes.cold * 4) / 4),
  };
  const rows = drivers.map((driver) => ({ driver: driver.name, latencies: [], cold: [], ...Object.fromEntries(MEASURES.map(([key]) => [key, []])) }));
  try {
    for (let round = 0; round < size.cold; round++) {
      for (const i of orderFor(round)) rows[i].cold.push(await coldStart(drivers[i], target));
    }
    const clients = [];
    for (const driver of drivers) clients.push(await driver.open(target));
    for (const client of clients) for (let i = 0; i < n(sizes.warmup); i++) await client.call(`w${i}`);
    for (const client of clients) for (let i = 0; i < size.listForced; i++) await client.list(true);
    for (let round = 0; round < size.rounds; round++) {
      for (const i of orderFor(round)) {
        const run = await sequential(clients[i], size.sequential);
        rows[i].seq.push((run.elapsed * 1000) / size.sequential);
        rows[i].seqCpu.push((run.cpu * 1000) / size.sequential);
        rows[i].latencies.push(...run.latencies);
      }
      for (const i of orderFor(round + 1)) {
        const run = await inflight(clients[i], size.inflight);
        rows[i].inflight.push((run.elapsed * 1000) / size.inflight);
        rows[i].inflightCpu.push((run.cpu * 1000) / size.inflight);
      }
      for (const i of orderFor(round + 2)) {
        const run = await listing(clients[i], size.listForced, true);
        rows[i].listForced.push((run.elapsed * 1000) / size.listForced);
        rows[i].listForcedCpu.push((run.cpu * 1000) / size.listForced);
      }
    }
    for (const [i, client] of clients.entries()) {
      const run = await listing(client, size.listCached, false);
      rows[i].listCachedUs = (run.elapsed * 1000) / size.listCached;
    }
    for (const client of clients) await client.close();
    if (scenario.heap) {
      for (const [i, driver] of drivers.entries()) {
        const client = await driver.open(target);
        await client.call('warm');
        gc();
        const before = process.memoryUsage().heapUsed;
        await inflight(client, sizes.heapCalls);
        gc();
        rows[i].heapGrowthKb = (process.memoryUsage().heapUsed - before) / 1024;
        await client.close();
      }
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
        MEASURES.map(([key]) => [
          key,
          { median: median(row[key]), mean: mean(row[key]), ratioMedian: median(ratios(row, key)), ratioMean: mean(ratios(row, key)) },
        ]),
      ),
      p50Us: 1000 * percentile(row.latencies, 50),
      p99Us: 1000 * percentile(row.latencies, 99),
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
  const lines = [
    `### ${name}`,
    '',
    `Per round: ${size.sequential} sequential calls, ${size.inflight} calls 64 in flight, ${size.listForced} forced \`listTools\`; ` +
      `${size.rounds} rounds; ${size.cold} cold starts per driver. Each cell: median over rounds (mean); µs per call.`,
    '',
    header,
    rule,
  ];
  for (const [key, label] of MEASURES) {
    lines.push(
      line(label, (row) => {
        const m = row.measures[key];
        const value = `${fmt(m.median)} (${fmt(m.mean)})`;
        return row.driver === 'raw' ? value : `${value} | **${m.ratioMedian.toFixed(2)}x** (${m.ratioMean.toFixed(2)}x)`;
      }),
    );
  }
  lines.push(line('sequential p50 / p99 µs', (row) => `${fmt(row.p50Us)} / ${fmt(row.p99Us)}${row.driver === 'raw' ? '' : ' |'}`));
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
  results[scenario.name] = await runScenario(scenario);
  const section = table(scenario.name, results[scenario.name]);
  sections.push(section);
  process.stdout.write(section + '\n\n');
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const report = [
  `# Benchmark results`,
  '',
  `\`npm run bench${quick ? ' -- --quick' : ''}\` on ${machine}, ${new Date().toISOString()}, ${seconds} s.`,
  'Drivers interleaved round by round. "vs raw" is the ratio to the hand-written floor taken in each round, then the median over rounds (mean in brackets).',
  '',
  ...sections.flatMap((section) => [section, '']),
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latest.md'), report);
writeFileSync(join(here, 'results', 'latest.json'), JSON.stringify({ machine, quick, seconds: Number(seconds), results }, null, 2) + '\n');
process.stdout.write(`done in ${seconds} s; written to bench/results/latest.md\n`);
