// One driver against the minimal server, one phase, for profiling:
//   npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs rxmcp inflight [legacy | sdk]
// drivers: raw, official, rxmcp; phases: sequential, inflight (64 lanes), list
// (forced to the wire); the minimal server in either era, or the SDK server.
// Prints time and client CPU per call. Numbers from one run are noisy: the
// benchmark (bench/run.mjs) is what compares.
import { drivers } from './drivers.mjs';
import { inflight, listing, sequential } from './phases.mjs';

const [name = 'rxmcp', phase = 'sequential', server] = process.argv.slice(2);
const driver = drivers.find((d) => d.name === name);
const target = {
  kind: 'stdio',
  command: process.execPath,
  args: [new URL(server === 'sdk' ? './servers/sdk-server.mjs' : './servers/minimal-server.mjs', import.meta.url).pathname],
  env: server === 'legacy' ? { BENCH_LEGACY: '1' } : {},
};
const client = await driver.open(target);
const count = phase === 'list' ? 5000 : 40000;
const run = (n) => (phase === 'sequential' ? sequential(client, n) : phase === 'list' ? listing(client, n, true) : inflight(client, n));
await run(count / 4);
const { elapsed, cpu } = await run(count);
console.log(`${name} ${phase}: ${((1000 * elapsed) / count).toFixed(1)} µs/call, CPU ${((1000 * cpu) / count).toFixed(1)} µs/call`);
await client.close();
