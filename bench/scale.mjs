// What grows with scale, and what the newer layers cost: run by bench/run.mjs
// as its "scale" scenarios (`npm run bench -- --only scale`).
//
//   registry  time from nothing to the first full catalogue of 1, 8 and 32
//             stdio servers (the minimal server): rxmcp's Registry.fromConfig
//             against N official Clients started with Promise.all and N raw
//             floors (bench/drivers.mjs) started the same way.
//   idle      what an idle connection keeps, for 1, 100 and 1,000 connections
//             from one process to one SDK HTTP server (both eras), each having
//             made one call: heap and RSS after forced collections, active
//             handles by kind, timers, and listeners still attached.
//   checks    on server-everything's catalogue (stdio): toolsForLlm with and
//             without portable names, the name mapping alone, and a call to
//             its tool with an outputSchema with and without the check.
//
// Every measurement runs in a fresh child process (this file, with a mode as
// its first argument), so no client's heap, handles or warm code is charged
// to another, and the parent's own state is never measured.
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const node = process.execPath;
const minimal = join(here, 'servers/minimal-server.mjs');
const sdk = join(here, 'servers/sdk-server.mjs');
const everything = join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MINIMAL_TOOLS = 20;
// /proc counts CPU in clock ticks, which Linux reports to user space at 100 a second.
const TICKS_PER_SECOND = 100;

/**
 * One of rxmcp's internal modules, bundled from src/ for this bench alone
 * (dist/ holds the public entries' bundles, not a file per module), into
 * test-artifacts/, where its packages resolve from node_modules.
 */
