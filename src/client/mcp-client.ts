import {
  BehaviorSubject,
  catchError,
  defer,
  distinctUntilChanged,
  EMPTY,
  filter,
  finalize,
  firstValueFrom,
  map,
  NEVER,
  Observable,
  of,
  share,
  startWith,
  switchMap,
  type Subscriber,
  type Subscription,
  tap,
  type TeardownLogic,
  throwError,
} from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import { buildRequest } from '../protocol/request.js';
import { type PageShape, promptPage, resourcePage, resourceTemplatePage, toolPage } from '../protocol/page-shapes.js';
import { callToolResultSchema, completeResultSchema, getPromptResultSchema, readResourceResultSchema } from '../protocol/schemas.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  ListenFilter,
  LogMessage,
  ProgressEvent,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerDescription,
  Tool,
  ToolAnnotations,
} from '../protocol/types.js';
import type { Task, TaskEvent } from '../protocol/tasks.js';
import { ErrorCode } from '../protocol/versions.js';
import { STDIO_OPTION_KEYS, StdioTransport, type StdioTransportOptions } from '../transport/stdio-transport.js';
import { HTTP_OPTION_KEYS, type HttpTransportOptions } from '../transport/http-options.js';
import { HttpTransport } from '../transport/http-transport.js';
import { RestartingTransport, type RestartOptions } from '../transport/restarting-transport.js';
import type { Transport } from '../transport/transport.js';
import { checkDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { quote } from '../util/quote.js';
import { messageOf } from '../util/values.js';
import { VERSION } from '../version.js';
import { ResultCache } from './cache.js';
import { checkCallHooks } from '../protocol/input-request.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { SERVER_ANNOTATIONS, withoutHints } from '../tools/annotation-trust.js';
import { type LlmTool, type LlmToolCall, runToolCalls, toLlmTools, type ToolMessage, type ExecuteOptions } from '../tools/bridge.js';
import { type CallInput, CallInputs } from './calls/call-inputs.js';
import { CallPipeline } from './calls/call-pipeline.js';
import { BodyCall, type CallBounds } from './calls/call-guard.js';
import { Correlator } from './correlator.js';
import { Deadlines } from './calls/deadlines.js';
import { listenLegacy, listenModern, ResourceSubscriptions } from './listen.js';
import {
  CALL_KEYS as CALL,
  CALL_TOOL_KEYS as CALL_TOOL,
  type CallOptions,
  type CallToolAsTaskOptions,
  type CallToolOptions,
  checkCallOptions,
  type ClientOptions,
  type CompleteOptions,
  INPUT_CALL_KEYS as INPUT_CALL,
  type InputCallOptions,
  type ListOptions,
  type McpClientOptions,
  resolveOptions,
  type ResumeTaskOptions,
  splitOptions,
  type Settings,
} from './options.js';
import { OutputSchemas } from './calls/output-schemas.js';
import { walkPages } from './pagination.js';
import { serveServerRequests } from './questions/server-requests.js';
import { probe, type Session } from './session.js';
import { logOf, progressOf, ProgressTokens, watchNotifications } from './streams.js';
import { TaskCalls } from './tasks/task-calls.js';
import { startToolCall, ToolCall, type ToolCallHost } from './calls/tool-call.js';
import { hasUnreadableVisibility, visibleTools } from '../tools/tool-visibility.js';

/** Options of `McpClient.connectStdio`: the client's own, and the stdio transport's. */
export interface ConnectStdioOptions extends ClientOptions, StdioTransportOptions {
  /** Start the server again when it exits unexpectedly (off by default). */
  restart?: RestartOptions;
}

/** Where a connection stands, for a user interface: see `McpClient.state$`. */
export type ConnectionState = 'starting' | 'ready' | 'restarting' | 'closed';

/** Options of `McpClient.connectHttp`: the client's own, and the HTTP transport's. */
export interface ConnectHttpOptions extends ClientOptions, HttpTransportOptions {}

const CONNECT_STDIO_KEYS = [...STDIO_OPTION_KEYS, 'restart'];
const TRANSPORT_OPTION_KEYS = [...CONNECT_STDIO_KEYS, ...HTTP_OPTION_KEYS];

const LIST = [...CALL, 'refresh'];

/** With `resetTimeoutOnProgress` and no `maxTotalTimeoutMs`, a call ends after this many of its budgets, progress or not. */
const PROGRESS_CAP_BUDGETS = 10;
// A tool call's options when it is given none: one shared, frozen object
// rather than a fresh `{}` (56 bytes) on the path every call takes.
const NO_CALL_OPTIONS: CallToolOptions = Object.freeze({});

type Meta = Record<string, unknown> | undefined;

/**
 * A client for one MCP server, of either protocol era.
 *
 * Construction is synchronous and sends nothing. The first call that needs to
 * know probes the server's era (once per connection, however many calls race
 * to need it) and every later call reuses the verdict.
 *
 * Every protocol call returns a cold Observable: nothing is sent until it is
 * subscribed, each subscription is one call, and unsubscribing cancels it.
 * Scripts `await firstValueFrom(...)`; user interfaces subscribe.
 *
 * @example
 * ```ts
 * const mcp = McpClient.connectStdio({ command: 'node', args: ['server.js'] });
 * const tools = await firstValueFrom(mcp.listTools());
 * const result = await firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
 * await mcp.close();
 * ```
 */
export class McpClient {
  /**
   * Starts a server as a child process (no shell) and returns a client for it.
   * The process starts with the first call.
   *
   * @throws McpClientError for an option neither the client nor the transport knows.
   * @throws McpSpawnFailedError when the command line or environment holds a NUL byte.
   * @example
   * ```ts
   * // Start the server again if it crashes, at most 3 times in a row.
   * const mcp = McpClient.connectStdio({ command: 'srv', restart: { maxAttempts: 3, delayMs: 500 } });
   * mcp.state$.subscribe((state) => badge.textContent = state);
   * ```
   */
  static connectStdio(options: ConnectStdioOptions): McpClient {
    const [client, { restart, ...stdio }] = splitOptions(options, CONNECT_STDIO_KEYS);
    const transport = restart
      ? new RestartingTransport(stdio as unknown as StdioTransportOptions, restart as RestartOptions)
      : new StdioTransport(stdio as unknown as StdioTransportOptions);
    return new McpClient({ ...client, transport });
  }

  /**
   * Talks to an MCP server over HTTP: Streamable HTTP in either era, or
   * HTTP+SSE (2024-11-05), found by trying unless `httpTransport` names it.
   * Nothing is sent until the first call.
   *
   * @throws McpClientError for an option neither the client nor the transport knows, or a bad URL.
   */
  static connectHttp(options: ConnectHttpOptions): McpClient {
    const [client, http] = splitOptions(options, HTTP_OPTION_KEYS);
    return new McpClient({ ...client, transport: new HttpTransport(http as unknown as HttpTransportOptions) });
  }

  /** Every notification the server sends, hot: subscribers see what arrives after they subscribe. Completes on `close()`. */
  readonly notifications$: Observable<JsonRpcNotification>;

  /** Every progress report (`notifications/progress`), hot. Reports arrive before the answer they belong to. */
  readonly progress$: Observable<ProgressEvent>;

  /** Every log message (`notifications/message`), hot. A modern server sends them only with `logLevel` set. */
  readonly log$: Observable<LogMessage>;

  /**
   * Where the connection stands, replayed to each subscriber: `starting`
   * until the first probe succeeds, `ready`, `restarting` between a crash
   * and the next successful probe (with `restart`, or when an HTTP+SSE
   * server drops its event stream, which ends its session), and `closed` after
   * `close()` or when the server is gone for good. Completes when closed.
   */
  readonly state$: Observable<ConnectionState>;

  /**
   * Where signing in stands, hot (for a transport given `auth`; otherwise it
   * never emits): `signing-in` with the URL a person must visit, then
   * `signed-in` or `failed`; `refreshing` while a token is renewed without
   * asking anyone. While it says `signing-in`, call budgets stand still.
   */
  readonly auth$: Observable<AuthState>;

  /** The capabilities this client declares to servers. */
  readonly declaredCapabilities: ClientCapabilities;

  private readonly transport: Transport;
  private readonly settings: Settings;
  private readonly correlator: Correlator;
  private readonly calls: CallPipeline;
  private readonly tasks: TaskCalls;
  private readonly outputs: OutputSchemas;
  private readonly probing$: Observable<Session>;
  private session: Session | undefined;
  private readonly cache = new ResultCache();
  private readonly deadlines = new Deadlines();
  private readonly tokens = new ProgressTokens();
  private readonly inputs: CallInputs;
  private readonly resourceSubscriptions = new ResourceSubscriptions();
  private readonly names = new NameMapper();
  private readonly state = new BehaviorSubject<ConnectionState>('starting');
  private watching: Subscription | undefined;
  private closing: Promise<void> | undefined;
  // What every bounded call reads of this client, one object for all of them.
  private readonly host: ToolCallHost;
  // The bounds of a call given no options: the client's budget, nothing else.
  private readonly plainBounds: CallBounds;
  private unreadableWarned = '';

  /**
   * @throws McpClientError for an unknown option, a transport option given with a ready `transport`, or a bad value.
   * @throws McpUnsupportedVersionError when `protocolVersions` names a version this client does not speak.
   */
  constructor(options: McpClientOptions) {
    const settings = resolveOptions(options, TRANSPORT_OPTION_KEYS, VERSION);
    this.settings = settings;
    this.transport = options.transport;
    this.declaredCapabilities = settings.declaredCapabilities;
    this.correlator = new Correlator(this.transport, settings.warn, settings.maxPendingRequests);
    // A wire that reads lists of its own keeps to the same bounds.
    this.transport.limitLists?.(settings.listLimits);
    this.calls = new CallPipeline(this.correlator, this.cache, settings);
    this.inputs = new CallInputs(settings.hooks);
    this.outputs = new OutputSchemas(settings.validateStructuredContent);
    this.notifications$ = this.correlator.notifications$;
    this.progress$ = progressOf(this.notifications$);
    this.log$ = logOf(this.notifications$);
    this.tasks = new TaskCalls({
      settings,
      notifications$: this.notifications$,
      request: (session, method, params, input) =>
        this.correlator.request(method, (id) => {
          input?.requests.add(id);
          return buildRequest(id, method, params, session.stamp);
        }),
      callTool: (session, params, meta, input) => this.calls.run(session, 'tools/call', params, meta, callToolResultSchema, false, true, input),
      run: (method, options, allowed, body) => this.run(method, options, allowed, body),
      toolCall: (options, body) => this.toolCall(options, body),
      listTools: () => this.listTools(),
      outputCheck: (session, name) => this.outputs.checkFor(session, name),
    });

    // One probe shared by every caller waiting for it. If they all leave, the
    // unfinished probe is abandoned (share's reference count) and the next
    // call starts afresh; a failed probe is not kept either. The verdict, once
    // reached, is kept until the connection ends or its server restarts.
    this.probing$ = defer(() => {
      this.watch();
      return probe({
        ...settings,
        // HTTP+SSE carries only the handshake era: no server there knows server/discover.
        era: settings.era ?? (this.transport.wire === 'sse' ? 'legacy' : undefined),
        clientCapabilities: settings.declaredCapabilities,
        handshakeTimeoutMs: settings.requestTimeoutMs,
        after: (ms) => new Observable<void>((subscriber) => this.deadlines.add(ms, () => subscriber.next())),
        request: (method, build, sendOptions) => this.correlator.request(method, build, sendOptions),
        notify: (message) => this.correlator.send(message),
      });
    }).pipe(
      tap((session) => {
        this.session = session;
        this.state.next('ready');
      }),
      share(),
    );
    this.plainBounds = Object.freeze(this.bounds(NO_CALL_OPTIONS, undefined, undefined));
    this.host = new ClientHost(
      () => this.closing !== undefined,
      () => this.session,
      this.probing$,
      this.deadlines,
      this.calls,
      this.outputs,
    );

    this.state$ = this.state.pipe(distinctUntilChanged());
    this.auth$ = this.transport.auth$ ?? NEVER;
    // A person signing in is not the server being slow: call budgets wait.
    this.transport.auth$?.subscribe((auth) => (auth.state === 'signing-in' ? this.deadlines.pause() : this.deadlines.resume()));
    const ended = () => this.setClosed();
    this.notifications$.subscribe({ error: ended, complete: ended });
    // A fresh server process knows nothing of the old session: forget it, and
    // what was cached from it. The next call probes again.
    this.transport.restarts$?.subscribe(() => {
      this.session = undefined;
      this.cache.clear();
      this.state.next('restarting');
    });
  }

  /**
   * Describes the server: its era, protocol version, identity, capabilities,
   * instructions, and the wire it is reached on. The first subscription runs
   * the probe; later ones replay its verdict.
   */
  describe(options: CallOptions = {}): Observable<ServerDescription> {
    return this.run('describe', options, CALL, (session) => {
      const { wire } = this.transport;
      return of(wire === undefined ? session.description : { ...session.description, wire });
    });
  }

  /** Lists every tool, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listTools(options: ListOptions = {}): Observable<Tool[]> {
    return this.list<Tool>('tools/list', 'tools', toolPage, options);
  }

  /** Lists every resource, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listResources(options: ListOptions = {}): Observable<Resource[]> {
    return this.list<Resource>('resources/list', 'resources', resourcePage, options);
  }

  /** Lists every resource template, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listResourceTemplates(options: ListOptions = {}): Observable<ResourceTemplate[]> {
    return this.list<ResourceTemplate>('resources/templates/list', 'resourceTemplates', resourceTemplatePage, options);
  }

  /** Lists every prompt, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listPrompts(options: ListOptions = {}): Observable<Prompt[]> {
    return this.list<Prompt>('prompts/list', 'prompts', promptPage, options);
  }

  /**
   * Calls a tool. A tool that fails reports `isError: true` in its result,
   * which is returned as a value; only protocol and transport failures error.
   * A server that asks for input first is answered through the hooks, and the
   * final result comes back however many rounds it took.
   *
   * With the client option `tasks`, a call that becomes a task (the modern
   * server's choice; on a legacy server, a tool whose `execution.taskSupport`
   * is `required`, or `optional` with `task` set, as its `tools/list` said
   * once per session) is followed to its result, and ending the call early
   * (unsubscribing, its timeout, its signal) cancels the task. A task that
   * fails or is cancelled errors with `McpTaskError`.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = NO_CALL_OPTIONS): Observable<CallToolResult> {
    if (this.settings.tasks) return this.tasks.callTool(name, args, options);
    return this.beginToolCall<CallToolResult>(options, { name, arguments: args });
  }

  /**
   * Calls a tool and streams its task: `{ kind: 'status', task }` for each
   * state seen, then `{ kind: 'result', task, result }`, then completes. A
   * call the server answers directly emits one `result` with no `task`.
   * Unsubscribing cancels the task, unless `detach` is set: then it goes on,
   * and `task.taskId` is the handle for `resumeTask`. Needs the client option
   * `tasks`. The call's `timeoutMs` covers the whole task (0 = none).
   *
   * @throws McpClientError (as the Observable's error) without the client option `tasks`.
   * @example
   * ```ts
   * mcp.callToolAsTask('simulate-research-query', { topic: 'rust' }, { timeoutMs: 0 }).subscribe((event) => {
   *   if (event.kind === 'status') console.log(event.task.status, event.task.statusMessage);
   *   else console.log(event.result.content);
   * });
   * ```
   */
  callToolAsTask(name: string, args: Record<string, unknown> = {}, options: CallToolAsTaskOptions = {}): Observable<TaskEvent> {
    return this.tasks.callToolAsTask(name, args, options);
  }

  /**
   * Follows a task that already exists, from this client or another client
   * of the same server (where the server keeps tasks across connections):
   * the same stream as `callToolAsTask`, starting from the task's current
   * state. Unsubscribing cancels the task unless `detach` is set.
   */
  resumeTask(taskId: string, options: ResumeTaskOptions = {}): Observable<TaskEvent> {
    return this.tasks.resumeTask(taskId, options);
  }

  /** Asks the server to cancel a task; emits once the server acknowledged it. Cancelling is cooperative: the server decides. */
  cancelTask(taskId: string, options: CallOptions = {}): Observable<void> {
    return this.tasks.cancelTask(taskId, options);
  }

  /**
   * Lists the server's tasks, following pages to the end (2025-11-25; the
   * 2026-07-28 extension has no `tasks/list`, so a modern server answers
   * with an error).
   */
  listTasks(options: CallOptions = {}): Observable<Task[]> {
    return this.tasks.listTasks(options);
  }

  /** Reads a resource by URI; a server that asks for input first is answered through the hooks (`input`, or the client's). */
  readResource(uri: string, options: InputCallOptions = {}): Observable<ReadResourceResult> {
    return this.asking('resources/read', options, (session, input) =>
      this.calls.run<ReadResourceResult>(session, 'resources/read', { uri }, options.meta, readResourceResultSchema, false, false, input),
    );
  }

  /** Renders a prompt with its arguments; a server that asks for input first is answered through the hooks (`input`, or the client's). */
  getPrompt(name: string, args: Record<string, string> = {}, options: InputCallOptions = {}): Observable<GetPromptResult> {
    return this.asking('prompts/get', options, (session, input) =>
      this.calls.run<GetPromptResult>(session, 'prompts/get', { name, arguments: args }, options.meta, getPromptResultSchema, false, false, input),
    );
  }

  /** Asks for completion candidates for a prompt argument or a resource-template variable. */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: CompleteOptions = {},
  ): Observable<CompleteResult> {
    const params = options.context ? { ref, argument, context: options.context } : { ref, argument };
    return this.run('completion/complete', options, [...CALL, 'context'], (session) =>
      this.calls.run<CompleteResult>(session, 'completion/complete', params, options.meta, completeResultSchema),
    );
  }

  /**
   * Pings the server: `true` when it answered, `false` when it does not know
   * the method. The 2026-07-28 revision removed ping, so a server of that era
   * answers "method not found" and this gives `false` however healthy the
   * server is (the request still makes its round trip); only on a 2025-11-25
   * or older server does it say the server is alive. Any other failure errors.
   */
  ping(options: CallOptions = {}): Observable<boolean> {
    return this.run('ping', options, CALL, (session) =>
      this.correlator.request('ping', (id) => buildRequest(id, 'ping', undefined, session.stamp, options.meta)).pipe(
        map(() => true),
        catchError((error: unknown) =>
          error instanceof McpProtocolError && error.code === ErrorCode.MethodNotFound ? of(false) : throwError(() => error),
        ),
      ),
    );
  }

  /**
   * What the server said about one of its tools, from its catalogue, as far
   * as the client trusts it: its hints (`readOnlyHint`, …) only with
   * `trustAnnotations: true`, else the title alone (`listTools` shows all it
   * sent). `undefined` for no such tool, or nothing left to say.
   */
  toolAnnotations(name: string, options: ListOptions = {}): Observable<ToolAnnotations | undefined> {
    const said = this[SERVER_ANNOTATIONS](name, options);
    return this.settings.trustAnnotations ? said : said.pipe(map(withoutHints));
  }

  /** The tool's annotations as the server sent them, for a layer the user marked trusted (see `annotation-trust.ts`). */
  [SERVER_ANNOTATIONS](name: string, options: ListOptions = {}): Observable<ToolAnnotations | undefined> {
    return this.listTools(options).pipe(map((tools) => tools.find((tool) => tool.name === name)?.annotations));
  }

  /**
   * The server's tools as function declarations for an LLM (OpenAI style),
   * under names every major model API accepts unless `options.names` says
   * otherwise: a name that fits is unchanged, one that does not is mapped
   * (see `toolNames`), and `executeToolCalls` reads the mapped names back.
   * Tools meant for an MCP App's view alone (`_meta.ui.visibility` without
   * `"model"`, or a visibility that cannot be read) are left out.
   *
   * @throws McpClientError (as a rejection) for an invalid `options.names`.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const tools = await firstValueFrom(this.listTools());
    return this.names.show(toLlmTools(visibleTools(tools, 'model')), options.names);
  }

  /**
   * Runs the tool calls a model made and answers each, in order. Never
   * rejects; every failure is an `is_error` message. Serial, unless the
   * server's annotations are trusted (`trustAnnotations`, or a `Registry`
   * entry marked so) and every call names a tool it annotated read-only and
   * idempotent: then up to `toolConcurrency` run at once and identical calls
   * run once. With
   * the client's `onProgress` or the batch's, each call's progress is
   * reported under its id; the batch's `input` answers the calls' questions
   * as `callTool`'s `input` does.
   */
  executeToolCalls(calls: LlmToolCall[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
    return runToolCalls(
      {
        catalogue: () => firstValueFrom(this.listTools()),
        call: (name, args, { toolCallId, signal, onProgress, input }) => {
          const given: CallToolOptions = { toolCallId };
          if (signal) given.signal = signal;
          if (input) given.input = input;
          if (onProgress) given.onProgress = ({ progressToken: _token, ...report }) => onProgress({ toolCallId, ...report });
          return firstValueFrom(this.callTool(name, args, given));
        },
        concurrency: this.settings.toolConcurrency,
        trustAnnotations: this.settings.trustAnnotations,
        names: this.names,
        owner: this,
      },
      calls,
      options,
    );
  }

  /**
   * Listens for change notifications: tools, prompts or resources lists that
   * changed, and updates of the resources named. Modern servers: one
   * `subscriptions/listen` request that stays open (unsubscribing closes it;
   * a server that ends it completes the Observable). Legacy servers: the
   * session's own notifications, with `resources/subscribe` for the URIs.
   * No timeout applies unless `timeoutMs` is given.
   *
   * @example
   * ```ts
   * mcp.listen({ toolsListChanged: true })
   *   .pipe(switchMap(() => mcp.listTools({ refresh: true })))
   *   .subscribe((tools) => render(tools));
   * ```
   */
  listen(wanted: ListenFilter, options: CallOptions = {}): Observable<JsonRpcNotification> {
    refuseUnknown(wanted, ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions']);
    const context = {
      notifications$: this.notifications$,
      // A listener torn down by a restart has nothing to undo on the new
      // server, and must not send it requests before the new probe.
      request: (method: string, build: (id: RequestId) => JsonRpcRequest) =>
        this.state.value === 'restarting' ? EMPTY : this.correlator.request(method, build),
      warn: this.settings.warn,
    };
    const open = this.run('subscriptions/listen', { timeoutMs: 0, ...options }, CALL, (session) =>
      session.description.era === 'modern'
        ? listenModern(context, session.stamp, wanted)
        : listenLegacy(context, session.stamp, wanted, this.resourceSubscriptions),
    );
    // After a restart the stream is opened again on the fresh server; the
    // restart is announced before the old request fails, so that failure
    // never reaches the subscriber.
    const restarts$ = this.transport.restarts$;
    return restarts$ ? restarts$.pipe(startWith(undefined), switchMap(() => open)) : open;
  }

  /**
   * Closes the connection: every pending call fails with
   * `McpTransportClosedError`, `notifications$` completes, and the transport
   * shuts down (for stdio: stdin closed, then SIGTERM and SIGKILL after
   * `killGraceMs` each). Idempotent; safe on a connection whose server died.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.setClosed();
      this.correlator.close();
      this.watching?.unsubscribe();
      this.cache.clear();
      this.deadlines.clear();
      await this.transport.close();
    })();
    return this.closing;
  }

  private run<T>(
    method: string,
    options: CallOptions,
    allowed: readonly string[],
    body: (session: Session) => Observable<T>,
    bounds: Omit<CallBounds, 'timeoutMs' | 'signal'> = {},
  ): Observable<T> {
    checkCallOptions(options, allowed);
    return this.bounded<T>(method, options, (session, subscriber) => body(session).subscribe(subscriber), bounds.activity$, bounds.maxTotalTimeoutMs);
  }

  // A call other than a tool call that may ask for input: with hooks of its
  // own, filed (as a tool call's are) for its whole life.
  private asking<T>(method: string, options: InputCallOptions, body: (session: Session, input: CallInput | undefined) => Observable<T>): Observable<T> {
    checkCallOptions(options, INPUT_CALL);
    checkCallHooks(options);
    const { input } = options;
    const call = (filed?: CallInput): Observable<T> => this.bounded<T>(method, options, (session, subscriber) => body(session, filed).subscribe(subscriber));
    if (!input) return call();
    return defer(() => {
      const filed = this.inputs.open(input);
      return call(filed).pipe(finalize(() => this.inputs.close(filed)));
    });
  }

  // A call whose options are checked: bounded, and begun once the era is known.
  private bounded<T>(
    method: string,
    options: CallOptions,
    begin: (session: Session, subscriber: Subscriber<T>) => TeardownLogic,
    activity$?: Observable<unknown>,
    maxTotalTimeoutMs?: number,
  ): Observable<T> {
    return new BodyCall<T>(this.host, method, this.bounds(options, activity$, maxTotalTimeoutMs), begin);
  }

  // A call's bounds from its options.
  private bounds(options: CallOptions, activity$: Observable<unknown> | undefined, maxTotalTimeoutMs: number | undefined): CallBounds {
    const timeoutMs = checkDuration('timeoutMs', options.timeoutMs, this.settings.requestTimeoutMs);
    // A budget that progress restarts still ends: by default at ten budgets in all.
    const cap = maxTotalTimeoutMs ?? (activity$ ? PROGRESS_CAP_BUDGETS * timeoutMs : undefined);
    return { timeoutMs, signal: options.signal, activity$, maxTotalTimeoutMs: cap };
  }

  // The shared part of every tool call, tasks or not: options, and the
  // progress token minted when progress is wanted but none was given.
  private toolCall<T>(options: CallToolOptions, body: (session: Session, meta: Meta, input: CallInput | undefined) => Observable<T>): Observable<T> {
    return this.beginToolCall<T>(options, (session, meta, subscriber, input) => body(session, meta, input).subscribe(subscriber));
  }

  // The same, for a call begun straight into the subscriber. Given a plain
  // tool call's `params` rather than a function, the call that needs nothing
  // minted or filed per subscription (the common case) is one object, with
  // no closure made for the paths it does not take.
  private beginToolCall<T>(
    options: CallToolOptions,
    body: ((session: Session, meta: Meta, subscriber: Subscriber<T>, input: CallInput | undefined) => TeardownLogic) | Record<string, unknown>,
  ): Observable<T> {
    // No options (the shared empty object): nothing to check or work out.
    if (options === NO_CALL_OPTIONS && typeof body !== 'function') return new ToolCall(this.host, this.plainBounds, body, undefined) as Observable<unknown> as Observable<T>;
    const { progressToken, toolCallId, resetTimeoutOnProgress, maxTotalTimeoutMs, meta, task, onProgress, input } = options;
    checkCallOptions(options, CALL_TOOL);
    checkCallHooks(options);
    checkDuration('maxTotalTimeoutMs', maxTotalTimeoutMs, 0);
    if (task !== undefined && !this.settings.tasks) throw new McpClientError('option task needs the client option tasks: true');
    // A token of our own when the caller gave none but progress is wanted;
    // minted per subscription and forgotten when the call ends.
    const wantsToken = progressToken === undefined && ((toolCallId !== undefined && this.settings.onProgress) || resetTimeoutOnProgress || onProgress);
    if (typeof body !== 'function' && !wantsToken && !onProgress && !input) {
      const activity$ = resetTimeoutOnProgress ? this.progress$.pipe(filter((event) => event.progressToken === progressToken)) : undefined;
      const bounds = this.bounds(options, activity$, maxTotalTimeoutMs);
      return new ToolCall(this.host, bounds, body, progressToken === undefined ? meta : { ...meta, progressToken }) as Observable<unknown> as Observable<T>;
    }
    const begin =
      typeof body === 'function'
        ? body
        : (session: Session, meta: Meta, subscriber: Subscriber<T>, input: CallInput | undefined): TeardownLogic =>
            startToolCall(this.host, session, body, meta, subscriber as Subscriber<CallToolResult>, input);
    const call = (token: string | number | undefined, filed?: CallInput): Observable<T> =>
      this.bounded<T>(
        'tools/call',
        options,
        (session, subscriber) => begin(session, token === undefined ? meta : { ...meta, progressToken: token }, subscriber, filed),
        resetTimeoutOnProgress ? this.progress$.pipe(filter((event) => event.progressToken === token)) : undefined,
        maxTotalTimeoutMs,
      );
    if (!wantsToken && !onProgress && !input) return call(progressToken);
    return defer(() => {
      const token = wantsToken ? this.tokens.mint(toolCallId) : progressToken;
      // Filed for the call's whole life, task included: see CallInputs for who answers what.
      const filed = input && this.inputs.open(input);
      const heard = onProgress && this.progress$.pipe(filter((event) => event.progressToken === token)).subscribe((event) => this.tell(onProgress, event));
      return call(token, filed).pipe(
        finalize(() => {
          if (wantsToken) this.tokens.release(token as string);
          if (filed) this.inputs.close(filed);
          heard?.unsubscribe();
        }),
      );
    });
  }

  // A call's own progress listener that throws is reported, and the call goes on.
  private tell(onProgress: (progress: ProgressEvent) => void, event: ProgressEvent): void {
    try {
      onProgress(event);
    } catch (error) {
      this.settings.warn(`onProgress of a call threw: ${messageOf(error)}`);
    }
  }

  // A tool hidden from everybody for a value nobody could read would
  // puzzle its user: said in one warning however many there are, and not
  // repeated for every fetch of the same catalogue.
  private warnUnreadableVisibility(tools: readonly Tool[]): void {
    // Most tools carry no _meta: the common case allocates nothing.
    if (!tools.some(hasUnreadableVisibility)) {
      this.unreadableWarned = '';
      return;
    }
    const hidden = tools.filter(hasUnreadableVisibility).map((tool) => quote(tool.name));
    const named = hidden.slice(0, 5).join(', ') + (hidden.length > 5 ? ', …' : '');
    const warning = `${hidden.length} tool(s) kept from the model and from apps, their _meta.ui.visibility unreadable: ${named}`;
    if (warning !== this.unreadableWarned) {
      this.unreadableWarned = warning;
      this.settings.warn(warning);
    }
  }

  private list<T>(method: string, key: string, schema: PageShape, options: ListOptions): Observable<T[]> {
    const refresh = options.refresh === true;
    checkCallOptions(options, LIST);
    // The options are checked above, once: bounded directly rather than through run().
    const fetch = this.bounded<T[]>(method, options, (session, subscriber) => {
      if (refresh) this.cache.dropMethod(method);
      const pages: string[] = [];
      const learn = method === 'tools/list' ? this.tasks.learner(session) : undefined;
      const learnOutputs = method === 'tools/list' ? this.outputs.learner(session) : undefined;
      const gathered = (all: T[]): void => {
        this.cache.storeList(method, all, pages);
        learn?.(all as Tool[]);
        learnOutputs?.(all as Tool[]);
        if (method === 'tools/list') this.warnUnreadableVisibility(all as Tool[]);
      };
      return walkPages<T>(
        subscriber,
        method,
        key,
        this.settings.listLimits,
        (cursor, observer) => {
          const params = cursor === undefined ? undefined : { cursor };
          const pageKey = ResultCache.key(method, params);
          pages.push(pageKey);
          return this.calls.beginPage(session, method, params, options.meta, schema, pageKey, refresh, observer);
        },
        gathered,
      );
    });
    // A forced list never reads the cache: no stage for it.
    if (refresh) return fetch;
    // A whole list still fresh in the cache is handed out at once.
    return defer(() => {
      const kept = this.closing || options.signal?.aborted ? undefined : this.cache.list(method);
      return kept ? of(kept.slice() as T[]) : fetch;
    });
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
    const { declaredCapabilities, onLog, onProgress, warn } = this.settings;
    this.watching = serveServerRequests({
      requests$: this.correlator.serverRequests$,
      notifications$: this.notifications$,
      send: (message) => this.correlator.send(message),
      hooksFor: (request) => this.inputs.hooksFor(this.transport.carrierOf?.(request)),
      declared: declaredCapabilities,
      warn,
    });
    this.watching.add(watchNotifications({ notifications$: this.notifications$, cache: this.cache, tokens: this.tokens, onLog, onProgress, warn }));
    this.watching.add(this.tasks.watch());
    this.watching.add(this.outputs.watch(this.notifications$));
  }
}

/**
 * What every bounded call reads of its client, one object for all of them.
 * A class, not an object literal with getters: V8 optimises reads of such a
 * literal's members into its generic property lookup, which four reads on
 * every call paid for.
 */
class ClientHost implements ToolCallHost {
  constructor(
    private readonly isClosing: () => boolean,
    private readonly currentSession: () => Session | undefined,
    readonly probing$: Observable<Session>,
    readonly deadlines: Deadlines,
    readonly calls: CallPipeline,
    readonly outputs: OutputSchemas,
  ) {}

  get closing(): boolean {
    return this.isClosing();
  }

  get session(): Session | undefined {
    return this.currentSession();
  }
}
