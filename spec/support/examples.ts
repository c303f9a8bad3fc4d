import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What one run of an example printed, and how it ended. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How an example is run: where, with what arguments, input and environment, and a look at stderr as it comes. */
export interface ExampleOptions {
  cwd: string;
  args?: string[];
  /** Written to stdin, which is then closed. */
  input?: string;
  env?: Record<string, string>;
  onStderrLine?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * The environment an example runs in: the test runner's, without what
 * `npm test` adds (npm_config_*, npm_package_*, INIT_CWD), which would make
 * an npm or npx inside the example act on this repository instead of the
 * folder it runs in.
 */
export function plainEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));
  return { ...env, ...extra };
}

/**
 * Runs `node FILE` as a user would, in a process group of its own, and
 * resolves when it exits (or, past `timeoutMs`, once its group is killed).
 * Every process it started is ended afterwards, found by a mark in its
 * environment: a gateway that leaves its upstream servers running must not
 * leave them to the rest of the suite.
 */
export function runExample(file: string, options: ExampleOptions): Promise<ExampleRun> {
  const mark = randomUUID();
  const child = spawn(process.execPath, [file, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: plainEnvironment({ ...options.env, RXMCP_EXAMPLE_RUN: mark }),
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr += `${line}\n`;
    options.onStderrLine?.(line);
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => killGroup(child.pid), options.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      killGroup(child.pid);
      endMarked(mark);
      resolve({ code, stdout, stderr });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Ends every process of this user whose environment carries `mark` (Linux: read from /proc). */
function endMarked(mark: string): void {
  if (!existsSync('/proc')) return;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'environ'), 'latin1').includes(`RXMCP_EXAMPLE_RUN=${mark}`)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}
