// One driver against the minimal server, one phase, for profiling:
//   npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs rxmcp inflight [legacy]
// drivers: raw, official, rxmcp; phases: sequential, inflight (64 lanes), list
// (forced to the wire). Prints time and client CPU per call. Alone in its
// process unless BENCH_CROWD=1. Numbers from one run are noisy: the benchmark
// (bench/run.mjs) is what compares.
import { drivers } from './drivers.mjs';

const [name = 'rxmcp', phase = 'sequential', era] = process.argv.slice(2);
const driver = drivers.find((d) => d.name === name);
const target = {
  kind: 'stdio',
  command: process.execPath,
  args: [new URL('./servers/minimal-server.mjs', import.meta.url).pathname],
  env: era === 'legacy' ? { BENCH_LEGACY: '1' } : {},
};
const client = await driver.open(target);
// With BENCH_CROWD=1 the other drivers are open and warmed up beside it, as in the benchmark.
const others = [];
if (process.env.BENCH_CROWD) {
  for (const other of drivers.filter((d) => d !== driver)) {
    const opened = await other.open(target);
    for (let i = 0; i < 4000; i++) await opened.call('w');
    others.push(opened);
  }
}
const count = phase === 'list' ? 5000 : 40000;
const run = async (n) => {
  if (phase === 'sequential') for (let i = 0; i < n; i++) await client.call(`s${i}`);
  if (phase === 'list') for (let i = 0; i < n; i++) await client.list(true);
  if (phase === 'inflight') {
    let issued = 0;
    const lane = async () => {
      while (issued < n) {
        issued++;
        await client.call(`c${issued}`);
      }
    };
    await Promise.all(Array.from({ length: 64 }, lane));
  }
};
await run(count / 4);
const cpu = process.cpuUsage();
const start = performance.now();
await run(count);
const used = process.cpuUsage(cpu);
console.log(`${name} ${phase}: ${((1000 * (performance.now() - start)) / count).toFixed(1)} µs/call, CPU ${((used.user + used.system) / count).toFixed(1)} µs/call`);
await client.close();
for (const other of others) await other.close();
