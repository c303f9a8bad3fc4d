// Client CPU of one forced `listTools`, in process, for comparing builds:
//   npm run build && node bench/list-cpu.mjs [checkout ...]
// Each checkout (default: this one) must have its dist/ built. The server
// (the official SDK, the benchmark's one echo tool) answers the first list;
// every later one is answered from that answer's text, parsed afresh each
// time, with no process, pipe or server work in between, so what is left is
// the client's own path: build, correlate, check the page, cache, learn. The
// builds take turns, several rounds each; the least CPU per list of a round
// is what a loaded machine disturbs least, so that is what is printed.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LISTS = 20000;
const ROUNDS = 5;
const TURNS = 4;

async function measure(root) {
  const { firstValueFrom, Subject } = await import('rxjs');
  const { McpServer } = await import('@modelcontextprotocol/server');
  const { z } = await import('zod');
  const { McpClient } = await import(pathToFileURL(`${root}/dist/esm/index.js`).href);
  const { InProcessTransport } = await import(pathToFileURL(`${root}/dist/esm/testing/index.js`).href);
  const server = () => {
    const built = new McpServer({ name: 'bench-sdk', version: '1.0.0' }, { cacheHints: { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } } });
    built.registerTool(
      'echo',
      { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    return built;
  };
  const inner = new InProcessTransport({ server });
  const inbound = new Subject();
  let answer;
  inner.inbound.subscribe((message) => {
    if (answer === undefined && message.result?.tools) answer = JSON.stringify(message);
    inbound.next(message);
  });
  const replay = (id) => {
    const message = JSON.parse(answer);
    message.id = id;
    inbound.next(message);
  };
  const transport = {
    inbound: inbound.asObservable(),
    outbound: {
      next: (message) => (answer !== undefined && message.method === 'tools/list' ? setImmediate(replay, message.id) : inner.outbound.next(message)),
      error: () => undefined,
      complete: () => undefined,
    },
    cancel: (id) => inner.cancel(id),
    close: () => inner.close(),
  };
  const client = new McpClient({ transport });
  const lists = async (count) => {
    for (let i = 0; i < count; i++) await firstValueFrom(client.listTools({ refresh: true }));
  };
  await lists(3000);
  let least = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    await lists(LISTS);
    const used = process.cpuUsage(before);
    least = Math.min(least, (used.user + used.system) / LISTS);
  }
  await client.close();
  return least;
}

if (process.argv[2] === '--one') {
  process.stdout.write(`${await measure(process.argv[3])}\n`);
} else {
  const roots = process.argv.length > 2 ? process.argv.slice(2).map((root) => resolve(root)) : [process.cwd()];
  const best = new Map(roots.map((root) => [root, []]));
  for (let turn = 0; turn < TURNS; turn++) {
    for (const root of roots) {
      // A fresh process per measure: one build's JIT state never helps another's.
      const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--one', root], { encoding: 'utf8' });
      best.get(root).push(Number(out));
    }
  }
  for (const [root, values] of best) {
    console.log(`${root}: ${Math.min(...values).toFixed(2)} µs CPU per forced list (turns: ${values.map((v) => v.toFixed(2)).join(' ')})`);
  }
}