async function internalModule(source) {
  const { build } = await import('esbuild');
  const outfile = join(here, '..', 'test-artifacts', 'bench-internal', source.replace(/\.ts$/, '.mjs'));
  await build({ entryPoints: [join(here, '..', 'src', source)], outfile, bundle: true, format: 'esm', platform: 'node', packages: 'external', target: 'es2022', logLevel: 'warning' });
  return import(pathToFileURL(outfile).href);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const cpuMs = (used) => (used.user + used.system) / 1000;
const fmt = (value) => (value === undefined ? '–' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One measurement in a fresh process: this file in child mode, its answer
// the last line it prints.
function child(args, { gc = false } = {}) {
  return new Promise((resolve, reject) => {
    const proc = spawn(node, [...(gc ? ['--expose-gc'] : []), fileURLToPath(import.meta.url), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.once('error', reject);
    proc.once('exit', (code) => {
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) reject(new Error(`bench/scale.mjs ${args[0]} exited with ${code}`));
      else resolve(JSON.parse(last));
    });
  });
}

// A server on 127.0.0.1 that prints {"port": N} once listening and stops when its stdin ends.
async function startSdkHttp(legacy) {
  const proc = spawn(node, [sdk, '--http', ...(legacy ? ['--legacy'] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`the SDK HTTP server exited with ${code}`)));
    createInterface({ input: proc.stdout }).once('line', resolve);
  });
  return { url: `http://127.0.0.1:${JSON.parse(line).port}/mcp`, stop: () => proc.stdin.end() };
}

// ---------------------------------------------------------------- registry

/** `sizes`: { counts, rounds }. Each round runs every driver once per count, in rotating order. */
export async function registryScenario(sizes) {
  const drivers = ['raw', 'official', 'rxmcp'];
  const samples = new Map(sizes.counts.map((count) => [count, Object.fromEntries(drivers.map((d) => [d, { ms: [], cpu: [] }]))]));
  for (let round = 0; round < sizes.rounds; round++) {
    for (const count of sizes.counts) {
      const shift = round % drivers.length;
      const order = [...drivers.slice(shift), ...drivers.slice(0, shift)];
      for (const driver of round % 2 ? order.reverse() : order) {
        const { ms, cpu } = await child(['registry', driver, String(count)]);
        samples.get(count)[driver].ms.push(ms);
        samples.get(count)[driver].cpu.push(cpu);
      }
    }
  }
  return {
    sizes,
    points: sizes.counts.map((count) => {
      const point = { x: count };
      for (const driver of drivers) {
        point[driver] = median(samples.get(count)[driver].ms);
        point[`${driver}Cpu`] = median(samples.get(count)[driver].cpu);
      }
      return point;
    }),
  };
}

// The floor for this scenario: one server spawned as rxmcp spawns it (in a
// session of its own: with the scheduler's autogroups, as on most Linux
// desktops, that alone changes how fast N servers start on a busy machine),
// lines framed in bytes, server/discover then tools/list.
async function rawServer(target) {
  const server = spawn(target.command, target.args, { stdio: 'pipe', detached: true });
  const pending = new Map();
  let next = 1;
  let held = Buffer.alloc(0);
  server.stdout.on('data', (chunk) => {
    held = held.length ? Buffer.concat([held, chunk]) : chunk;
    let end;
    while ((end = held.indexOf(10)) !== -1) {
      const message = JSON.parse(held.toString('utf8', 0, end));
      held = held.subarray(end + 1);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  const request = (method) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      server.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}\n`);
    });
  await request('server/discover');
  return {
    list: async () => (await request('tools/list')).result.tools.length,
    close: async () => {
      server.stdin.end();
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

async function registryChild(driver, count) {
  const target = { kind: 'stdio', command: node, args: [minimal], env: {} };
  const { drivers } = await import('./drivers.mjs');
  const { Registry } = await import('rxmcp');
  const cpu = process.cpuUsage();
  const start = performance.now();
  let close;
  let tools;
  if (driver === 'rxmcp') {
    const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, n) => [`s${n}`, { command: node, args: [minimal] }]));
    const registry = Registry.fromConfig({ mcpServers }, { onWarn: (message) => process.stderr.write(`registry: ${message}\n`) });
    tools = (await registry.toolsForLlm()).length;
    close = () => registry.close();
  } else {
    const open = driver === 'raw' ? rawServer : drivers.find((candidate) => candidate.name === driver).open;
    const clients = await Promise.all(
      Array.from({ length: count }, async () => {
        const client = await open(target);
        return { client, tools: await client.list(false) };
      }),
    );
    tools = clients.reduce((sum, { tools: listed }) => sum + listed, 0);
    close = () => Promise.all(clients.map(({ client }) => client.close()));
  }
  const ms = performance.now() - start;
  const used = cpuMs(process.cpuUsage(cpu));
  await close();
  // The servers' CPU: they have all exited and been waited for by now.
  const stat = readFileSync('/proc/self/stat', 'utf8').slice(readFileSync('/proc/self/stat', 'utf8').lastIndexOf(')') + 2).split(' ');
  const serversCpu = ((Number(stat[13]) + Number(stat[14])) * 1000) / TICKS_PER_SECOND;
  if (tools !== count * MINIMAL_TOOLS) throw new Error(`${driver} listed ${tools} tools of ${count} servers, not ${count * MINIMAL_TOOLS}`);
  return { ms, cpu: used, serversCpu };
}

/** The registry scenario's results as a markdown section. */
export function registryTable(name, { sizes, points }) {
  const drivers = ['raw', 'official', 'rxmcp'];
  const lines = [
    `### ${name}`,
    '',
    `From nothing to every server's tools listed, ${sizes.rounds} rounds (a fresh process each, drivers in rotating order), ` +
      'median ms; client CPU ms in brackets (the servers\' own CPU is not counted). ' +
      'rxmcp: `Registry.fromConfig` then `toolsForLlm()`; official: N `Client`s connected and listed under `Promise.all`; raw: N hand-written floors the same way.',
    '',
    `| stdio servers | ${drivers.join(' | ')} | rxmcp ÷ raw | official ÷ raw |`,
    '|---|---|---|---|---|---|',
  ];
  for (const point of points) {
    const cells = drivers.map((driver) => `${fmt(point[driver])} (${fmt(point[`${driver}Cpu`])})`);
    lines.push(`| ${point.x} | ${cells.join(' | ')} | ${(point.rxmcp / point.raw).toFixed(2)}x | ${(point.official / point.raw).toFixed(2)}x |`);
  }
  return lines.join('\n');
}

/** The registry scenario as a curve for latest.json. */
export function registryCurve({ points }) {
  return { name: 'time to the first full catalogue against server count', x: 'stdio servers', unit: 'ms', points };
}

// -------------------------------------------------------------------- idle

/**
 * `sizes`: { counts: { [era]: counts }, handlesUpTo }. One fresh process per
 * driver, count, era and measure: memory at every count; handles and
 * listeners, which come in whole numbers per connection, only up to
 * `handlesUpTo` connections (the largest counts cost the most to run).
 */
export async function idleScenario(sizes) {
  const rows = [];
  for (const [era, counts] of Object.entries(sizes.counts)) {
    const server = await startSdkHttp(era === 'legacy');
    try {
      for (const count of counts) {
        for (const driver of ['official', 'rxmcp']) {
          const memory = await child(['idle', driver, String(count), server.url, 'memory'], { gc: true });
          const handles = count <= sizes.handlesUpTo ? await child(['idle', driver, String(count), server.url, 'handles'], { gc: true }) : {};
          rows.push({ era, count, driver, ...memory, ...handles });
        }
      }
    } finally {
      server.stop();
    }
  }
  return { sizes, rows };
}

// Every emitter and event target that is given a listener, weakly held, so
// that the listeners still attached to live ones can be counted after a
// collection. Installed before any client module loads.
function trackListeners() {
  const seen = new WeakSet();
  const refs = [];
  const names = new WeakMap();
  const note = (target, type) => {
    if (!seen.has(target)) {
      seen.add(target);
      refs.push(new WeakRef(target));
    }
    if (!(target instanceof EventEmitter)) {
      let set = names.get(target);
      if (!set) names.set(target, (set = new Set()));
      set.add(type);
    }
  };
  const proto = EventEmitter.prototype;
  for (const method of ['on', 'addListener', 'prependListener']) {
    const original = proto[method];
    proto[method] = function (type, listener) {
      note(this, type);
      return original.call(this, type, listener);
    };
  }
  const addEventListener = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    note(this, type);
    return addEventListener.call(this, type, listener, options);
  };
  // Listeners on live targets, by "Kind event".
  return () => {
    const counts = {};
    for (const ref of refs) {
      const target = ref.deref();
      if (!target) continue;
      const kind = target.constructor?.name ?? 'Object';
      const types = target instanceof EventEmitter ? target.eventNames() : [...(names.get(target) ?? [])];
      for (const type of types) {
        const n = getEventListeners(target, type).length;
        if (n > 0) counts[`${kind} ${String(type)}`] = (counts[`${kind} ${String(type)}`] ?? 0) + n;
      }
    }
    return counts;
  };
}

// Handles that keep the process alive, by kind; and, apart, every open socket
// (from /proc, Linux only), since an idle kept-alive socket is unref'd and
// so missing from the first.
const byKind = () => {
  const counts = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
};
const openSockets = () => {
  try {
    return readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  } catch {
    return undefined;
  }
};
const total = (counts) => Object.values(counts).reduce((sum, n) => sum + n, 0);
const minus = (after, before) => {
  const out = {};
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)])) {
    const d = (after[key] ?? 0) - (before[key] ?? 0);
    if (d !== 0) out[key] = d;
  }
  return out;
};

