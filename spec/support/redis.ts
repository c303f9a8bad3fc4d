import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server of the specs' own, on a free port of 127.0.0.1, its data in a temp dir. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** The running server's pid (undefined while it is stopped). */
  readonly pid: number | undefined;
  /** Starts it again, same port and data (after stop or kill). */
  start(): Promise<void>;
  /** Stops it as an operator would (SIGTERM) and waits for it to go. */
  stop(): Promise<void>;
  /** Kills it as a crash would (SIGKILL) and waits for it to go. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): it keeps its connections and answers nothing. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its data. */
  dispose(): Promise<void>;
}

const INSTALL = 'redis-server is not installed: the Redis specs start their own, so install it (apt-get install redis-server) and run them again';
const running = new Set<ChildProcess>();

// A spec process that dies in the middle must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Why redis-server cannot be started here, or undefined when it can. */
function missingRedisServer(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0 ? INSTALL : undefined;
}

/**
 * A describe block for specs that need a real redis-server. Where it is
 * missing, the block is one failing test whose one line says what to install:
 * these specs never pass by skipping, and the failure counts as one.
 */
export function describeWithRedis(name: string, body: () => void): void {
  const missing = missingRedisServer();
  describe(name, () => {
    if (!missing) return body();
    it('needs redis-server', () => {
      const error = new Error(missing);
      error.stack = missing;
      throw error;
    });
  });
}

/** Starts a redis-server that persists every write (appendfsync always), so a restart loses nothing acknowledged. */
export async function startRedis(): Promise<RedisServer> {
  const missing = missingRedisServer();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'];
    const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(started);
    started.once('exit', () => running.delete(started));
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => done(new Error(`redis-server did not start within 10 s: ${output.slice(-500)}`)), 10_000);
      const done = (error?: Error) => {
        clearTimeout(timer);
        started.stdout?.off('data', read);
        started.off('exit', exited);
        if (error) reject(error);
        else resolve();
      };
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) done();
      };
      const exited = () => done(new Error(`redis-server exited at start: ${output.slice(-500)}`));
      started.stdout?.on('data', read);
      started.once('exit', exited);
    });
    // Its log is not ours to print, but a full pipe would stall it.
    started.stdout?.resume();
    started.stderr?.resume();
  };

  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const gone = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGCONT');
    current.kill(signal);
    const late = setTimeout(() => current.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(late);
  };

  for (let attempt = 0; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      // Another process may have taken the port between probe and start.
      if (attempt === 2) throw error;
      port = await freePort();
    }
  }

  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    dir,
    get pid() {
      return child?.pid;
    },
    start: launch,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    dispose: async () => {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
