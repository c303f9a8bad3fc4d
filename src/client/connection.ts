import { BehaviorSubject, defer, distinctUntilChanged, from, mergeMap, Observable, share, type Subscription, tap } from 'rxjs';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';
import type { ResultCache } from './cache.js';
import type { CallInputs } from './calls/call-inputs.js';
import type { Deadlines } from '../util/deadlines.js';
import type { OutputSchemas } from './calls/output-schemas.js';
import type { Correlator } from './correlator.js';
import type { LogLevel } from './log-level.js';
import type { Settings } from './settings.js';
import { serveServerRequests } from './questions/server-requests.js';
import { askingServerOf } from './questions/asking-server.js';
import { probe, type Session } from './session.js';
import { type ProgressTokens, watchNotifications } from './streams.js';
import type { TaskCalls } from './tasks/task-calls.js';
import type { RequestTracer } from './tracing/request-tracer.js';

/** Where a connection stands, for a user interface: see `McpClient.state$`. */
export type ConnectionState = 'starting' | 'ready' | 'restarting' | 'closed';

/** What a connection needs from its client. */
export interface ConnectionContext {
  settings: Settings;
  transport: Transport;
  correlator: Correlator;
  notifications$: Observable<JsonRpcNotification>;
  cache: ResultCache;
  deadlines: Deadlines;
  inputs: CallInputs;
  tokens: ProgressTokens;
  tasks: TaskCalls;
  outputs: OutputSchemas;
  /** The log level in force, read by each probe (see `LogLevel`). */
  logLevel: LogLevel;
  /** The client's tracing, when it traces. */
  tracer: RequestTracer | undefined;
}

/**
 * One client's connection over its life: the probe every call waits on, the
 * session it finds (forgotten when the server restarts), where the
 * connection stands, the watchers begun with the first call, and the close.
 * The client owns one.
 */
export class Connection {
  /** The session, once the era is known; undefined again after a restart. */
  session: Session | undefined = undefined;
  /** Set once `close()` was called: what it is waiting for. */
  closing: Promise<void> | undefined = undefined;
  /** The shared probe that finds the session. */
  readonly probing$: Observable<Session>;
  /** See `McpClient.state$`. */
  readonly state$: Observable<ConnectionState>;
  private readonly state = new BehaviorSubject<ConnectionState>('starting');
  private watching: Subscription | undefined = undefined;
  // A wire that does not say is taken to carry the server's own messages whenever it is up.
  private hearing = true;

  constructor(private readonly context: ConnectionContext) {
    const { settings, transport, correlator, deadlines, cache } = context;
    // One probe shared by every caller waiting for it. If they all leave, the
    // unfinished probe is abandoned (share's reference count) and the next
    // call starts afresh; a failed probe is not kept either. The verdict, once
    // reached, is kept until the connection ends or its server restarts.
    this.probing$ = defer(() => {
      this.watch();
      const probing = probe({
        ...settings,
        logLevel: context.logLevel.current,
        // HTTP+SSE carries only the handshake era: no server there knows server/discover.
        era: settings.era ?? (transport.wire === 'sse' ? 'legacy' : undefined),
        clientCapabilities: settings.declaredCapabilities,
        handshakeTimeoutMs: settings.requestTimeoutMs,
        after: (ms) => new Observable<void>((subscriber) => deadlines.add(ms, () => subscriber.next())),
        request: (method, build, sendOptions) => correlator.request(method, build, sendOptions),
        notify: (message) => correlator.send(message),
      });
      // The OpenTelemetry API is looked for when the client is made: the first
      // probe waits for the answer (a moment), so that its requests are traced too.
      const lookup = context.tracer?.pending;
      return lookup === undefined ? probing : from(lookup).pipe(mergeMap(() => probing));
    }).pipe(
      tap((session) => {
        this.session = session;
        this.state.next('ready');
      }),
      share(),
    );

    this.state$ = this.state.pipe(distinctUntilChanged());
    // A person signing in is not the server being slow: call budgets wait.
    transport.auth$?.subscribe((auth) => (auth.state === 'signing-in' ? deadlines.pause() : deadlines.resume()));
    const ended = () => this.setClosed();
    context.notifications$.subscribe({ error: ended, complete: ended });
    // A fresh server process knows nothing of the old session: forget it, and
    // what was cached from it. The next call probes again.
    transport.restarts$?.subscribe(() => {
      this.session = undefined;
      cache.clear();
      this.state.next('restarting');
    });
    // A list kept until the server says it changed is kept only while it can
    // say so: once it cannot, a change might go unheard, and lists are read again.
    transport.unsolicited$?.subscribe((open) => {
      this.hearing = open;
      if (!open) cache.dropKeptLists();
    });
  }

  /** Whether the server's messages outside any request (a list change) can reach the client now (see `Transport.unsolicited$`). */
  get hearsServer(): boolean {
    return this.hearing;
  }

  /** True between a server's restart and the next successful probe. */
  get restarting(): boolean {
    return this.state.value === 'restarting';
  }

  /** See `McpClient.close`. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const { correlator, cache, deadlines, transport } = this.context;
      this.setClosed();
      correlator.close();
      this.watching?.unsubscribe();
      cache.clear();
      deadlines.clear();
      await transport.close();
    })();
    return this.closing;
  }

  private setClosed(): void {
    if (this.state.value === 'closed') return;
    this.state.next('closed');
    this.state.complete();
  }

  // Started with the first call: answers a legacy server's questions, and
  // feeds onLog, onProgress and cache invalidation from the notifications.
  private watch(): void {
    if (this.watching) return;
    const { settings, correlator, notifications$, transport, inputs, cache, tokens, tasks, outputs } = this.context;
    const { declaredCapabilities, onLog, onProgress, warn } = settings;
    this.watching = serveServerRequests({
      requests$: correlator.serverRequests$,
      notifications$,
      send: (message) => correlator.send(message),
      hooksFor: (request) => inputs.hooksFor(transport.carrierOf?.(request)),
      carrierOf: (request) => transport.carrierOf?.(request),
      abandoned$: correlator.abandoned$,
      declared: declaredCapabilities,
      warn,
      server: () => askingServerOf(this.session?.description.serverInfo, settings.asker.prefix),
      restarts$: transport.restarts$,
    });
    this.watching.add(watchNotifications({ notifications$, cache, tokens, onLog, onProgress, warn }));
    this.watching.add(tasks.watch());
    this.watching.add(outputs.watch(notifications$));
  }
}
