// Where a fresh process's load time goes: V8 CPU profiles (node --cpu-prof)
// of `import('rxmcp')` and of `rxmcp --version`, several processes each,
// their samples summed and grouped by package (rxjs, zod, rxmcp's own files
// by folder, Node's module loader, ...), with the rxmcp files whose top-level
// code (the module body: schemas built at load) costs the most; and the
// modules each process loads, ESM and CommonJS.
//
//   npm run build && node bench/import-profile.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const esm = pathToFileURL(join(root, 'dist/esm/index.js')).href;
const cjs = join(root, 'dist/cjs/index.js');
const INTERVAL_US = 100;

const CASES = [
  { label: "import('rxmcp') (ESM)", args: ['-e', `import(${JSON.stringify(esm)})`] },
  { label: "require('rxmcp') (CJS)", args: ['-e', `require(${JSON.stringify(cjs)})`], counted: `(await import('node:module')).createRequire(${JSON.stringify(cjs)})(${JSON.stringify(cjs)})` },
  { label: 'rxmcp --version', args: [join(root, 'bin/rxmcp.mjs'), '--version'] },
];

/** Where a script's time is counted: a package, a folder of rxmcp's, or a part of Node. */
function groupOf(url) {
  if (!url) return '(no script: V8, GC, idle)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) return inModules[1];
  const own = /\/dist\/(esm|cjs)\/(?:([^/]+)\/)?[^/]+$/.exec(url);
  if (own) return `rxmcp ${own[2] ?? '(root files)'}`;
  if (url.includes('/bin/rxmcp.mjs')) return 'rxmcp bin';
  if (url.startsWith('node:internal/modules') || url.startsWith('node:internal/vm')) return 'node module loader';
  if (url.startsWith('node:')) return 'node, other';
  return url;
}

const rxmcpFile = (url) => (url.includes('/node_modules/') ? undefined : /\/dist\/(?:esm|cjs)\/(.+)$/.exec(url)?.[1]);
const isLoader = (url) => url.startsWith('node:internal/modules') || url.startsWith('node:internal/vm');

/**
 * From one profile: self time by group; by function; and, for each rxmcp
 * file, the time its module body spends in its own work (schemas built,
 * tables filled), which is every sample whose nearest rxmcp frame up the
 * stack is that file's body with no module loading in between (a body's
 * `require` or import of another file counts to that file, not this one).
 */
function aggregate(profile, groups, bodies, functions) {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? INTERVAL_US));
  }
  const bodyOf = (node) => {
    for (let at = node; at; at = parent.get(at.id)) {
      const { url, functionName } = at.callFrame;
      if (isLoader(url)) return undefined;
      const file = rxmcpFile(url);
      if (file && functionName === '') return file;
    }
    return undefined;
  };
  for (const [id, us] of self) {
    const node = byId.get(id);
    const { url, functionName, lineNumber } = node.callFrame;
    const name = ['(program)', '(garbage collector)', '(idle)', '(root)'].includes(functionName) ? functionName : groupOf(url);
    groups.set(name, (groups.get(name) ?? 0) + us);
    const where = `${functionName || '(top level)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
    functions.set(where, (functions.get(where) ?? 0) + us);
    const file = bodyOf(node);
    if (file) bodies.set(file, (bodies.get(file) ?? 0) + us);
  }
}

/** Sums `runs` profiles of one case. */
function profileCase({ args }, runs) {
  const groups = new Map();
  const bodies = new Map();
  const functions = new Map();
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'rxmcp-prof-'));
    try {
      const done = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`, ...args], { cwd: root, stdio: 'ignore' });
      if (done.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${done.status}`);
      for (const file of readdirSync(dir)) aggregate(JSON.parse(readFileSync(join(dir, file), 'utf8')), groups, bodies, functions);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const perRun = (map) => [...map].map(([name, us]) => [name, us / runs / 1000]).sort((a, b) => b[1] - a[1]);
  return { groups: perRun(groups), bodies: perRun(bodies), functions: perRun(functions) };
}

// Counted by a loader hook (every ESM resolution, and CommonJS entries
// imported from ESM) and Module._cache (every CommonJS file required).
const COUNTER = `
import Module, { register } from 'node:module';
const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(\`
  let port;
  export function initialize(data) { port = data.port; }
  export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
\`), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => {
  const cjs = Object.keys(Module._cache);
  const files = new Set([...seen].filter((u) => u.startsWith('file:')).map((u) => new URL(u).pathname).concat(cjs));
  const count = (test) => [...files].filter(test).length;
  console.log(JSON.stringify({ files: files.size, rxjs: count((f) => f.includes('/node_modules/rxjs/')), rxjsCjs: count((f) => f.includes('/node_modules/rxjs/dist/cjs/')), zod: count((f) => f.includes('/node_modules/zod/')), rxmcp: count((f) => !f.includes('/node_modules/') && (f.includes('/dist/esm/') || f.includes('/dist/cjs/'))) }));
});
`;

/** Modules a case's process loads. */
function countModules({ args, counted }) {
  // The loader's messages arrive while the process still runs: a short wait
  // keeps it alive to count them all before the exit hook prints.
  const code = counted ?? (args[0] === '-e' ? args[1] : `await import(${JSON.stringify(pathToFileURL(args[0]).href)})`);
  const done = spawnSync(process.execPath, ['--no-warnings', '--import', `data:text/javascript,${encodeURIComponent(COUNTER)}`, '--input-type=module', '-e', `${code}; await new Promise((r) => setTimeout(r, 100));`], {
    cwd: root,
    encoding: 'utf8',
  });
  return done.stdout.trim().split('\n').at(-1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 5);
  for (const item of CASES) {
    const { groups, bodies, functions } = profileCase(item, runs);
    const sampled = groups.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`\n### ${item.label}: self time by group, ms per process (mean of ${runs}; ${sampled.toFixed(0)} ms sampled)\n`);
    console.log('| group | self ms | share |\n|---|---|---|');
    for (const [name, ms] of groups.filter(([, ms]) => ms >= 0.5)) console.log(`| ${name} | ${ms.toFixed(1)} | ${((100 * ms) / sampled).toFixed(0)}% |`);
    console.log(`\nrxmcp module bodies (their own top-level work, loads of other files left out), ms per process, ≥ 0.5 ms:\n`);
    console.log('| file | ms |\n|---|---|');
    for (const [file, ms] of bodies.filter(([, ms]) => ms >= 0.5)) console.log(`| ${file} | ${ms.toFixed(1)} |`);
    console.log(`\nthe functions with the most self time, ms per process:\n`);
    console.log('| function | ms |\n|---|---|');
    for (const [where, ms] of functions.slice(0, 15)) console.log(`| ${where} | ${ms.toFixed(1)} |`);
    console.log(`\nmodules loaded: ${countModules(item)}`);
  }
}
