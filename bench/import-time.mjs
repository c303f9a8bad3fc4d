// Import time: how long a fresh process takes to load rxmcp, against a bare
// node start and the official client, and the process time of two CLI
// commands. Every row is a new process, several of them, the rows taking
// turns; medians. Wall time is from spawn to exit as this process sees it;
// CPU is what the child itself reports as it exits (user + system, all its
// threads, bootstrap included: bench/cpu-at-exit.cjs, preloaded into every
// row alike), so `rxmcp tools`'s server child is not counted in it.
//
//   npm run bench -- --only import-time
//   npm run build && node bench/import-time.mjs [runs]     (this alone, printed)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const node = process.execPath;
const preload = join(here, 'cpu-at-exit.cjs');
const minimal = join(here, 'servers/minimal-server.mjs');
const esm = pathToFileURL(join(root, 'dist/esm/index.js')).href;
const cjs = join(root, 'dist/cjs/index.js');
const cli = join(root, 'bin/rxmcp.mjs');

/**
 * The official Inspector's CLI, where it is installed (it is no dependency of
 * rxmcp; RXMCP_BENCH_INSPECTOR names a folder holding the package instead,
 * for a copy installed elsewhere), and the arguments that list a stdio
 * server's tools with it: version 2 has its CLI in clients/cli, 0.x and 1.x
 * in cli/ behind --cli.
 */
let inspectorFound;
function inspectorCli() {
  if (inspectorFound === undefined) inspectorFound = { cli: findInspectorCli() };
  return inspectorFound.cli;
}
function findInspectorCli() {
  let folder;
  try {
    folder = process.env.RXMCP_BENCH_INSPECTOR ?? dirname(createRequire(join(root, 'package.json')).resolve('@modelcontextprotocol/inspector/package.json'));
  } catch {
    folder = installedInspector();
    if (folder === undefined) return undefined;
  }
  const v2 = join(folder, 'clients/cli/build/index.js');
  if (existsSync(v2)) return { path: v2, list: (server) => [v2, '--method', 'tools/list', ...server] };
  const v1 = join(folder, 'cli/build/cli.js');
  if (existsSync(v1)) return { path: v1, list: (server) => [v1, '--cli', ...server, '--method', 'tools/list'] };
  return undefined;
}

/**
 * The Inspector is no devDependency (120 packages, 112 MB, for two bench
 * rows), so the bench installs one pinned version into bench/.inspector
 * (ignored by git) the first time it runs, from the npm registry; offline,
 * or with RXMCP_BENCH_NO_INSTALL set, the rows are left out.
 */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
function installedInspector() {
  const prefix = join(here, '.inspector');
  const folder = join(prefix, 'node_modules/@modelcontextprotocol/inspector');
  if (!existsSync(join(folder, 'package.json')) && !process.env.RXMCP_BENCH_NO_INSTALL) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const made = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', INSPECTOR], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
    if (made.status !== 0) process.stderr.write(`import-time: could not install ${INSPECTOR} (${String(made.stderr ?? '').trim().split('\n').pop() || made.error?.message}); its rows are left out\n`);
  }
  return existsSync(join(folder, 'package.json')) ? folder : undefined;
}

/** The rows: a label and the node arguments that make the process. */
export function importRows() {
  const inspector = inspectorCli();
  return [
    { label: 'bare `node -e ""`', args: ['-e', ''] },
    { label: "`import('rxjs')`", args: ['-e', "import('rxjs')"] },
    { label: "`import('zod')`", args: ['-e', "import('zod')"] },
    // What rxmcp's root entry costs at least while it loads both when imported.
    { label: "`import('rxjs')` and `import('zod')`", args: ['-e', "import('rxjs'); import('zod')"] },
    { label: "`require('rxjs')` and `require('zod')`", args: ['-e', "require('rxjs'); require('zod')"] },
    { label: "`import('rxmcp')` (ESM, dist/esm)", args: ['-e', `import(${JSON.stringify(esm)})`] },
    { label: "`require('rxmcp')` (CJS, dist/cjs)", args: ['-e', `require(${JSON.stringify(cjs)})`] },
    { label: "`import('@modelcontextprotocol/client')`", args: ['-e', "import('@modelcontextprotocol/client')"] },
    { label: '`rxmcp --version`', args: [cli, '--version'] },
    { label: '`rxmcp tools -- node minimal-server.mjs`', args: [cli, 'tools', '--', node, minimal] },
    ...(inspector ? [{ label: 'Inspector CLI `--version`', args: [inspector.path, '--version'] }] : []),
    ...(inspector ? [{ label: 'Inspector CLI `--method tools/list node minimal-server.mjs`', args: inspector.list([node, minimal]) }] : []),
  ];
}

/** One fresh process: wall ms from spawn to exit, and the CPU ms and peak RSS it reports. */
function runOnce(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, ['-r', preload, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let report = '';
    let errors = '';
    child.stdio[3].on('data', (chunk) => (report += chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0 || !report) return reject(new Error(`node ${args.join(' ')} exited with ${code}: ${errors.slice(0, 500)}`));
      const { user, system, maxRSS } = JSON.parse(report);
      resolve({ wallMs, cpuMs: (user + system) / 1000, rssMiB: maxRSS / 1024 });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Every row `runs` times, in a rotating order; medians per row. */
export async function importTime(runs) {
  const rows = importRows();
  const samples = rows.map(() => []);
  // One untimed pass: the disk cache warm for every row alike.
  for (const row of rows) await runOnce(row.args);
  for (let run = 0; run < runs; run++) {
    const order = rows.map((_, i) => (i + run) % rows.length);
    for (const i of run % 2 ? order.reverse() : order) samples[i].push(await runOnce(rows[i].args));
  }
  const bare = samples[0];
  const result = rows.map((row, i) => ({
    label: row.label,
    wallMs: median(samples[i].map((s) => s.wallMs)),
    cpuMs: median(samples[i].map((s) => s.cpuMs)),
    rssMiB: median(samples[i].map((s) => s.rssMiB)),
  }));
  return { runs, rows: result, bareWallMs: median(bare.map((s) => s.wallMs)), bareCpuMs: median(bare.map((s) => s.cpuMs)), inspector: inspectorCli() !== undefined };
}

/** The section of bench/results/latest.md. */
export function importTimeTable(name, { runs, rows, bareWallMs, bareCpuMs, inspector }) {
  return [
    `### ${name}`,
    '',
    `Fresh processes, ${runs} of each, the rows taking turns; medians. Wall: spawn to exit, seen by the parent. CPU: user + system the child reports at exit (bench/cpu-at-exit.cjs). ` +
      (inspector ? '' : 'The official Inspector CLI (`@modelcontextprotocol/inspector`) is not installed, so it has no row.'),
    '',
    '| process | wall, ms | vs bare | CPU, ms | vs bare | peak RSS, MiB |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.wallMs.toFixed(0)} | ${(row.wallMs / bareWallMs).toFixed(2)}x | ${row.cpuMs.toFixed(0)} | ${(row.cpuMs / bareCpuMs).toFixed(2)}x | ${row.rssMiB.toFixed(0)} |`,
    ),
  ].join('\n');
}

/** The scenario as bench/run.mjs runs it. */
export function importTimeScenarios(quick) {
  return [{ name: 'import-time: a fresh process loading rxmcp, and CLI commands', run: () => importTime(quick ? 3 : 15), table: importTimeTable }];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 15);
  process.stdout.write(importTimeTable('import time', await importTime(runs)) + '\n');
}
