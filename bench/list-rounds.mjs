// Client CPU per forced `listTools` round by round, in one driver process
// shaped as bench/run.mjs shapes its workers (warm-up, then per round calls
// one at a time, calls 64 in flight, forced lists), for seeing how much of a
// round is the engine still compiling the list path:
//   npm run build && node --expose-gc bench/list-rounds.mjs rxmcp sdk [rounds] [scale] [warm-up lists]
// drivers: raw, official, rxmcp; servers: sdk, minimal. Sizes are run.mjs's
// full ones times `scale` (SDK stdio: 0.5); the warm-up lists default to
// run.mjs's. Prints µs of client CPU per forced list, one number per round.
import { drivers } from './drivers.mjs';
import { inflight, listing, sequential } from './phases.mjs';

const [name = 'rxmcp', server = 'sdk', rounds = '4', scaleArg = '0.5', warmLists] = process.argv.slice(2);
const scale = Number(scaleArg);
const n = (size) => Math.max(20, Math.round(size * scale));
const driver = drivers.find((d) => d.name === name);
const script = new URL(`./servers/${server}-server.mjs`, import.meta.url).pathname;
const client = await driver.open({ kind: 'stdio', command: process.execPath, args: [script], env: {} });
for (let i = 0; i < n(4000); i++) await client.call(`w${i}`);
await inflight(client, n(4000));
for (let i = 0, lists = warmLists === undefined ? n(6000) : Number(warmLists); i < lists; i++) await client.list(true);
await new Promise((resolve) => setTimeout(resolve, 250));
const perList = [];
for (let round = 0; round < Number(rounds); round++) {
  await sequential(client, n(2500));
  await inflight(client, n(5000));
  const { cpu } = await listing(client, n(1000), true);
  perList.push(((cpu * 1000) / n(1000)).toFixed(1));
}
console.log(`${name} ${server}: ${perList.join(' ')}`);
await client.close();
