// The curves: how a client's cost grows with the catalogue's size, a
// result's size and the calls in flight, each against the minimal stdio
// server (2026-07-28). Run by bench/run.mjs after its scenarios (`--only
// curves` for these alone, or part of a curve's name); bench/charts.mjs
// draws them.
//
// A point is a few short rounds in fresh worker processes (one per driver,
// the turn order rotating every round), after one untimed run of the same
// operation. Each value is the median over rounds of µs per operation; each
// ratio the median of the per-round ratios to raw, as in the scenarios.
//
// A curve in latest.json:
//   { name, x, unit, points: [{ x, raw, official, rxmcp, rawCpu, officialCpu, rxmcpCpu,
//     officialRatio, rxmcpRatio, officialCpuRatio, rxmcpCpuRatio }] }
// (a driver left out by --drivers has no fields).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const minimal = join(here, 'servers/minimal-server.mjs');
const KiB = 1024;
const MiB = 1024 * KiB;

// Per point: the server's environment and the worker's command. The counts
// keep a round at roughly the same work for the floor at every point.
// --quick leaves the largest point out (`quickXs`).
const CURVES = [
  {
    name: 'catalogue size',
    x: 'tools in the catalogue (forced listTools)',
    xs: [10, 100, 1000, 10000],
    quickXs: [10, 100, 1000],
    env: (tools) => ({ BENCH_TOOLS: String(tools) }),
    ask: (tools, quick) => ({ op: 'list', forced: true, count: Math.max(1, Math.round((quick ? 500 : 3000) / tools)) }),
  },
  {
    name: 'result size',
    x: 'characters of text in one result',
    xs: [KiB, 64 * KiB, MiB, 16 * MiB],
    quickXs: [KiB, 64 * KiB, MiB],
    label: (bytes) => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`),
    env: () => ({ BENCH_TOOLS: '20' }),
    ask: (bytes, quick) => ({ op: 'blob', bytes, count: Math.max(1, Math.min(quick ? 100 : 500, Math.round((quick ? MiB : 3 * MiB) / bytes))) }),
    // A point's rounds are as few as 48 calls (64 KiB) or 3 (1 MiB), so a
    // warm-up of one round left the path half compiled, and the compiler's
    // CPU (and the interpreter's) was timed as the result's cost: at 64 KiB
    // a client's CPU per call fell from about 2 ms in its first rounds to
    // 0.15–0.3 ms by its eighth (PERFORMANCE.md). The same path, run 3,000
    // times on small results first, is compiled before a round is timed.
    warm: (quick) => ({ op: 'blob', bytes: KiB, count: quick ? 300 : 3000 }),
  },
  {
    name: 'calls in flight',
    x: 'calls in flight',
    xs: [1, 16, 64, 256, 1024],
    quickXs: [1, 64, 1024],
    env: () => ({}),
    ask: (width, quick) => ({ op: 'inflight', width, count: (quick ? 2 : 4) * Math.max(width, quick ? 128 : 256) }),
  },
];

/** The names of the curves there are, for --only. */
export const curveNames = CURVES.map((curve) => curve.name);

/**
 * Every curve whose name contains `only` (all of them when it is undefined
 * or "curves"), measured for `drivers` (raw first). `startWorker`,
 * `orderFor` and `median` are bench/run.mjs's.
 */
export async function runCurves({ quick, only, drivers, startWorker, orderFor, median }) {
  const rounds = quick ? 2 : 5;
  const curves = [];
  for (const curve of CURVES.filter((candidate) => !only || only === 'curves' || candidate.name.includes(only))) {
    process.stdout.write(`running the ${curve.name} curve…\n`);
    const started = Date.now();
    const points = [];
    for (const x of quick ? curve.quickXs : curve.xs) {
      const target = { kind: 'stdio', command: process.execPath, args: [minimal], env: curve.env(x) };
      const ask = curve.ask(x, quick);
      const workers = drivers.map((driver) => startWorker(driver, target));
      const times = drivers.map(() => []);
      const cpus = drivers.map(() => []);
      try {
        await Promise.all(
          workers.map(async (worker) => {
            await worker.ask('open');
            if (curve.warm) {
              const warm = curve.warm(quick);
              await worker.ask(warm.op, warm);
            }
            await worker.ask(ask.op, ask);
            await worker.ask('settle');
          }),
        );
        for (let round = 0; round < rounds; round++) {
          for (const i of orderFor(round)) {
            const run = await workers[i].ask(ask.op, ask);
            times[i].push((run.elapsed * 1000) / ask.count);
            cpus[i].push((run.cpu * 1000) / ask.count);
          }
        }
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
      const point = { x, ...(curve.label && { label: curve.label(x) }) };
      const ratio = (values, floor) => median(values.map((value, round) => value / floor[round]));
      for (const [i, driver] of drivers.entries()) {
        point[driver] = median(times[i]);
        point[`${driver}Cpu`] = median(cpus[i]);
        if (i > 0) {
          point[`${driver}Ratio`] = ratio(times[i], times[0]);
          point[`${driver}CpuRatio`] = ratio(cpus[i], cpus[0]);
        }
      }
      points.push(point);
    }
    curves.push({ name: curve.name, x: curve.x, unit: 'µs per call', rounds, points });
    process.stdout.write(`the ${curve.name} curve took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  return curves;
}

const fmt = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** A curve as a markdown table, with the picture bench/charts.mjs draws of it. */
export function curveTable(curve, picture) {
  const drivers = ['raw', 'official', 'rxmcp'].filter((driver) => curve.points[0][driver] !== undefined);
  const others = drivers.filter((driver) => driver !== 'raw');
  const lines = [
    `### ${curve.name}`,
    '',
    `![${curve.name}](${picture})`,
    '',
    `x: ${curve.x}. Each cell: ${curve.unit}, time / client CPU, median over ${curve.rounds ?? 'the'} rounds; "vs raw" the median per-round ratio (time / CPU).`,
    '',
    `| ${curve.x} | raw | ${others.map((driver) => `${driver} | vs raw`).join(' | ')} |`,
    `|---|---|${others.map(() => '---|---').join('|')}|`,
  ];
  // Any curve of the shape is tabled, whoever adds it: a value or ratio it lacks is left out.
  const pair = (time, cpu, show) => [time, cpu].filter((value) => value !== undefined).map(show).join(' / ');
  for (const point of curve.points) {
    const cells = [pair(point.raw, point.rawCpu, fmt)];
    for (const driver of others) {
      cells.push(pair(point[driver], point[`${driver}Cpu`], fmt));
      cells.push(pair(point[`${driver}Ratio`], point[`${driver}CpuRatio`], (ratio) => `**${ratio.toFixed(2)}x**`));
    }
    lines.push(`| ${point.label ?? (typeof point.x === 'number' ? point.x.toLocaleString('en-US') : point.x)} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
