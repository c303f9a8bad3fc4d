// One contestant in a process of its own, driven by bench/run.mjs: it reads
// one command per line on stdin and answers each with one line of JSON. Apart,
// no client's heap, garbage or optimised code is charged to another.
//   node --expose-gc bench/worker.mjs <driver> <target as JSON>
import { createInterface } from 'node:readline';
import { drivers } from './drivers.mjs';
import { coldStart, heapGrowth, inflight, listing, results, sequential } from './phases.mjs';

const [name, targetJson] = process.argv.slice(2);
const driver = drivers.find((candidate) => candidate.name === name);
if (!driver) throw new Error(`no driver named ${name}`);
const target = JSON.parse(targetJson);
let client;

// A warning repeated on every call (the official client over 2025-11-25
// HTTP makes Node warn of abort listeners piling up on one signal, once per
// request past 1,500) is shown once, named after the client, not thousands of times.
const warned = new Set();
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warned.has(warning.name)) return;
  warned.add(warning.name);
  process.stderr.write(`${name}: ${warning.name}: ${warning.message} (repeats not shown)\n`);
});

const commands = {
  open: async () => {
    client = await driver.open(target);
    return {};
  },
  // Every timed phase's path, then a pause: V8 optimises on background
  // threads, and a compile still running would be charged to the first phase.
  warmup: async ({ calls, lists, wide }) => {
    for (let i = 0; i < calls; i++) await client.call(`w${i}`);
    await inflight(client, calls);
    if (wide) await inflight(client, wide, 1024);
    for (let i = 0; i < lists; i++) await client.list(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    return {};
  },
  sequential: ({ count }) => sequential(client, count),
  inflight: ({ count, width }) => inflight(client, count, width),
  list: ({ count, forced }) => listing(client, count, forced),
  blob: ({ count, bytes }) => results(client, count, bytes),
  // A quarter of a second for V8's background compiler after an untimed run.
  settle: async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return {};
  },
  cold: () => coldStart(driver, target),
  heap: ({ count }) => heapGrowth(driver, target, count),
  close: async () => {
    await client?.close();
    client = undefined;
    return {};
  },
};

for await (const line of createInterface({ input: process.stdin })) {
  const { op, ...args } = JSON.parse(line);
  process.stdout.write(JSON.stringify(await commands[op](args)) + '\n');
}
await client?.close();
