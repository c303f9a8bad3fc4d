// The fleet's shared state over Redis against the in-process one: a lease
// acquired and released (on the table, and through the Leases layer as an
// agent calls it), a strict mutating call's check, and a Policy decision a
// grant settles. Starts its own redis-server (Debian's redis-server package)
// on a free port of 127.0.0.1, with AOF on and fsync every second.
//
//   npm run bench:redis            (npm run build && node --expose-gc bench/redis.mjs)
//   npm run bench:redis -- --quick (fewer rounds, for a smoke run)
//
// Writes bench/results/redis.md and redis.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Grants, LeaseTable, Leases, Policy, Toolkit } from 'rxmcp';
import { RedisGrants, RedisLeaseTable } from 'rxmcp/redis';
import { createClient } from 'redis';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const gc = globalThis.gc ?? (() => undefined);
if (!globalThis.gc) console.warn('run with --expose-gc (npm run bench:redis does) for stable numbers');
const sizes = { warmup: quick ? 300 : 2000, rounds: quick ? 2 : 5, ops: quick ? 500 : 3000, crowd: 1000, inflight: 64 };

if (spawnSync('redis-server', ['--version']).error) {
  console.error('redis-server is not installed: apt-get install redis-server');
  process.exit(1);
}

const call = (id, name, args) => ({ id, function: { name, arguments: args } });
const files = () =>
  new Toolkit({ name: 'fs' }).tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, () => ({ content: [{ type: 'text', text: 'ok' }] }));

async function startRedis() {
  const port = await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec']);
  await new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', () => reject(new Error(`redis-server exited: ${output}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.stdout.resume();
  const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1];
  return {
    url: `redis://127.0.0.1:${port}`,
    version,
    stop: async () => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// One timed run: `op(i)` awaited `count` times in a row; latencies in ms.
async function sequential(op, count) {
  const latencies = new Float64Array(count);
  gc();
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await op(i);
    latencies[i] = performance.now() - start;
  }
  return latencies;
}

