// The benchmark: raw (a hand-written floor), the official client and rxmcp,
// in one process, interleaved, against a minimal stdio server (both eras),
// the official SDK server over stdio, and the official SDK server over HTTP
// (both eras).
//
//   npm run bench            (node --expose-gc bench/run.mjs)
//   npm run bench -- --quick (fewer rounds, for a smoke run)
//   npm run bench -- --only minimal   (only the scenarios whose name contains it)
//
// Writes bench/results/latest.md and latest.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { drivers } from './drivers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
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

const sizes = {
  warmup: quick ? 1000 : 4000,
  rounds: quick ? 2 : 6,
  sequential: quick ? 500 : 2000,
  inflight: quick ? 1000 : 4000,
  listCached: quick ? 300 : 1000,
  listForced: quick ? 50 : 200,
  cold: quick ? 3 : 5,
  heapCalls: quick ? 20000 : 100000,
};

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
  const used = process.cpuUsage(cpu);
  return { elapsed, cpu: (used.user + used.system) / 1000, latencies };
}

async function inflight(client, total, width = 64) {
  gc();
  const start = performance.now();
  let issued = 0;
  const lane = async () => {
    while (issued < total) {
      issued++;
      await client.call(`c${issued}`);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return performance.now() - start;
}

async function listing(client, count, forced) {
  gc();
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.list(forced);
  return (performance.now() - start) / count;
}

async function coldStart(driver, target) {
  const start = performance.now();
  const client = await driver.open(target);
  await client.call('cold');
  const elapsed = performance.now() - start;
  await client.close();
  return elapsed;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
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

async function runScenario(scenario) {
  const server = scenario.http ? await startHttpServer(scenario.http) : undefined;
  const target = scenario.target ?? { kind: 'http', url: server.url };
  const n = (size) => Math.max(20, Math.round(size * scenario.scale));
  const rows = drivers.map((driver) => ({ driver: driver.name, seq: [], cpu: [], latencies: [], inflight: [], cold: [] }));
  try {
    for (let round = 0; round < n(sizes.cold * 4) / 4; round++) {
      for (const i of orderFor(round)) rows[i].cold.push(await coldStart(drivers[i], target));
    }
    const clients = [];
    for (const driver of drivers) clients.push(await driver.open(target));
    for (const client of clients) for (let i = 0; i < n(sizes.warmup); i++) await client.call(`w${i}`);
    for (let round = 0; round < sizes.rounds; round++) {
      for (const i of orderFor(round)) {
        const run = await sequential(clients[i], n(sizes.sequential));
        rows[i].seq.push((run.elapsed * 1000) / run.latencies.length);
        rows[i].cpu.push((run.cpu * 1000) / run.latencies.length);
        rows[i].latencies.push(...run.latencies);
      }
      for (const i of orderFor(round + 1)) rows[i].inflight.push((1000 * (await inflight(clients[i], n(sizes.inflight)))) / n(sizes.inflight));
    }
    for (const [i, client] of clients.entries()) {
      rows[i].listCached = 1000 * (await listing(client, n(sizes.listCached), false));
      rows[i].listForced = 1000 * (await listing(client, n(sizes.listForced), true));
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
  return rows.map((row) => ({
    driver: row.driver,
    seqUs: median(row.seq),
    p50Us: 1000 * percentile(row.latencies, 50),
    p99Us: 1000 * percentile(row.latencies, 99),
    inflightUs: median(row.inflight),
    cpuUs: median(row.cpu),
    coldMs: median(row.cold),
    listCachedUs: row.listCached,
    listForcedUs: row.listForced,
    heapGrowthKb: row.heapGrowthKb,
  }));
}

function table(name, rows) {
  const floor = rows.find((row) => row.driver === 'raw');
  const ratio = (value, base) => (base ? `${(value / base).toFixed(2)}x` : '');
  const lines = [
    `### ${name}`,
    '',
    '| driver | sequential µs/call | vs raw | p50 µs | p99 µs | 64 in flight µs/call | vs raw | CPU µs/call | vs raw | cold start ms | vs raw | listTools cached µs | listTools forced µs | heap growth KiB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.driver} | ${row.seqUs.toFixed(1)} | ${ratio(row.seqUs, floor.seqUs)} | ${row.p50Us.toFixed(1)} | ${row.p99Us.toFixed(1)} | ` +
        `${row.inflightUs.toFixed(1)} | ${ratio(row.inflightUs, floor.inflightUs)} | ${row.cpuUs.toFixed(1)} | ${ratio(row.cpuUs, floor.cpuUs)} | ` +
        `${row.coldMs.toFixed(1)} | ${ratio(row.coldMs, floor.coldMs)} | ${row.listCachedUs.toFixed(1)} | ${row.listForcedUs.toFixed(1)} | ` +
        `${row.heapGrowthKb === undefined ? '' : row.heapGrowthKb.toFixed(0)} |`,
    );
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
  'Medians over interleaved rounds; "vs raw" is the ratio to the hand-written floor in the same run.',
  '',
  ...sections.flatMap((section) => [section, '']),
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latest.md'), report);
writeFileSync(join(here, 'results', 'latest.json'), JSON.stringify({ machine, quick, seconds: Number(seconds), results }, null, 2) + '\n');
process.stdout.write(`done in ${seconds} s; written to bench/results/latest.md\n`);
