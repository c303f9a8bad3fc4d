import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');

/** How one run of the CLI ended. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a run is given: stdin, extra environment, a working directory, and a look at stderr line by line as it comes. */
export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  onLine?: (line: string) => void;
}

/** Runs the CLI (the built one, as a user does), its stdin closed after `input`. */
export function rxmcp(args: string[], { input = '', env = {}, cwd = root, onLine }: RunOptions = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr += `${line}\n`;
      onLine?.(line);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