async function settle() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await sleep(20);
  }
}

// One connection first, kept open and outside the difference: what loads
// or is made once per process (modules, the fetch pool) is not charged to
// the connections measured.
async function idleChild(driver, count, url, measure) {
  const listeners = measure === 'handles' ? trackListeners() : undefined;
  const { drivers } = await import('./drivers.mjs');
  const open = drivers.find((candidate) => candidate.name === driver).open;
  const connect = async (n) => {
    const client = await open({ kind: 'http', url });
    await client.call(`idle ${n}`);
    return client;
  };
  const clients = [await connect(0)];
  await sleep(300);
  await settle();
  const before = { memory: process.memoryUsage(), handles: byKind(), sockets: openSockets(), listeners: listeners?.() };
  // In batches, as a program opening many connections would.
  for (let first = 0; first < count; first += 50) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(50, count - first) }, (_, n) => connect(first + n + 1)))));
  }
  await sleep(1000);
  await settle();
  const after = { memory: process.memoryUsage(), handles: byKind(), sockets: openSockets(), listeners: listeners?.() };
  let answer;
  if (measure === 'memory') {
    answer = {
      heapKb: (after.memory.heapUsed - before.memory.heapUsed) / 1024 / count,
      rssKb: (after.memory.rss - before.memory.rss) / 1024 / count,
      externalKb: (after.memory.external - before.memory.external) / 1024 / count,
    };
  } else {
    const handles = minus(after.handles, before.handles);
    const attached = minus(after.listeners, before.listeners);
    answer = {
      handles: total(handles) / count,
      sockets: after.sockets === undefined ? undefined : (after.sockets - before.sockets) / count,
      handleKinds: handles,
      timers: ((handles.Timeout ?? 0) + (handles.Immediate ?? 0)) / count,
      listeners: total(attached) / count,
      listenerKinds: Object.fromEntries(Object.entries(attached).sort((a, b) => b[1] - a[1]).slice(0, 4)),
    };
  }
  await Promise.all(clients.map((client) => client.close()));
  return answer;
}

