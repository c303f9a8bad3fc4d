// The gateway's cost: rxmcp calling the official SDK server's echo tool one
// call at a time, directly and through `rxmcp serve` in front of the same
// server (an allow-all policy, no prefix), over stdio and over HTTP. Run by
// bench/run.mjs as its "gateway" scenarios (`npm run bench -- --only gateway`).
//
// Each side is an rxmcp client in a process of its own (bench/worker.mjs);
// the two take turns round by round, in alternating order, so drift on the
// machine lands on both. Measured: latency per call (p50, p99 over every
// call), the client's CPU per call, and the gateway process's own CPU per
// call (from /proc, so Linux only; elsewhere that row is left out).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const node = process.execPath;
const cli = join(here, '../bin/rxmcp.mjs');
const sdk = join(here, 'servers/sdk-server.mjs');
const ALLOW_ALL = { rules: [{ tool: '*', decision: 'allow' }] };
// Node options for the gateway process alone, for profiling it under the bench's load:
//   BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node --expose-gc bench/run.mjs --only gateway
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);

const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const median = (values) => percentile(values, 50);

function startWorker(target) {
  const child = spawn(node, ['--expose-gc', join(here, 'worker.mjs'), 'rxmcp', JSON.stringify(target)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    pid: child.pid,
    async ask(op, args = {}) {
      child.stdin.write(JSON.stringify({ op, ...args }) + '\n');
      const { value, done } = await answers.next();
      if (done) throw new Error(`the worker ended during ${op}`);
      return JSON.parse(value);
    },
    async stop() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

// CPU time (ms, user + system) a process has used so far, from /proc; undefined where there is none.
// /proc counts in clock ticks, which Linux reports to user space at 100 a second.
const TICKS_PER_SECOND = 100;
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

// The stdio gateway is the worker's child: found by the config path on its command line.
function pidWithArgument(argument) {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument)) return Number(entry);
      } catch {
        // The process ended while the list was read.
      }
    }
  } catch {
    // No /proc here.
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startSdkHttp() {
  const child = spawn(node, [sdk, '--http']);
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SDK server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { url: `http://127.0.0.1:${JSON.parse(line).port}/mcp`, stop: () => child.stdin.end() };
}

// The gateway always wants a bearer token over HTTP; this one is the bench's own.
async function startHttpGateway(config, policy) {
  const port = await freePort();
  const token = randomBytes(32).toString('base64url');
  const child = spawn(node, [...GATEWAY_NODE_ARGS, cli, 'serve', '--config', config, '--policy', policy, '--http', String(port), '--no-prefix', '--token-env', 'RXMCP_BENCH_TOKEN'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, RXMCP_BENCH_TOKEN: token },
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`rxmcp serve --http exited with ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) }).then((response) => response.body?.cancel());
      return { url, headers: { Authorization: `Bearer ${token}` }, pid: child.pid, stop: () => child.kill() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  child.kill();
  throw new Error(`rxmcp serve --http did not answer on ${url}`);
}

/**
 * One gateway scenario: `transport` is 'stdio' or 'http'. `sizes` gives the
 * rounds, the sequential calls per round and the warm-up calls.
 */
export async function gatewayScenario(transport, sizes) {
  const workDir = mkdtempSync(join(tmpdir(), 'rxmcp-bench-gateway-'));
  const config = join(workDir, 'servers.json');
  const policy = join(workDir, 'policy.json');
  writeFileSync(policy, JSON.stringify(ALLOW_ALL));
  const stops = [];
  try {
    let direct;
    let through;
    let gatewayPid;
    if (transport === 'stdio') {
      writeFileSync(config, JSON.stringify({ mcpServers: { sdk: { command: node, args: [sdk] } } }));
      direct = { kind: 'stdio', command: node, args: [sdk], env: {} };
      through = { kind: 'stdio', command: node, args: [...GATEWAY_NODE_ARGS, cli, 'serve', '--config', config, '--policy', policy, '--no-prefix'], env: {} };
    } else {
      const server = await startSdkHttp();
      stops.push(server.stop);
      writeFileSync(config, JSON.stringify({ mcpServers: { sdk: { type: 'http', url: server.url } } }));
      const gateway = await startHttpGateway(config, policy);
      stops.push(gateway.stop);
      gatewayPid = gateway.pid;
      direct = { kind: 'http', url: server.url };
      through = { kind: 'http', url: gateway.url, headers: gateway.headers };
    }
    const sides = [
      { name: 'direct', target: direct, latencies: [], cpu: [], gatewayCpu: [] },
      { name: 'through rxmcp serve', target: through, latencies: [], cpu: [], gatewayCpu: [] },
    ];
    const workers = sides.map((side) => startWorker(side.target));
    stops.push(() => Promise.all(workers.map((worker) => worker.stop())));
    for (const worker of workers) {
      await worker.ask('open');
      await worker.ask('warmup', { calls: sizes.warmup, lists: 20 });
    }
    gatewayPid ??= pidWithArgument(config);
    for (let round = 0; round < sizes.rounds; round++) {
      const order = round % 2 ? [1, 0] : [0, 1];
      for (const i of order) {
        const before = i === 1 && gatewayPid !== undefined ? cpuOf(gatewayPid) : undefined;
        const run = await workers[i].ask('sequential', { count: sizes.sequential });
        const after = before === undefined ? undefined : cpuOf(gatewayPid);
        sides[i].latencies.push(...run.latencies);
        sides[i].cpu.push((run.cpu * 1000) / sizes.sequential);
        if (after !== undefined) sides[i].gatewayCpu.push(((after - before) * 1000) / sizes.sequential);
      }
    }
    return {
      transport,
      sizes,
      sides: sides.map((side) => ({
        name: side.name,
        p50Us: 1000 * percentile(side.latencies, 50),
        p99Us: 1000 * percentile(side.latencies, 99),
        cpuUs: median(side.cpu),
        gatewayCpuUs: side.gatewayCpu.length > 0 ? median(side.gatewayCpu) : undefined,
      })),
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const fmt = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** The scenario's results as a markdown section. */
export function gatewayTable(name, { sizes, sides }) {
  const [direct, through] = sides;
  const row = (label, key) => {
    const cells = sides.map((side) => (side[key] === undefined ? '–' : fmt(side[key])));
    const added = direct[key] === undefined || through[key] === undefined ? '–' : fmt(through[key] - direct[key]);
    return `| ${label} | ${cells.join(' | ')} | ${added} |`;
  };
  const lines = [
    `### ${name}`,
    '',
    `${sizes.rounds} rounds of ${sizes.sequential} sequential calls per side, the sides taking turns. ` +
      'Latency percentiles over every call; CPU per call: the median over rounds. µs.',
    '',
    `| | ${sides.map((side) => side.name).join(' | ')} | added by the gateway |`,
    '|---|---|---|---|',
    row('latency p50', 'p50Us'),
    row('latency p99', 'p99Us'),
    row('client CPU per call', 'cpuUs'),
  ];
  if (through.gatewayCpuUs !== undefined) {
    lines.push(`| gateway process CPU per call | – | ${fmt(through.gatewayCpuUs)} | ${fmt(through.gatewayCpuUs)} |`);
  }
  return lines.join('\n');
}
