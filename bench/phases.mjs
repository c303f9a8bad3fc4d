// The timed phases, each run by one client in its own process (bench/worker.mjs,
// bench/profile.mjs). Times in ms; CPU is this process's, user + system, in ms.
const gc = globalThis.gc ?? (() => undefined);

const cpuMs = (used) => (used.user + used.system) / 1000;

/** `count` calls one after another, each one's latency kept. */
export async function sequential(client, count) {
  const latencies = new Array(count);
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await client.call(`s${i}`);
    latencies[i] = performance.now() - t;
  }
  const elapsed = performance.now() - start;
  return { elapsed, cpu: cpuMs(process.cpuUsage(cpu)), latencies };
}

/** `total` calls, `width` of them in flight at any time. */
export async function inflight(client, total, width = 64) {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  let issued = 0;
  const lane = async () => {
    while (issued < total) {
      issued++;
      await client.call(`c${issued}`);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)) };
}

/** `count` catalogue reads, from the cache where the client keeps one, or forced to the wire. */
export async function listing(client, count, forced) {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.list(forced);
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)) };
}

/** A fresh client's time from nothing to its first answer. */
export async function coldStart(driver, target) {
  const start = performance.now();
  const client = await driver.open(target);
  await client.call('cold');
  const elapsed = performance.now() - start;
  await client.close();
  return { elapsed };
}

/** How much the heap grew over `count` calls in flight, after a full collection either side (KiB). */
export async function heapGrowth(driver, target, count) {
  const client = await driver.open(target);
  await client.call('warm');
  gc();
  const before = process.memoryUsage().heapUsed;
  await inflight(client, count);
  gc();
  const grown = (process.memoryUsage().heapUsed - before) / 1024;
  await client.close();
  return { grownKb: grown };
}