// `width` lanes doing `op` until `total` ops are done; µs per op.
async function inflight(op, total, width) {
  gc();
  let issued = 0;
  const start = performance.now();
  const lane = async (lane) => {
    while (issued < total) await op(issued++, lane);
  };
  await Promise.all(Array.from({ length: width }, (_, i) => lane(i)));
  return ((performance.now() - start) * 1000) / total;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

// Each scenario: one `setup(kind)` per store kind, answering { op, close };
// the kinds alternate round by round, so drift lands on both alike.
async function measure(name, setup, { width } = {}) {
  const rows = [];
  const stores = [];
  for (const kind of ['in-process', 'redis']) stores.push({ kind, ...(await setup(kind)), runs: [], latencies: [] });
  for (const store of stores) for (let i = 0; i < sizes.warmup; i++) await store.op(i, 0);
  for (let round = 0; round < sizes.rounds; round++) {
    for (const store of round % 2 ? [...stores].reverse() : stores) {
      if (width) {
        store.runs.push(await inflight(store.op, sizes.ops, width));
      } else {
        const latencies = await sequential(store.op, sizes.ops);
        store.runs.push((latencies.reduce((sum, value) => sum + value, 0) * 1000) / latencies.length);
        store.latencies.push(...latencies);
      }
    }
  }
  for (const store of stores) {
    await store.close();
    rows.push({
      store: store.kind,
      meanUs: median(store.runs),
      p50Us: store.latencies.length ? 1000 * percentile(store.latencies, 50) : undefined,
      p99Us: store.latencies.length ? 1000 * percentile(store.latencies, 99) : undefined,
    });
  }
  process.stdout.write(`${name}: ${rows.map((row) => `${row.store} ${row.meanUs.toFixed(1)} µs`).join(', ')}\n`);
  return { name, rows };
}

const redis = await startRedis();
const started = Date.now();
const tableOf = (kind, namespace) => (kind === 'redis' ? new RedisLeaseTable({ url: redis.url, namespace }) : new LeaseTable());
const closeOf = (store) => () => store.close?.() ?? Promise.resolve();
const results = [];
let floor;
try {
  // The floor: one bare round trip through node-redis, which no store operation can beat.
  const client = createClient({ url: redis.url });
  await client.connect();
  for (let i = 0; i < sizes.warmup; i++) await client.ping();
  const pings = [];
  for (let round = 0; round < sizes.rounds; round++) pings.push(...(await sequential(() => client.ping(), sizes.ops)));
  floor = { meanUs: (1000 * pings.reduce((sum, value) => sum + value, 0)) / pings.length, p50Us: 1000 * percentile(pings, 50), p99Us: 1000 * percentile(pings, 99) };
  await client.close();
  process.stdout.write(`PING: ${floor.meanUs.toFixed(1)} µs\n`);

  results.push(
    await measure('acquire + release, on the table', async (kind) => {
      const table = tableOf(kind, 'table');
      return {
        op: async (i) => {
          await table.acquire('agent', [`/w/${i % 50}`]);
          await table.release('agent', [`/w/${i % 50}`]);
        },
        close: closeOf(table),
      };
    }),
  );

  results.push(
    await measure(`acquire + release, on a table holding ${sizes.crowd} other leases`, async (kind) => {
      const table = tableOf(kind, 'crowd');
      for (let i = 0; i < sizes.crowd; i++) await table.acquire(`other-${i % 10}`, [`/crowd/${i}`]);
      return {
        op: async (i) => {
          await table.acquire('agent', [`/w/${i % 50}`]);
          await table.release('agent', [`/w/${i % 50}`]);
        },
        close: async () => {
          await table.releaseAll();
          await closeOf(table)();
        },
      };
    }),
  );

  results.push(
    await measure('lock_acquire + lock_release through Leases', async (kind) => {
      const table = tableOf(kind, 'layer');
      const leases = new Leases({ inner: files(), table, agentId: 'agent', roots: { fs: '/w', lock: '/w' } });
      return {
        op: async (i) => {
          await leases.executeToolCalls([call(`a${i}`, 'lock_acquire', { paths: [`f${i % 50}`], wait: 0 })]);
          await leases.executeToolCalls([call(`r${i}`, 'lock_release', { paths: [`f${i % 50}`] })]);
        },
        close: closeOf(table),
      };
    }),
  );

  results.push(
    await measure('a strict mutating call, checked and run (conflict + covers)', async (kind) => {
      const table = tableOf(kind, 'strict');
      const leases = new Leases({ inner: files(), table, agentId: 'agent', roots: { fs: '/w', lock: '/w' }, concurrent: () => 2 });
      await table.acquire('agent', ['/w']);
      return { op: (i) => leases.executeToolCalls([call(`w${i}`, 'fs_write', { path: `/w/f${i % 50}`, content: '' })]), close: closeOf(table) };
    }),
  );

  results.push(
    await measure(
      `acquire + release, ${sizes.inflight} agents in flight, distinct paths`,
      async (kind) => {
        const table = tableOf(kind, 'inflight');
        return {
          op: async (_, lane) => {
            await table.acquire(`agent-${lane}`, [`/w/${lane}`]);
            await table.release(`agent-${lane}`, [`/w/${lane}`]);
          },
          close: closeOf(table),
        };
      },
      { width: sizes.inflight },
    ),
  );

  results.push(
    await measure('a Policy decision a grant settles (rules say ask)', async (kind) => {
      const book = kind === 'redis' ? new RedisGrants({ url: redis.url, namespace: 'grants' }) : new Grants();
      await book.add([{ tool: 'fs_write', decision: 'allow', under: '/w' }]);
      const policy = new Policy({ provider: files(), grantsStore: book, onAsk: () => ({ action: 'deny-once' }) });
      return { op: (i) => policy.executeToolCalls([call(`p${i}`, 'fs_write', { path: `/w/f${i % 50}`, content: '' })]), close: closeOf(book) };
    }),
  );
} finally {
  await redis.stop();
}

const seconds = ((Date.now() - started) / 1000).toFixed(0);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, Redis ${redis.version}`;
const fmt = (value) => (value === undefined ? '' : value.toFixed(1));
const lines = [
  '# Fleet state over Redis: benchmark results',
  '',
  `\`npm run bench:redis${quick ? ' -- --quick' : ''}\` on ${machine}, ${new Date().toISOString()}, ${seconds} s.`,
  'Redis on 127.0.0.1 with AOF (fsync every second). Medians of the per-round means over alternating rounds; p50 and p99 over every sequential op.',
  '',
  '| operation | in-process µs | p50 | p99 | Redis µs | p50 | p99 | Redis / in-process |',
  '|---|---|---|---|---|---|---|---|',
  `| floor: one PING round trip (node-redis) | — | — | — | ${fmt(floor.meanUs)} | ${fmt(floor.p50Us)} | ${fmt(floor.p99Us)} | |`,
  ...results.map(({ name, rows: [local, remote] }) =>
    `| ${name} | ${fmt(local.meanUs)} | ${fmt(local.p50Us)} | ${fmt(local.p99Us)} | ${fmt(remote.meanUs)} | ${fmt(remote.p50Us)} | ${fmt(remote.p99Us)} | ${(remote.meanUs / local.meanUs).toFixed(0)}x |`,
  ),
  '',
];
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'redis.md'), lines.join('\n'));
writeFileSync(join(here, 'results', 'redis.json'), JSON.stringify({ machine, quick, seconds: Number(seconds), floor, results }, null, 2) + '\n');
process.stdout.write(`\n${lines.join('\n')}\ndone in ${seconds} s; written to bench/results/redis.md\n`);
