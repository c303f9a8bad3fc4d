// One driver against one server, one phase, for profiling:
//   npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs rxmcp inflight [legacy | sdk | sse]
// drivers: raw, official, rxmcp; phases: sequential, inflight (64 lanes),
// wide (1,024 lanes), list (forced to the wire), blob:N (one call at a time,
// each answered with N characters of text); the minimal server in either
// era, the SDK server over stdio, or the SDK v1 server over HTTP+SSE
// (bench/servers/sse-server.mjs).
// Prints time and client CPU per call. Numbers from one run are noisy: the
// benchmark (bench/run.mjs) is what compares.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { drivers } from './drivers.mjs';
import { inflight, listing, results, sequential } from './phases.mjs';

const [name = 'rxmcp', phase = 'sequential', server] = process.argv.slice(2);
const driver = drivers.find((d) => d.name === name);
const script = (file) => new URL(`./servers/${file}`, import.meta.url).pathname;

async function startSseServer() {
  const child = spawn(process.execPath, [script('sse-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { target: { kind: 'sse', url: `http://127.0.0.1:${JSON.parse(line).port}/sse` }, stop: () => child.stdin.end() };
}

const sse = server === 'sse' ? await startSseServer() : undefined;
const target = sse?.target ?? {
  kind: 'stdio',
  command: process.execPath,
  args: [script(server === 'sdk' ? 'sdk-server.mjs' : 'minimal-server.mjs')],
  env: server === 'legacy' ? { BENCH_LEGACY: '1' } : {},
};
const client = await driver.open(target);
const blobBytes = phase.startsWith('blob:') ? Number(phase.slice(5)) : undefined;
const count = (blobBytes ? Math.max(20, Math.round(2 ** 28 / (blobBytes + 1024))) : phase === 'list' ? 5000 : 40000) / (sse ? 8 : 1);
const run = (n) =>
  blobBytes !== undefined
    ? results(client, n, blobBytes)
    : phase === 'sequential'
      ? sequential(client, n)
      : phase === 'list'
        ? listing(client, n, true)
        : inflight(client, n, phase === 'wide' ? 1024 : 64);
await run(count / 4);
const { elapsed, cpu } = await run(count);
console.log(`${name} ${phase}: ${((1000 * elapsed) / count).toFixed(1)} µs/call, CPU ${((1000 * cpu) / count).toFixed(1)} µs/call`);
await client.close();
sse?.stop();
