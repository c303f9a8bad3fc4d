import { type Observable, type Observer, Subject, type Subscription } from 'rxjs';
import { messageOf } from '../util/values.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpServerGoneError } from '../errors/transport-errors.js';
import { type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import { checkCount, checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { StdioTransport, type StdioTransportOptions } from './stdio-transport.js';
import type { RequestFailure, Transport } from './transport.js';
import { DEFAULT_MAX_RECONNECT_DELAY_MS, STABLE_STREAM_MS } from './reconnect-backoff.js';

/** When and how often a stdio server that exits unexpectedly is started again. */
export interface RestartOptions {
  /** How many restarts in a row (without an answer in between) before giving up. */
  maxAttempts: number;
  /**
   * The wait before the first restart (default 500), doubled for each further
   * server in a row that exited within 10 s of starting, up to 30 s: answers
   * reset the give-up count, not the wait.
   */
  delayMs?: number;
}

const RESTART_OPTION_KEYS = keysOf<RestartOptions>({ maxAttempts: true, delayMs: true });

/**
 * A stdio transport that starts its server again when it exits
 * unexpectedly: the calls in flight fail with `McpServerGoneError`, and the
 * next message starts a fresh process (after `delayMs`, doubling while the
 * servers keep exiting soon after they started, up to a cap). After
 * `maxAttempts` restarts with no answer in between it gives up, and every later call fails with the last exit's
 * error. `restarts$` tells the client, which then probes the era again.
 */
export class RestartingTransport implements Transport {
  private readonly inboundSubject = new Subject<JsonRpcMessage>();
  private readonly failureSubject = new Subject<RequestFailure>();
  private readonly restartSubject = new Subject<void>();
  private readonly inFlight = new Set<RequestId>();
  private current: StdioTransport | undefined;
  private subscription: Subscription | undefined;
  private attempts = 0;
  /** Servers in a row that exited within STABLE_STREAM_MS of starting: they pace the restarts. */
  private quick = 0;
  private startedAt = 0;
  private notBefore = 0;
  private closed = false;
  private gaveUp: McpServerGoneError | undefined;

  readonly inbound: Observable<JsonRpcMessage> = this.inboundSubject.asObservable();
  /** Messages travel on the child process's stdin and stdout. */
  readonly wire = 'stdio' as const;
  readonly failures$: Observable<RequestFailure> = this.failureSubject.asObservable();
  /** Emits each time the server died and will be started afresh. */
  readonly restarts$: Observable<void> = this.restartSubject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => void this.send(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(
    private readonly options: StdioTransportOptions,
    private readonly restart: RestartOptions,
  ) {
    refuseUnknown(restart, RESTART_OPTION_KEYS);
    if (restart.maxAttempts === undefined) throw new McpClientError('option restart needs maxAttempts');
    checkCount('restart.maxAttempts', restart.maxAttempts, 0);
    checkTimerDuration('restart.delayMs', restart.delayMs, 0);
    // Checks the options (NUL bytes, unknown keys) now, as a plain StdioTransport does.
    this.current = new StdioTransport(options);
  }

  /** The running server's process id. */
  get pid(): number | undefined {
    return this.current?.pid;
  }

  cancel(id: RequestId, reason?: string): void {
    this.inFlight.delete(id);
    this.current?.cancel(id, reason);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.unsubscribe();
    await this.current?.close();
    this.inboundSubject.complete();
    this.restartSubject.complete();
    this.failureSubject.complete();
  }

  private async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed || this.gaveUp) return;
    if (kindOf(message) === 'request') this.inFlight.add((message as JsonRpcRequest).id);
    const wait = this.notBefore - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (this.closed || this.gaveUp) return;
    this.current ??= new StdioTransport(this.options);
    if (!this.subscription) {
      this.startedAt = Date.now();
      this.subscription = this.current.inbound.subscribe({
        next: (inbound) => {
          // An answer proves the server runs: the next exit counts from one again.
          if (kindOf(inbound) === 'response' && this.inFlight.delete((inbound as JsonRpcResponse).id as RequestId)) this.attempts = 0;
          this.inboundSubject.next(inbound);
        },
        error: (error: Error) => this.died(error),
      });
      this.subscription.add(this.current.failures$.subscribe((failure) => this.failureSubject.next(failure)));
    }
    try {
      this.current.outbound.next(message);
    } catch (error) {
      // Sent after a wait, so no caller is on the stack to throw to: the request fails alone.
      if (kindOf(message) !== 'request') return;
      const { id, method } = message as JsonRpcRequest;
      this.inFlight.delete(id);
      this.failureSubject.next({ id, error: new McpClientError(`${method} could not be sent: ${messageOf(error)}`, { cause: error }) });
    }
  }

  // The server is gone. Unless the restarts are used up, say so on
  // restarts$ first (the client forgets the session and re-opens listen
  // streams before their old requests fail), then fail what was in flight.
  // Giving up ends `inbound`, which fails every call, now and later.
  private died(error: Error): void {
    this.subscription = undefined;
    void this.current?.close();
    this.current = undefined;
    const inFlight = [...this.inFlight];
    this.inFlight.clear();
    if (this.closed) return;
    if (this.attempts >= this.restart.maxAttempts) {
      const gone = error instanceof McpServerGoneError ? error : undefined;
      const what = `the server kept exiting; gave up after ${this.attempts} restarts`;
      this.gaveUp = new McpServerGoneError(gone?.exitCode ?? null, gone?.signal ?? null, gone?.stderrTail ?? '', what);
      this.inboundSubject.error(this.gaveUp);
      return;
    }
    this.attempts++;
    // A server that answers the handshake and exits, every time, resets the
    // count each time: the wait still grows, so it cannot make the client
    // start processes as fast as they exit, for ever.
    this.quick = Date.now() - this.startedAt < STABLE_STREAM_MS ? this.quick + 1 : 1;
    const delay = this.restart.delayMs ?? 500;
    this.notBefore = Date.now() + Math.min(Math.max(delay, DEFAULT_MAX_RECONNECT_DELAY_MS), delay * 2 ** (this.quick - 1));
    this.restartSubject.next();
    for (const id of inFlight) this.failureSubject.next({ id, error });
  }
}
