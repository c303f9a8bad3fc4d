// The soak: many calls over stdio and HTTP with timeouts, cancellations and
// errors mixed in, and the heap, the pending requests and the process's
// handles measured before and after (forced GC). Flat is the pass.
//
//   npm run soak              100,000 stdio calls, 20,000 HTTP calls in each era and over HTTP+SSE
//   npm run soak -- --short   a short run (what CI runs)
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const here = dirname(fileURLToPath(import.meta.url));
const short = process.argv.includes('--short');
const gc = globalThis.gc ?? (() => undefined);
const counts = short ? { stdio: 5000, http: 1000 } : { stdio: 100000, http: 20000 };

const handles = () => process.getActiveResourcesInfo().length;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// One in ten calls is cut short by a timeout, one in ten is cancelled, one in
// ten asks for a tool that does not exist; the rest are plain.
async function mixed(mcp, total) {
  const tally = { ok: 0, timeout: 0, cancelled: 0, error: 0 };
  let issued = 0;
  const lane = async () => {
    while (issued < total) {
      const n = issued++;
      const kind = n % 10;
      try {
        if (kind === 1) {
          await firstValueFrom(mcp.callTool('echo', { text: `${n}` }, { timeoutMs: 0.001 }));
        } else if (kind === 2) {
          const controller = new AbortController();
          const call = firstValueFrom(mcp.callTool('echo', { text: `${n}` }, { signal: controller.signal }));
          controller.abort();
          await call;
        } else if (kind === 3) {
          await firstValueFrom(mcp.callTool('no_such_tool', {}));
        } else {
          await firstValueFrom(mcp.callTool('echo', { text: `${n}` }));
        }
        tally.ok++;
      } catch (error) {
        if (error.name === 'McpTimeoutError') tally.timeout++;
        else if (error.name === 'McpCancelledError') tally.cancelled++;
        else tally.error++;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return tally;
}

async function soak(name, connect, total) {
  const mcp = connect();
  await mixed(mcp, 2000);
  const before = { heap: heapMb(), handles: handles() };
  const started = performance.now();
  const tally = await mixed(mcp, total);
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = { heap: heapMb(), handles: handles() };
  await mcp.close();
  const line = `${name}: ${total} calls in ${seconds.toFixed(1)} s (${JSON.stringify(tally)}); heap ${before.heap.toFixed(1)} → ${after.heap.toFixed(1)} MiB; handles ${before.handles} → ${after.handles}`;
  console.log(line);
  return { growth: after.heap - before.heap, handleGrowth: after.handles - before.handles };
}

const stdio = await soak('stdio', () => McpClient.connectStdio({ command: process.execPath, args: [join(here, 'servers/minimal-server.mjs')] }), counts.stdio);

// The SDK server over HTTP: dual-era (the client speaks modern), or 2025-11-25 only with sessions.
async function soakHttp(name, ...args) {
  const server = spawn(process.execPath, [join(here, 'servers/sdk-server.mjs'), '--http', ...args]);
  const { port } = JSON.parse(await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve)));
  try {
    return await soak(name, () => McpClient.connectHttp({ url: `http://127.0.0.1:${port}/mcp` }), counts.http);
  } finally {
    server.stdin.end();
  }
}
const http = await soakHttp('http');
const legacyHttp = await soakHttp('legacy http', '--legacy');

// The SDK v1 server over HTTP+SSE: one event stream for the whole soak, every
// message (cancellations among them) a POST of its own; found by connectHttp
// on its own, as a user leaves it.
async function soakSse() {
  const server = spawn(process.execPath, [join(here, 'servers/sse-server.mjs')]);
  const { port } = JSON.parse(await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve)));
  try {
    return await soak('http+sse', () => McpClient.connectHttp({ url: `http://127.0.0.1:${port}/sse` }), counts.http);
  } finally {
    server.stdin.end();
  }
}
const sse = await soakSse();

// Flat: less than 8 MiB of heap growth, and no handle left behind.
const flat = [stdio, http, legacyHttp, sse].every(({ growth, handleGrowth }) => growth < 8 && handleGrowth <= 0);
console.log(flat ? 'flat: no growth past the bounds' : 'GROWTH: see the numbers above');
process.exit(flat ? 0 : 1);