const kinds = (counts, count) =>
  Object.entries(counts ?? {})
    .map(([kind, n]) => `${kind} ${fmt(n / count)}`)
    .join(', ') || '–';

/** The idle scenario's results as a markdown section. */
export function idleTable(name, { rows }) {
  const lines = [
    `### ${name}`,
    '',
    'N connections from one process to one SDK HTTP server, each having made one call, then idle for 1 s; measured after forced collections, ' +
      'against the same process with one connection already open (so modules and pools made once are not counted). Per connection; ' +
      'a fresh process for each cell pair (memory, then handles and listeners with a listener tracker installed). ' +
      'Handles: those that keep the process alive (`process.getActiveResourcesInfo()`); open sockets: every socket descriptor, ' +
      'idle kept-alive ones included. Listeners: those still attached to emitters and event targets alive after the collections.',
    '',
    '| era | connections | driver | heap KiB | RSS KiB | handles | open sockets | timers | listeners | handles by kind | listeners, most common |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.era} | ${row.count} | ${row.driver} | ${fmt(row.heapKb)} | ${fmt(row.rssKb)} | ${fmt(row.handles)} | ${fmt(row.sockets)} | ${fmt(row.timers)} | ${fmt(row.listeners)} | ` +
        `${kinds(row.handleKinds, row.count)} | ${kinds(row.listenerKinds, row.count)} |`,
    );
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------ checks

/** `sizes`: { rounds, lists, calls, mappings }. One process, the variants interleaved round by round. */
export async function checksScenario(sizes) {
  return { sizes, ...(await child(['checks', JSON.stringify(sizes)], { gc: true })) };
}

// A long prefix pushes every name of the catalogue past 64 characters, so each must be mapped.
const LONG_PREFIX = 'a_server_with_a_name_long_enough_to_push_every_tool_past_the_limit__';

async function checksChild(sizes) {
  const { McpClient, portableToolNames } = await import('rxmcp');
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const { firstValueFrom } = await import('rxjs');
  const server = { command: node, args: [everything, 'stdio'], env: {} };
  const checked = McpClient.connectStdio(server);
  const unchecked = McpClient.connectStdio({ ...server, validateStructuredContent: false });
  const official = new Client({ name: 'bench', version: '1' });
  await official.connect(new StdioClientTransport({ command: node, args: [everything, 'stdio'], stderr: 'ignore' }));
  const STRUCTURED = 'get-structured-content';
  const args = { location: 'Chicago' };
  const plainTool = 'echo';

  // Each variant: the work of one call, and how many a round makes of it.
  const variants = {
    'toolsForLlm, portable names': [() => checked.toolsForLlm(), sizes.lists],
    'toolsForLlm, real names': [() => checked.toolsForLlm({ names: 'real' }), sizes.lists],
    'call with outputSchema, checked': [() => firstValueFrom(checked.callTool(STRUCTURED, args)), sizes.calls],
    'call with outputSchema, unchecked': [() => firstValueFrom(unchecked.callTool(STRUCTURED, args)), sizes.calls],
    'call with outputSchema, official': [() => official.callTool({ name: STRUCTURED, arguments: args }), sizes.calls],
    'call without outputSchema (echo)': [() => firstValueFrom(checked.callTool(plainTool, { message: 'x' })), sizes.calls],
  };
  // The catalogue is learned (and the check compiled) before anything is timed.
  await checked.toolsForLlm();
  await firstValueFrom(unchecked.listTools());
  await official.listTools();
  for (const [run, count] of Object.values(variants)) for (let i = 0; i < Math.min(count, 200); i++) await run();
  const names = (await checked.toolsForLlm({ names: 'real' })).map((tool) => tool.function.name);
  const long = names.map((name) => LONG_PREFIX + name);
  // The check alone, as the client compiles it (an internal module, built
  // from src/ by internalModule: this isolates what the call-level
  // difference above can only bound).
  const { compileOutputSchema, loadValidator } = await internalModule('tools/output-check.ts');
  const schema = (await firstValueFrom(checked.listTools())).find((tool) => tool.name === STRUCTURED).outputSchema;
  const checker = compileOutputSchema(await loadValidator(), schema);
  const { structuredContent } = await firstValueFrom(checked.callTool(STRUCTURED, args));
  if (typeof checker !== 'function' || checker(structuredContent) !== undefined) throw new Error('the outputSchema of get-structured-content did not compile, or refused its own result');
  // What toolsForLlm does with names once it has the catalogue, on this
  // catalogue: the toolsForLlm rows above go to the server each time (it
  // gives no ttlMs), so their difference is a round trip's noise.
  const { NameMapper } = await internalModule('tools/tool-names.ts');
  const mapper = new NameMapper();
  const declared = await checked.toolsForLlm({ names: 'real' });
  const mappings = {
    'toolsForLlm naming step, portable names': () => mapper.show(declared, undefined),
    'toolsForLlm naming step, real names': () => mapper.show(declared, 'real'),
    'portableToolNames, names that fit': () => portableToolNames(names),
    'portableToolNames, every name mapped': () => portableToolNames(long),
    'outputSchema check alone': () => checker(structuredContent),
  };

  const samples = Object.fromEntries([...Object.keys(variants), ...Object.keys(mappings)].map((key) => [key, { us: [], cpu: [] }]));
  const keys = Object.keys(variants);
  for (let round = 0; round < sizes.rounds; round++) {
    for (const key of round % 2 ? [...keys].reverse() : keys) {
      const [run, count] = variants[key];
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < count; i++) await run();
      samples[key].us.push(((performance.now() - start) * 1000) / count);
      samples[key].cpu.push((cpuMs(process.cpuUsage(cpu)) * 1000) / count);
    }
  }
  // Apart from the calls: the garbage of 20,000 mappings, collected in
  // whichever variant came next, would be charged to the first of a round
  // (every other round, the portable names).
  for (let round = 0; round < sizes.rounds; round++) {
    for (const [key, map] of Object.entries(mappings)) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < sizes.mappings; i++) map();
      samples[key].us.push(((performance.now() - start) * 1000) / sizes.mappings);
      samples[key].cpu.push((cpuMs(process.cpuUsage(cpu)) * 1000) / sizes.mappings);
    }
  }
  // The difference taken within each round (the two ran side by side), then its median.
  const difference = (a, b, measure) => median(samples[a][measure].map((value, n) => value - samples[b][measure][n]));
  await Promise.all([checked.close(), unchecked.close(), official.close()]);
  return {
    tools: names.length,
    measures: Object.fromEntries(Object.entries(samples).map(([key, { us, cpu }]) => [key, { us: median(us), cpuUs: median(cpu) }])),
    differences: {
      'portable names, added to toolsForLlm': { us: difference('toolsForLlm, portable names', 'toolsForLlm, real names', 'us'), cpuUs: difference('toolsForLlm, portable names', 'toolsForLlm, real names', 'cpu') },
      'portable names, added to the naming step': {
        us: difference('toolsForLlm naming step, portable names', 'toolsForLlm naming step, real names', 'us'),
        cpuUs: difference('toolsForLlm naming step, portable names', 'toolsForLlm naming step, real names', 'cpu'),
      },
      'outputSchema check, added to a call': {
        us: difference('call with outputSchema, checked', 'call with outputSchema, unchecked', 'us'),
        cpuUs: difference('call with outputSchema, checked', 'call with outputSchema, unchecked', 'cpu'),
      },
    },
  };
}

