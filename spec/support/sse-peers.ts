import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHttpServer } from './http-servers.js';
import { eventually } from './servers.js';

// Published servers that serve HTTP+SSE (protocol 2024-11-05), run from
// node_modules on 127.0.0.1 through spec/fixtures/on-loopback.mjs.

const root = join(__dirname, '..', '..');
const modules = join(root, 'node_modules');

/** A published server listening on 127.0.0.1. */
export interface SsePeer {
  /** http://127.0.0.1:PORT, without a path. */
  origin: string;
  stderr: string[];
  /** Stops the server and every process it started, waiting until they are gone. */
  stop(): Promise<void>;
}

/** server-everything in its `sse` mode: GET /sse, POST /message. */
export function serverEverythingSse(): Promise<SsePeer> {
  return start([join(modules, '@modelcontextprotocol/server-everything/dist/index.js'), 'sse']);
}

/** mcp-proxy 6.7 in front of the SDK v2 fixture over stdio: HTTP+SSE on /sse and Streamable HTTP on /mcp. */
export function mcpProxy(): Promise<SsePeer> {
  const marker = stdioMarker('mcp-proxy');
  return start(
    [join(modules, 'mcp-proxy/dist/bin/mcp-proxy.mjs'), '--host', '127.0.0.1', '--port', '1', '--gracefulShutdownTimeout', '1000', '--', process.execPath, join(root, 'spec/fixtures/modern-server.mjs'), marker],
    marker,
  );
}

/** supergateway 4.0 with its default output (HTTP+SSE: GET /sse, POST /message) in front of the SDK v2 fixture over stdio. */
export function supergateway(): Promise<SsePeer> {
  const marker = stdioMarker('supergateway');
  // supergateway runs --stdio through a shell: each word quoted for it.
  const command = [process.execPath, join(root, 'spec/fixtures/modern-server.mjs'), marker].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  // At log level info it passes on the stdio server's stderr, where the fixture says what it started and what was cancelled.
  return start([join(modules, 'supergateway/dist/index.js'), '--stdio', command, '--port', '1', '--logLevel', 'info'], marker);
}

// The wrapped stdio server is found by an argument it ignores, unique to this run.
let started = 0;
function stdioMarker(bridge: string): string {
  return `rxmcp-sse-peer-${bridge}-${process.pid}-${++started}`;
}

async function start(args: string[], marker?: string): Promise<SsePeer> {
  const server = await startHttpServer('on-loopback.mjs', ...args);
  return {
    origin: new URL(server.url).origin,
    stderr: server.stderr,
    stop: async () => {
      await server.stop();
      if (marker === undefined) return;
      // Each bridge stops its stdio server itself; should one not, it is killed here.
      const left = (): number[] => processesWith(marker);
      try {
        await eventually(() => left().length === 0, 5000);
      } catch {
        for (const pid of left()) process.kill(pid, 'SIGKILL');
      }
    },
  };
}

/** The ids of this machine's processes whose command line contains `word`. */
export function processesWith(word: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (commandLine.includes(word) && Number(entry) !== process.pid) pids.push(Number(entry));
  }
  return pids;
}
