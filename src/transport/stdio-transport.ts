import { Subject, type Observable, type Observer } from 'rxjs';
import { Relay } from '../util/relay.js';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpServerGoneError, McpSpawnFailedError } from '../errors/transport-errors.js';
import { decodeLine, type JsonRpcMessage, type RequestId } from '../protocol/jsonrpc.js';
import { cancelledNotification } from '../protocol/request.js';
import { LineFramer, LineTooLongError } from './line-framer.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { DEFAULT_MAX_MESSAGE, type RequestFailure, type Transport } from './transport.js';
import { checkSize, checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { messageOf } from '../util/values.js';
import { warnHook } from '../util/warn-hook.js';

/** How to start a server as a child process, and how to treat it. */
export interface StdioTransportOptions {
  /** The program to run. Run directly, never through a shell. */
  command: string;
  /** Its arguments, each passed as it is (no quoting, no globbing). */
  args?: readonly string[];
  /** Environment entries, layered over this process's environment unless `inheritEnv` is false. */
  env?: Readonly<Record<string, string>>;
  /** The working directory of the child. */
  cwd?: string;
  /** Whether the child starts from this process's environment (default true). With false it gets `env` alone. */
  inheritEnv?: boolean;
  /** Called with each line the server writes to stderr (a line over 64 KiB is cut to its first 64 KiB). */
  onStderr?: (line: string) => void;
  /** How long `close()` waits after closing stdin, and again after SIGTERM, before escalating (default 2000; at most 2^31 − 1, the longest a timer waits). */
  killGraceMs?: number;
  /** How many of the last stderr lines to keep for `McpServerGoneError.stderrTail` (default 20). */
  stderrLines?: number;
  /** Called with wire-level problems that were papered over, such as a stdout line that is not JSON-RPC. */
  onWarn?: (message: string) => void;
  /** The largest message the server may send, in bytes (default 64 MiB); a longer one ends the connection with McpProtocolError. */
  maxMessageBytes?: number;
  /**
   * How long a server whose first stdout lines are not JSON-RPC (a banner)
   * has, from the first such line, to send a JSON-RPC message before the
   * connection ends with `McpServerGoneError` naming what it wrote (default
   * 10000; 0 ends it at the first such line; past 16 KiB of such text it ends
   * at once). After its first JSON-RPC message, a line that is not one is
   * skipped with a warning.
   */
  bannerGraceMs?: number;
}

/** The option names `StdioTransport` understands. */
export const STDIO_OPTION_KEYS = keysOf<StdioTransportOptions>({
  command: true,
  args: true,
  env: true,
  cwd: true,
  inheritEnv: true,
  onStderr: true,
  killGraceMs: true,
  stderrLines: true,
  onWarn: true,
  maxMessageBytes: true,
  bannerGraceMs: true,
});

const MAX_STDERR_LINE = 2000;
/** The longest stderr line `onStderr` is given, in bytes; the rest of a longer one is dropped. */
const STDERR_LINE_BYTES = 64 * 1024;
const RESOLVED = Promise.resolve();
const KILL_GRACE_MS = 2000;
// The stdio spec says a server MUST NOT write anything but MCP messages on
// stdout; yet the official SDK's client skips lines that do not parse, and
// some servers print a banner ("listening…", a logo) before they speak, so
// a client that failed at the first stray line would refuse servers other
// hosts run. Some print it before a slow start (loading a model, a
// database), so the grace is ten seconds from the banner's first line: a
// program that is not an MCP server at all (a web server, a shell script)
// is told then, naming what it printed, not after the whole request budget
// (one that exits is told at once). Past 16 KiB of such text, far beyond
// any banner, nothing is waited for.
const BANNER_GRACE_MS = 10_000;
const BANNER_BYTES = 16 * 1024;
/** How much of a non-MCP program's stdout `McpServerGoneError.stdoutHead` keeps, in characters. */
const STDOUT_HEAD_CHARS = 200;

// Servers not yet closed, for the one exit hook that ends their process groups with this process.
const live = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;

/**
 * Runs an MCP server as a child process and speaks newline-delimited JSON-RPC
 * over its stdin and stdout.
 *
 * Nothing starts until the first message is sent. The child is spawned
 * without a shell; `node:child_process` is loaded only then, so importing
 * rxmcp in a browser never touches it. When the child exits, `inbound` errors
 * with `McpServerGoneError` carrying its exit code, signal and stderr tail.
 *
 * @throws McpSpawnFailedError at construction, when the command, an argument,
 *   the working directory or an environment entry holds a NUL byte.
 * @example
 * ```ts
 * const transport = new StdioTransport({ command: 'node', args: ['server.js'] });
 * const mcp = new McpClient({ transport });
 * ```
 */
export class StdioTransport implements Transport {
  // Every answer passes here: a Relay allocates nothing per message, where a Subject would.
  private readonly inboundSubject = new Relay<JsonRpcMessage>();
  private readonly options: StdioTransportOptions;
  private readonly stderrTail: string[] = [];
  private child: Promise<ChildProcessWithoutNullStreams | undefined> | undefined;
  private running: ChildProcessWithoutNullStreams | undefined;
  private readonly queued: string[] = [];
  private closing: Promise<void> | undefined;
  private ended = false;
  /** Whether the server has sent a JSON-RPC message yet: until it has, lines that are not one are a banner at best. */
  private spoken = false;
  private stdoutHead = '';
  private strayLines = 0;
  private strayBytes = 0;
  private bannerTimer: ReturnType<typeof setTimeout> | undefined;

  /** The child's process id, once it has started. */
  pid: number | undefined;

  readonly inbound: Observable<JsonRpcMessage> = this.inboundSubject.asObservable();
  /** Messages travel on the child process's stdin and stdout. */
  readonly wire = 'stdio' as const;
  private readonly failureSubject = new Subject<RequestFailure>();
  /** Requests whose answer came malformed, each failed with `McpProtocolError`, hot. */
  readonly failures$: Observable<RequestFailure> = this.failureSubject.asObservable();

  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.write(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(options: StdioTransportOptions) {
    refuseUnknown(options, STDIO_OPTION_KEYS);
    if (typeof options.command !== 'string' || options.command === '') {
      throw new McpClientError('option command must be a non-empty string');
    }
    refuseNul(options);
    checkTimerDuration('killGraceMs', options.killGraceMs, KILL_GRACE_MS);
    checkTimerDuration('bannerGraceMs', options.bannerGraceMs, BANNER_GRACE_MS);
    checkSize('maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE);
    this.options = options;
  }

  /** The last lines the server wrote to stderr, oldest first. */
  get stderr(): readonly string[] {
    return this.stderrTail;
  }

  cancel(id: RequestId, reason?: string): void {
    if (this.child && !this.closing && !this.ended) this.write(cancelledNotification(id, reason));
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  // Lines sent in one turn of the event loop go out in one write (one
  // syscall instead of one per message when many calls are in flight);
  // before the child runs they wait, in order, for it to start.
  private write(message: JsonRpcMessage): void {
    if (this.closing || this.ended) return;
    // Newlines are added at the flush, in one string, not one per message.
    this.queued.push(JSON.stringify(message));
    if (!this.running) {
      void this.start();
    } else if (this.queued.length === 1) {
      // A promise reaction rather than queueMicrotask, which under Node
      // allocates an async resource and a bound function every time.
      void RESOLVED.then(this.flush);
    }
  }

  private readonly flush = (): void => {
    if (this.queued.length === 0) return;
    // One flat string, each line ending in a newline (an empty last entry
    // gives the final one): a string appended to here would be copied again
    // when written.
    this.queued.push('');
    const text = this.queued.join('\n');
    this.queued.length = 0;
    if (this.running?.stdin.writable && !this.ended) this.running.stdin.write(text);
  };

  private start(): Promise<ChildProcessWithoutNullStreams | undefined> {
    this.child ??= this.spawn();
    return this.child;
  }

  private async spawn(): Promise<ChildProcessWithoutNullStreams | undefined> {
    const { spawn } = await import('node:child_process');
    if (this.closing) return undefined;
    const { command, args = [], cwd, env = {}, inheritEnv = true } = this.options;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(command, [...args], {
        cwd,
        env: inheritEnv ? { ...process.env, ...env } : { ...env },
        shell: false,
        stdio: 'pipe',
        windowsHide: true,
        // Its own process group, so that closing can reach what it spawned
        // (npx and shell wrappers leave grandchildren otherwise).
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      this.end(new McpSpawnFailedError(command, messageOf(error), { cause: error }));
      return undefined;
    }
    this.pid = child.pid;
    this.attach(child);
    // If this process exits before close() is done, take the group along: the
    // server, or what it started and left behind when it exited by itself.
    live.add(child);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => live.forEach((running) => signalGroup(running, 'SIGKILL')));
    }
    this.running = child;
    this.flush();
    return child;
  }

  private attach(child: ChildProcessWithoutNullStreams): void {
    const { command, onStderr } = this.options;
    const limit = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE;
    const stdout = new LineFramer(limit);
    // stderr is only text to show: a line past the bound is cut, not fatal, and never held whole.
    const stderr = new LineFramer(STDERR_LINE_BYTES, 'cut');
    let spawned = false;
    let exit: { code: number | null; signal: string | null } | undefined;

    child.on('spawn', () => {
      spawned = true;
    });
    child.on('error', (error) => {
      if (!spawned) this.end(new McpSpawnFailedError(command, messageOf(error), { cause: error }));
      else this.warn(`server process error: ${messageOf(error)}`);
    });
    // A server that dies while we write gets EPIPE here; its exit is reported by 'close'.
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Uint8Array) => {
      let lines: string[];
      try {
        lines = stdout.push(chunk);
      } catch (error) {
        if (!(error instanceof LineTooLongError)) throw error;
        // Nothing after an oversized message can be framed reliably: stop listening.
        child.stdout.destroy();
        this.end(new McpProtocolError(`the server sent a message longer than maxMessageBytes (${limit})`, undefined, { limit }));
        return;
      }
      lines.forEach((line) => this.receive(line));
    });
    // A server that closes its stdout can never answer again, even if it keeps
    // running. (An exiting server closes it too, just before it exits: wait a moment.)
    child.stdout.once('end', () => {
      const check = setTimeout(() => {
        if (exit || this.closing || this.ended) return;
        stdout.end().forEach((line) => this.receive(line));
        this.end(this.gone(null, null, 'the server closed its stdout but kept running'));
      }, 250);
      check.unref();
    });
    child.stderr.on('data', (chunk: Uint8Array) => stderr.push(chunk).forEach((line) => this.keepStderr(line, onStderr)));

    const finish = (): void => {
      stdout.end().forEach((line) => this.receive(line));
      stderr.end().forEach((line) => this.keepStderr(line, onStderr));
      if (this.closing) this.end();
      else this.end(this.gone(exit?.code ?? null, exit?.signal ?? null));
    };
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // 'close' follows once stdout and stderr are drained. A grandchild that
      // inherited the pipes can hold them open forever, so do not wait long.
      const grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, this.options.killGraceMs ?? KILL_GRACE_MS);
      grace.unref();
      child.once('close', () => clearTimeout(grace));
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      if (spawned) finish();
    });
  }

  private receive(line: string): void {
    if (this.ended) return;
    const decoded = decodeLine(line);
    if (decoded.kind === 'invalid' && !this.spoken) {
      this.stray(line);
      if (this.ended) return;
    } else if (!this.spoken) {
      this.spoken = true;
      clearTimeout(this.bannerTimer);
    }
    if (decoded.kind === 'invalid') {
      this.warn(`skipped a stdout line that is not JSON-RPC (${decoded.reason}): ${JSON.stringify(line.slice(0, 200))}`);
      // A malformed answer still names its request: that call fails now instead of waiting out its budget.
      if (decoded.answers !== undefined) {
        this.failureSubject.next({ id: decoded.answers, error: new McpProtocolError(`the server sent a ${decoded.reason}`, undefined, { reason: decoded.reason }) });
      }
      return;
    }
    this.inboundSubject.next(decoded.message);
  }

  // A line that is not JSON-RPC before any that is: kept for the error, and
  // the banner's grace started (or, past its lines or with no grace, the end).
  private stray(line: string): void {
    if (this.stdoutHead.length < STDOUT_HEAD_CHARS) this.stdoutHead = `${this.stdoutHead}${this.stdoutHead ? '\n' : ''}${line}`.slice(0, STDOUT_HEAD_CHARS);
    const grace = this.options.bannerGraceMs ?? BANNER_GRACE_MS;
    this.strayLines += 1;
    this.strayBytes += line.length + 1;
    if (this.strayBytes > BANNER_BYTES || grace === 0) return this.notMcp(grace);
    if (this.bannerTimer === undefined) {
      this.bannerTimer = setTimeout(() => this.notMcp(grace), grace);
      this.bannerTimer.unref();
    }
  }

  // The server wrote only lines that are not MCP: it never will, so the connection ends and the process with it.
  private notMcp(grace: number): void {
    if (this.ended || this.closing) return;
    const lines = this.strayLines === 1 ? 'a line on stdout that is not MCP' : `${this.strayLines} lines on stdout that are not MCP`;
    const waited = grace === 0 || this.strayBytes > BANNER_BYTES ? 'before any MCP message' : `and no MCP message within ${grace} ms`;
    this.end(this.gone(null, null, `the server wrote ${lines} ${waited} (is it an MCP server?)`));
    void this.close();
  }

  // The error for a connection that ended for good; for a server that never spoke MCP, what it wrote instead.
  private gone(code: number | null, signal: string | null, what?: string): McpServerGoneError {
    const how = what ?? (this.spoken ? undefined : `${signal === null ? `the server exited with code ${code}` : `the server exited on signal ${signal}`} without sending an MCP message`);
    return new McpServerGoneError(code, signal, this.stderrTail.join('\n'), how, this.spoken || this.stdoutHead === '' ? undefined : this.stdoutHead);
  }

  private keepStderr(line: string, onStderr: ((line: string) => void) | undefined): void {
    this.stderrTail.push(line.length > MAX_STDERR_LINE ? line.slice(0, MAX_STDERR_LINE) + '…' : line);
    if (this.stderrTail.length > (this.options.stderrLines ?? 20)) this.stderrTail.shift();
    if (onStderr) {
      try {
        onStderr(line);
      } catch (error) {
        this.warn(`onStderr threw: ${messageOf(error)}`);
      }
    }
  }

  private end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.bannerTimer);
    if (error) this.inboundSubject.error(error);
    else this.inboundSubject.complete();
  }

  // What the hook throws stays out of the stream handler that warned.
  private warn(message: string): void {
    warnHook(this.options.onWarn)(message);
  }

  private async shutDown(): Promise<void> {
    const child = await this.child;
    if (!child) {
      this.end();
      return;
    }
    if (!this.ended && child.exitCode === null && child.signalCode === null) {
      const grace = this.options.killGraceMs ?? KILL_GRACE_MS;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      if (!(await settlesWithin(exited, grace))) {
        signalGroup(child, 'SIGTERM');
        if (!(await settlesWithin(exited, grace))) {
          signalGroup(child, 'SIGKILL');
          await settlesWithin(exited, grace);
        }
      }
    }
    // The server may be gone while something it started lives on in its group.
    signalGroup(child, 'SIGKILL');
    live.delete(child);
    this.end();
  }

}

function refuseNul(options: StdioTransportOptions): void {
  const { command } = options;
  const hasNul = (value: unknown): boolean => typeof value === 'string' && value.includes('\0');
  const where = hasNul(command)
    ? 'the command'
    : (options.args ?? []).some(hasNul)
      ? 'an argument'
      : hasNul(options.cwd)
        ? 'the working directory'
        : Object.entries(options.env ?? {}).some(([key, value]) => hasNul(key) || hasNul(value))
          ? 'an environment entry'
          : undefined;
  if (where) throw new McpSpawnFailedError(command, `${where} contains a NUL byte`);
}

/** Signals the child's whole process group (POSIX), or the child alone (Windows, or when the group is gone). */
function signalGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Nothing left to signal.
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

