import { spawn } from 'node:child_process';
import { McpConfigError, type ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';

/** How long a headers helper may run (10 s, as Claude Code gives it). */
export const HEADERS_HELPER_TIMEOUT_MS = 10_000;
/** The most a headers helper may print, in bytes: headers fit in far less. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** The most headers it may give. */
const MAX_HEADERS = 1000;

/** What `runHeadersHelper` needs besides the command. */
export interface HeadersHelperOptions {
  /** The folder it runs in. */
  cwd: string;
  /** The server's name and URL, given to the helper as Claude Code gives them. */
  server: string;
  url: string;
  /** How long it may run (default 10 s). */
  timeoutMs?: number;
  /** Where an error is said to be. */
  place: ConfigPlace;
}

/**
 * Runs Claude Code's `headersHelper`: a command line, run through the
 * system's shell as Claude Code runs it (the value is written as one: a
 * script path with arguments, a pipe), with `CLAUDE_CODE_MCP_SERVER_NAME`
 * and `CLAUDE_CODE_MCP_SERVER_URL` set. Its standard output must be a JSON
 * object of header names to strings. It gets 10 s and 64 KiB of output;
 * past either, it and everything it started are killed. Its standard error
 * is not read, and no error quotes its output: both may hold the token.
 *
 * @throws McpConfigError at `options.place` (as a rejection) when it cannot
 *   start, runs too long, prints too much, exits other than 0, or prints
 *   anything but a JSON object of strings.
 */
export function runHeadersHelper(command: string, options: HeadersHelperOptions): Promise<Record<string, string>> {
  const { cwd, server, url, timeoutMs = HEADERS_HELPER_TIMEOUT_MS, place } = options;
  const at = { ...place, key: 'headersHelper' };
  return new Promise((resolve, reject) => {
    // Its own process group (POSIX): a timeout kills what the shell started too.
    const group = process.platform !== 'win32';
    const child = spawn(command, {
      shell: true,
      cwd,
      env: { ...process.env, CLAUDE_CODE_MCP_SERVER_NAME: server, CLAUDE_CODE_MCP_SERVER_URL: url },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: group,
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: McpConfigError | undefined, headers?: Record<string, string>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(headers as Record<string, string>);
    };
    const kill = (): void => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      kill();
      finish(new McpConfigError(at, `did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        kill();
        finish(new McpConfigError(at, `printed more than ${MAX_OUTPUT_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => finish(new McpConfigError(at, `could not be run: ${error.code ?? 'unknown error'}`)));
    child.on('close', (code, signal) => {
      if (code !== 0) return finish(new McpConfigError(at, signal ? `was ended by ${signal}` : `exited with code ${code}`));
      try {
        finish(undefined, headersFrom(Buffer.concat(chunks).toString('utf8'), at));
      } catch (error) {
        finish(error as McpConfigError);
      }
    });
  });
}

function headersFrom(text: string, place: ConfigPlace): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new McpConfigError(place, 'did not print JSON (its output is not shown)');
  }
  if (!isObject(value)) throw new McpConfigError(place, 'did not print a JSON object of headers');
  const names = Object.keys(value);
  if (names.length > MAX_HEADERS) throw new McpConfigError(place, `printed more than ${MAX_HEADERS} headers`);
  const headers = Object.create(null) as Record<string, string>;
  for (const name of names) {
    if (typeof value[name] !== 'string') throw new McpConfigError({ ...place, key: `headersHelper.${name}` }, 'must be a string (the value is not shown)');
    headers[name] = value[name];
  }
  return headers;
}
