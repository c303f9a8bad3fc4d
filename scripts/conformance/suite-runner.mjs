// What both conformance scripts (run.mjs: the client scenarios; gateway.mjs:
// the server scenarios, directly and through the gateway) need to drive the
// suite: child processes that can be stopped with all they started, the
// suite itself under the Node 20 shim, its scenario list, and a worker pool.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUITE = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const REGISTER = fileURLToPath(new URL('./register.mjs', import.meta.url));

// Each child leads its own process group (the suite starts mock servers and
// the client under a shell), so one that overstays, or the whole batch on
// Ctrl-C, can be stopped with everything it started.
const running = new Set();

/** Kills a child's whole process group. */
export function stop(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group ended on its own meanwhile.
  }
}

/** Stops every child still running. */
export function stopAll() {
  running.forEach(stop);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Starts `node ARGS` in the repository, in a process group of its own. */
export function start(args, options = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  running.add(child);
  child.on('close', () => running.delete(child));
  return child;
}

/** Runs the suite with `args`; resolves with its exit code (null when it overstayed `timeoutMs`) and output. */
export function suite(args, { timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = start(['--import', REGISTER, SUITE, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          stop(child);
        }, timeoutMs)
      : undefined;
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? null : code, stdout, stderr, timedOut });
    });
  });
}

/** The suite's scenarios of one side (`'Client'` or `'Server'`), each with the spec versions it lists in brackets. */
export async function listScenarios(side) {
  const args = side === 'Server' ? ['list', '--server'] : ['list'];
  const { code, stdout, stderr } = await suite(args);
  if (code !== 0) throw new Error(`conformance ${args.join(' ')} failed (exit ${code}):\n${stderr}`);
  const section = stdout.split(new RegExp(`^${side} scenarios.*$`, 'm'))[1]?.split(/\n\s*\n/)[0];
  if (section === undefined) throw new Error(`conformance list printed no "${side} scenarios" section:\n${stdout}`);
  return [...section.matchAll(/^\s*-\s+(\S+)\s+\[([^\]]*)\]/gm)].map(([, name, tags]) => ({ name, tags: tags.split(',').map((tag) => tag.trim()) }));
}

/** Runs `work` over `items`, at most `limit` at once; the results in the items' order. */
export async function inPool(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
