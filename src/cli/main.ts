// The command line's entry. It parses the arguments and answers --help,
// --version and bad usage with what it holds itself; the commands, and the
// library with them, load only when one runs: loading them is most of a
// short command's time (PERFORMANCE.md, "Import time and the CLI's start").
import { type CliRequest, parseCommandLine, USAGE, UsageError } from './args.js';
import type { CliIo } from './connect.js';
import { FAILURE, OK, USAGE_ERROR } from './exit-codes.js';
import { terminalLine, terminalText } from './terminal-text.js';
import { VERSION } from '../version.js';

/**
 * Runs the `rxmcp` command line and resolves with its exit code: 0 success,
 * 1 the tool reported an error, 2 usage, 3 connection, protocol or timeout
 * error or any other failure, 130 interrupted. It never rejects: whatever
 * goes wrong, even an exception nobody caught while it ran, ends in one line
 * on stderr and exit code 3, not a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo = process): Promise<number> {
  const code = await outcome(argv, io);
  // bin/rxmcp.mjs exits at once, which drops what a pipe has not taken yet:
  // a big answer (a deep result is megabytes) must get out whole first.
  await Promise.all([drained(io.stdout), drained(io.stderr)]);
  return code;
}

function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

async function outcome(argv: readonly string[], io: CliIo): Promise<number> {
  let request: CliRequest;
  try {
    request = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) return failed(error, io);
    io.stderr.write(`rxmcp: ${terminalText(error.message)}\n\n${USAGE}`);
    return USAGE_ERROR;
  }
  if (request.help) {
    io.stdout.write(USAGE);
    return OK;
  }
  if (request.version) {
    io.stdout.write(`rxmcp ${VERSION}\n`);
    return OK;
  }
  // An exception thrown where no caller waits for it (a callback, a promise
  // nobody awaits) ends this run like any other failure, not the process.
  let stray: (error: unknown) => void = () => undefined;
  const strayError = new Promise<never>((_, reject) => (stray = reject));
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
  try {
    return await Promise.race([import('./command.js').then(({ command }) => command(request, io)), strayError]);
  } catch (error) {
    return failed(error, io);
  } finally {
    process.off('uncaughtException', stray);
    process.off('unhandledRejection', stray);
  }
}

// A failure nobody foresaw, as one line: its kind and its message.
function failed(error: unknown, io: CliIo): number {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  io.stderr.write(`rxmcp: ${terminalLine(what)}\n`);
  return FAILURE;
}