/** The checks scenario's results as a markdown section. */
export function checksTable(name, { sizes, tools, measures, differences }) {
  const lines = [
    `### ${name}`,
    '',
    `server-everything over stdio (${tools} tools, every name already portable), one process; ${sizes.rounds} rounds, the variants interleaved in alternating order, ` +
      `${sizes.lists} \`toolsForLlm\` and ${sizes.calls} calls per variant per round, ${sizes.mappings} mappings. Median over rounds, µs per operation.`,
    '',
    '| | time | client CPU |',
    '|---|---|---|',
    ...Object.entries(measures).map(([key, m]) => `| ${key} | ${fmt(m.us)} | ${fmt(m.cpuUs)} |`),
    ...Object.entries(differences).map(
      ([key, d]) => `| **${key}** (median of per-round differences) | ${fmt(d.us)} | ${fmt(d.cpuUs)} |`,
    ),
  ];
  return lines.join('\n');
}

// --------------------------------------------------------------- run.mjs

const REGISTRY = 'scale: registry of stdio servers';

/** The scenarios as bench/run.mjs runs them: each a name, `run()` for its results and `table(name, results)` for its section. */
export function scaleScenarios(quick) {
  return [
    { name: REGISTRY, run: () => registryScenario(quick ? { counts: [1, 4], rounds: 1 } : { counts: [1, 8, 32], rounds: 3 }), table: registryTable },
    {
      name: 'scale: idle HTTP connections',
      run: () =>
        idleScenario(quick ? { counts: { modern: [1, 20] }, handlesUpTo: 20 } : { counts: { modern: [1, 100, 1000], legacy: [1, 100] }, handlesUpTo: 100 }),
      table: idleTable,
    },
    {
      name: 'scale: name mapping and output checks',
      run: () => checksScenario(quick ? { rounds: 3, lists: 10, calls: 50, mappings: 2000 } : { rounds: 12, lists: 30, calls: 150, mappings: 20000 }),
      table: checksTable,
    },
  ];
}

/** The curves among `results` (latest.json's `curves`): the registry's, when it ran. */
export function scaleCurves(results) {
  return results[REGISTRY] ? [registryCurve(results[REGISTRY])] : [];
}

// ------------------------------------------------------------------- child

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [mode, ...rest] = process.argv.slice(2);
  let answer;
  if (mode === 'registry') answer = await registryChild(rest[0], Number(rest[1]));
  else if (mode === 'idle') answer = await idleChild(rest[0], Number(rest[1]), rest[2], rest[3]);
  else if (mode === 'checks') answer = await checksChild(JSON.parse(rest[0]));
  else throw new Error(`bench/scale.mjs: no mode ${JSON.stringify(mode)}`);
  process.stdout.write(JSON.stringify(answer) + '\n');
  // Whatever a client left running must not hold the measurement's process.
  process.exit(0);
}
