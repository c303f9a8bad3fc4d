// The timed phases, each run by one client in its own process (bench/worker.mjs,
// bench/profile.mjs). Times in ms; CPU is this process's, user + system, in ms.
//
// No timed phase forces a garbage collection first. A forced full collection
// throws away optimised code whose maps died with the last phase's objects
// ("weak objects" in --trace-deopt) and shrinks the young generation, so the
// phase after it would time V8 recompiling and re-growing, not the client: on
// the minimal server it raised raw's sequential CPU per call from ~50 µs to
// ~80 and rxmcp's from ~50 to ~115. A user's process is never collected that
// way between calls. Only the heap measure forces one, and times nothing.
const gc = globalThis.gc ?? (() => undefined);

const cpuMs = (used) => (used.user + used.system) / 1000;

/** `count` calls one after another, each one's latency kept. */
export async function sequential(client, count) {
  const latencies = new Array(count);
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
  const latencies = new Array(total);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let issued = 0;
  const lane = async () => {
    while (issued < total) {
      const i = issued++;
      const t = performance.now();
      await client.call(`c${i}`);
      latencies[i] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)), latencies };
}

/** `count` catalogue reads, from the cache where the client keeps one, or forced to the wire. */
export async function listing(client, count, forced) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.list(forced);
  return { elapsed: performance.now() - start, cpu: cpuMs(process.cpuUsage(cpu)) };
}

/** `count` calls of the blob tool, one after another, each answering `bytes` characters. */
export async function results(client, count, bytes) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.blob(bytes);
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

/**
 * How much the heap grew over `count` calls in flight (KiB), the heap settled
 * either side. A first run of as many calls goes untimed and unmeasured, so
 * that what one-time growth there is (code, feedback, caches) comes before.
 */
export async function heapGrowth(driver, target, count) {
  const client = await driver.open(target);
  await inflight(client, count);
  const before = await settledHeap();
  await inflight(client, count);
  const grown = ((await settledHeap()) - before) / 1024;
  await client.close();
  return { grownKb: grown };
}

// The heap after full collections, repeated (a turn of the event loop
// between) until it stops shrinking: some garbage is freed only by the
// collection after the one that ran its finalizers or cleared its weak
// references.
async function settledHeap() {
  let used = Infinity;
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    const now = process.memoryUsage().heapUsed;
    if (now >= used) break;
    used = now;
  }
  return used;
}
