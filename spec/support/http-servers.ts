import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** An HTTP fixture server running as a child process on 127.0.0.1. */
export interface RunningServer {
  url: string;
  /** What the server has written to stderr so far, a line each. */
  stderr: string[];
  stop(): Promise<void>;
}

/** Starts spec/fixtures/<name> and resolves once it listens. Its stdin is held open; closing it stops the server. */
export function startHttpServer(name: string, ...args: string[]): Promise<RunningServer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [join(__dirname, '..', 'fixtures', name), ...args]);
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr.join('\n')}`)));
    // Some servers log to stdout too: the first line that names a port is the one.
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const port = portIn(line);
      if (port === undefined) return;
      lines.removeAllListeners('line');
      lines.on('line', () => undefined);
      resolve({ url: `http://127.0.0.1:${port}/mcp`, stderr, stop });
    });
  });
}

function portIn(line: string): number | undefined {
  try {
    const { port } = JSON.parse(line) as { port?: unknown };
    return typeof port === 'number' ? port : undefined;
  } catch {
    return undefined;
  }
}
