// Cold start of a ten-server config (ten server-everything instances over
// stdio, as a config of npx servers is): the time from Registry.fromConfig
// to the first toolsForLlm(), the processes it leaves running and their
// memory (resident set, read from /proc), without a catalogue and with a
// warm FileCatalogue; and, warm, the time of a first call, which starts
// that one server.
//
//   npm run bench -- --only cold-start
//   npm run build && node bench/cold-start.mjs [rounds]     (this alone, printed)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Registry } from 'rxmcp';
import { FileCatalogue } from 'rxmcp/node';

const everything = new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).pathname;
const SERVERS = 10;
const config = { mcpServers: Object.fromEntries(Array.from({ length: SERVERS }, (_, n) => [`s${n}`, { command: process.execPath, args: [everything, 'stdio'] }])) };

/** The pids of this process's children, `ps` itself left out. */
function children() {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm !== 'ps')
    .map(([pid]) => Number(pid));
}

/** Resident memory of a process, in MiB (0 once it is gone). */
function rssMiB(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function once(catalogue) {
  const started = performance.now();
  const registry = Registry.fromConfig(config, catalogue ? { catalogue } : {});
  try {
    const tools = await registry.toolsForLlm();
    const firstReadMs = performance.now() - started;
    const pids = children();
    const childMiB = pids.reduce((sum, pid) => sum + rssMiB(pid), 0);
    const callStarted = performance.now();
    const [answer] = await registry.executeToolCalls([{ id: '1', function: { name: 's0_echo', arguments: { message: 'hi' } } }]);
    if (answer.is_error) throw new Error(`the call failed: ${answer.content}`);
    const firstCallMs = performance.now() - callStarted;
    return { firstReadMs, tools: tools.length, processes: pids.length, childMiB, firstCallMs };
  } finally {
    await registry.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Each mode `rounds` times, taking turns; medians. */
export async function coldStart(rounds) {
  const scratch = mkdtempSync(join(tmpdir(), 'rxmcp-cold-'));
  const path = join(scratch, 'catalogue.json');
  try {
    // Fills the catalogue: the first run of a config with one.
    await once(new FileCatalogue({ path }));
    const runs = { none: [], warm: [] };
    for (let round = 0; round < rounds; round++) {
      runs.none.push(await once(undefined));
      runs.warm.push(await once(new FileCatalogue({ path })));
    }
    const summary = (list) => Object.fromEntries(Object.keys(list[0]).map((key) => [key, median(list.map((run) => run[key]))]));
    return { rounds, servers: SERVERS, none: summary(runs.none), warm: summary(runs.warm), parentMiB: process.memoryUsage().rss / 2 ** 20 };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The section of bench/results/latest.md. */
export function coldStartTable(name, { rounds, servers, none, warm }) {
  const row = (label, run) =>
    `| ${label} | ${run.firstReadMs.toFixed(0)} | ${run.tools} | ${run.processes} | ${run.childMiB.toFixed(0)} | ${run.firstCallMs.toFixed(0)} |`;
  return [
    `### ${name}`,
    '',
    `${servers} server-everything instances over stdio; medians of ${rounds} rounds, the two modes taking turns. Time from \`Registry.fromConfig\` to the first \`toolsForLlm()\`; processes running and their resident memory just after it; then one call of \`s0_echo\`.`,
    '',
    '| catalogue | first toolsForLlm, ms | tools | server processes | their RSS, MiB | first call, ms |',
    '|---|---|---|---|---|---|',
    row('none', none),
    row('FileCatalogue, warm', warm),
  ].join('\n');
}

/** The scenario as bench/run.mjs runs it. */
export function coldStartScenarios(quick) {
  return [{ name: 'cold-start: a ten-server config, without and with a catalogue', run: () => coldStart(quick ? 2 : 5), table: coldStartTable }];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rounds = Number(process.argv[2] ?? 5);
  process.stdout.write(coldStartTable('cold start of a ten-server config', await coldStart(rounds)) + '\n');
}
