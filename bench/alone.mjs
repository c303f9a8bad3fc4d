// Sequential calls against the minimal server, one client per process run:
// raw, then rxmcp, each alone (no official client sharing the heap).
//   npm run build && node bench/alone.mjs
import { drivers } from './drivers.mjs';

const target = { kind: 'stdio', command: process.execPath, args: [new URL('./servers/minimal-server.mjs', import.meta.url).pathname], env: {} };
for (const driver of drivers.filter((d) => d.name !== 'official')) {
  const client = await driver.open(target);
  for (let i = 0; i < 5000; i++) await client.call('warm');
  const latencies = [];
  for (let i = 0; i < 20000; i++) {
    const start = performance.now();
    await client.call('x');
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, value) => sum + value, 0) / latencies.length;
  const at = (p) => (latencies[Math.floor(p * latencies.length)] * 1000).toFixed(1);
  console.log(`${driver.name}: mean ${(mean * 1000).toFixed(1)} µs, p50 ${at(0.5)} µs, p99 ${at(0.99)} µs`);
  await client.close();
}
