import { catchError, filter, firstValueFrom, map, NEVER, type Observable, of, throwError } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import { buildRequest } from '../protocol/request.js';
import { promptPage, resourcePage, resourceTemplatePage, toolPage } from '../protocol/page-shapes.js';
import { callToolResultSchema, completeResultSchema, getPromptResultSchema, readResourceResultSchema } from '../protocol/schemas.js';
import type {
  CallToolResult, ClientCapabilities, CompleteResult, CompletionReference, GetPromptResult, ListenFilter, LoggingLevel, LogMessage, ProgressEvent,
  Prompt, ReadResourceResult, Resource, ResourceTemplate, ServerDescription, Tool, ToolAnnotations,
} from '../protocol/types.js';
import type { Task, TaskEvent } from '../protocol/tasks.js';
import { ErrorCode } from '../protocol/versions.js';
import { STDIO_OPTION_KEYS, StdioTransport, type StdioTransportOptions } from '../transport/stdio-transport.js';
import { HTTP_OPTION_KEYS, type HttpTransportOptions } from '../transport/http-options.js';
import { HttpTransport } from '../transport/http-transport.js';
import { RestartingTransport, type RestartOptions } from '../transport/restarting-transport.js';
import type { Transport } from '../transport/transport.js';
import { keysOf } from '../util/option-keys.js';
import { VERSION } from '../version.js';
import type { ToolsForLlmOptions } from '../tools/tool-names.js';
import { SERVER_ANNOTATIONS, withoutHints } from '../tools/annotation-trust.js';
import { TOOL_DECLARATION } from '../tools/tool-declaration.js';
import type { ExecuteOptions, LlmTool, LlmToolCall, ToolMessage } from '../tools/bridge.js';
import { ResultCache } from './cache.js';
import { Catalogue } from './catalogue.js';
import { isMissing } from './capability-gate.js';
import { Connection, type ConnectionState } from './connection.js';
import { CallInputs } from './calls/call-inputs.js';
import { CallPipeline } from './calls/call-pipeline.js';
import { CallStarter, NO_CALL_OPTIONS } from './calls/call-starter.js';
import { Deadlines } from '../util/deadlines.js';
import { OutputSchemas } from './calls/output-schemas.js';
import { Correlator } from './correlator.js';
import { Listener } from './listen.js';
import { checkLogLevel, LogLevel } from './log-level.js';
import {
  CALL_KEYS as CALL, type CallOptions, type CallToolAsTaskOptions, type CallToolOptions, type ClientOptions, COMPLETE_KEYS, type CompleteOptions,
  type InputCallOptions, type ListOptions, type McpClientOptions, type ResumeTaskOptions,
} from './options.js';
import { ClientRoots } from './roots.js';
import { resolveOptions, splitOptions, type Settings } from './settings.js';
import { type ElicitationComplete, elicitationCompleteOf, logOf, progressOf, ProgressTokens } from './streams.js';
import { TaskCalls } from './tasks/task-calls.js';
import { RequestTracer } from './tracing/request-tracer.js';
import { ASKED_UNDER } from './questions/asking-server.js';

// Declared beside the connection whose state it names; exported here with the client's other types.
export type { ConnectionState } from './connection.js';

/** Options of `McpClient.connectStdio`: the client's own, and the stdio transport's. */
export interface ConnectStdioOptions extends ClientOptions, StdioTransportOptions {
  /** Start the server again when it exits unexpectedly (off by default). */
  restart?: RestartOptions;
}

/** Options of `McpClient.connectHttp`: the client's own, and the HTTP transport's. */
export interface ConnectHttpOptions extends ClientOptions, HttpTransportOptions {}

/** The keys `connectStdio` hands to its transport: the stdio transport's and `restart`. */
export const CONNECT_STDIO_KEYS = [...STDIO_OPTION_KEYS, ...keysOf<Omit<ConnectStdioOptions, keyof ClientOptions | keyof StdioTransportOptions>>({ restart: true })];
const TRANSPORT_OPTION_KEYS = [...CONNECT_STDIO_KEYS, ...HTTP_OPTION_KEYS];

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
    return newClient({ ...client, transport });
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
    return newClient({ ...client, transport: new HttpTransport(http as unknown as HttpTransportOptions) });
  }

  /** Every notification the server sends, hot: subscribers see what arrives after they subscribe. Completes on `close()`. */
  readonly notifications$: Observable<JsonRpcNotification>;

  /** Every progress report (`notifications/progress`), hot. Reports arrive before the answer they belong to. */
  readonly progress$: Observable<ProgressEvent>;

  /** Every log message (`notifications/message`), hot. A modern server sends them only with a level set (`logLevel`, `setLogLevel`). */
  readonly log$: Observable<LogMessage>;

  /**
   * Every `notifications/elicitation/complete`, hot, as `{ elicitationId }`:
   * a 2025-11-25 server's word that a person finished a URL elicitation's
   * page (never from a 2026-07-28 server, whose protocol has no such notification). One with no readable id (a string of at most 256 characters) is
   * dropped; an id this client never saw is passed on as it is (matching it
   * is the listener's business). A call following a `-32042` waits on these itself.
   */
  readonly elicitationComplete$: Observable<ElicitationComplete>;

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
  private readonly connection: Connection;
  private readonly starter: CallStarter;
  private readonly catalogue: Catalogue;
  private readonly listener: Listener;
  private readonly roots: ClientRoots;
  private readonly logLevel: LogLevel;
  private readonly tracer: RequestTracer | undefined;

  /**
   * @throws McpClientError for an unknown option, a transport option given with a ready `transport`, or a bad value.
   * @throws McpUnsupportedVersionError when `protocolVersions` names a version this client does not speak.
   */
  constructor(options: McpClientOptions) {
    const settings = resolveOptions(options, TRANSPORT_OPTION_KEYS, VERSION);
    const { transport } = options;
    const tracer = settings.tracing && new RequestTracer(settings.tracing, transport, () => this.connection?.session?.description.protocolVersion);
    const correlator = new Correlator(transport, settings.warn, settings.maxPendingRequests, tracer);
    this.tracer = tracer;
    // A wire that reads lists of its own keeps to the same bounds.
    transport.limitLists?.(settings.listLimits);
    const cache = new ResultCache();
    const deadlines = new Deadlines();
    const tokens = new ProgressTokens();
    const calls = new CallPipeline(correlator, cache, settings);
    const inputs = new CallInputs(settings.hooks);
    const outputs = new OutputSchemas(settings.validateStructuredContent, settings.warn);
    const notifications$ = correlator.notifications$;
    const progress$ = progressOf(notifications$);
    this.settings = settings;
    this.transport = transport;
    this.correlator = correlator;
    this.calls = calls;
    this.declaredCapabilities = settings.declaredCapabilities;
    this.notifications$ = notifications$;
    this.progress$ = progress$;
    this.log$ = logOf(notifications$);
    // 2026-07-28 removed the notification: from a modern server it means nothing.
    this.elicitationComplete$ = elicitationCompleteOf(notifications$).pipe(filter(() => this.connection.session?.description.era !== 'modern'));
    const listTools = () => this.listTools();
    const tasks = new TaskCalls({
      settings,
      notifications$,
      request: (session, method, params, input) =>
        correlator.request(method, (id) => {
          input?.requests.add(id);
          return buildRequest(id, method, params, session.stamp);
        }),
      callTool: (session, params, meta, input) => calls.run(session, 'tools/call', params, meta, callToolResultSchema, false, true, input),
      run: (method, options, allowed, body) => this.starter.run(method, options, allowed, body),
      toolCall: (options, body) => this.starter.toolCall(options, body),
      listTools,
      session: () => this.starter.run('describe', {}, CALL, (session) => of(session)),
      outputCheck: (session, name) => outputs.checkFor(session, name),
    });
    this.tasks = tasks;
    const logLevel = new LogLevel(settings.logLevel);
    this.logLevel = logLevel;
    const connection = new Connection({ settings, transport, correlator, notifications$, cache, deadlines, inputs, tokens, tasks, outputs, logLevel, tracer });
    this.connection = connection;
    this.state$ = connection.state$;
    this.auth$ = transport.auth$ ?? NEVER;
    const isClosing = (): boolean => connection.closing !== undefined;
    const starter = new CallStarter({ settings, isClosing, currentSession: () => connection.session, probing$: connection.probing$, deadlines, calls, outputs, inputs, tokens, progress$ });
    this.starter = starter;
    this.catalogue = new Catalogue({ settings, starter, calls, cache, tasks, outputs, isClosing, session: () => connection.session, hearsServer: () => connection.hearsServer, owner: this });
    this.listener = new Listener({ notifications$, correlator, starter, warn: settings.warn, isRestarting: () => connection.restarting, restarts$: transport.restarts$ });
    this.roots = new ClientRoots({
      option: settings.roots,
      declared: settings.declaredCapabilities,
      session: () => connection.session,
      send: (message) => correlator.send(message),
      serverRequests$: correlator.serverRequests$,
      warn: settings.warn,
    });
  }

  /**
   * Describes the server: its era, protocol version, identity, capabilities,
   * instructions, and the wire it is reached on. The first subscription runs
   * the probe; later ones replay its verdict.
   */
  describe(options: CallOptions = {}): Observable<ServerDescription> {
    return this.starter.run('describe', options, CALL, (session) => {
      const { wire } = this.transport;
      return of(wire === undefined ? session.description : { ...session.description, wire });
    });
  }

  /** Lists every tool, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listTools(options: ListOptions = {}): Observable<Tool[]> {
    return this.catalogue.list<Tool>('tools/list', 'tools', toolPage, options);
  }

  /** Lists every resource, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listResources(options: ListOptions = {}): Observable<Resource[]> {
    return this.catalogue.list<Resource>('resources/list', 'resources', resourcePage, options);
  }

  /** Lists every resource template, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listResourceTemplates(options: ListOptions = {}): Observable<ResourceTemplate[]> {
    return this.catalogue.list<ResourceTemplate>('resources/templates/list', 'resourceTemplates', resourceTemplatePage, options);
  }

  /** Lists every prompt, following pages to the end (within `maxListPages` and `maxListItems`; past them, or on a repeated cursor, `McpProtocolError`). */
  listPrompts(options: ListOptions = {}): Observable<Prompt[]> {
    return this.catalogue.list<Prompt>('prompts/list', 'prompts', promptPage, options);
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
   * fails or is cancelled errors with `McpTaskError`. A tool listed with
   * `taskSupport: "required"` runs as a task whatever the option; on a server
   * that cannot run tasks it fails at once with `McpCapabilityError`.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = NO_CALL_OPTIONS): Observable<CallToolResult> {
    if (this.settings.tasks) return this.tasks.callTool(name, args, options);
    // A tool that requires a task runs as one whatever the option (docs/tasks.md).
    return this.tasks.plainOrTask(name, args, options, () => this.connection.session, () =>
      this.starter.beginToolCall<CallToolResult>(options, { name, arguments: args }),
    );
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
    return this.starter.asking('resources/read', options, (session, input) =>
      this.calls.run<ReadResourceResult>(session, 'resources/read', { uri }, options.meta, readResourceResultSchema, false, false, input),
    );
  }

  /** Renders a prompt with its arguments; a server that asks for input first is answered through the hooks (`input`, or the client's). */
  getPrompt(name: string, args: Record<string, string> = {}, options: InputCallOptions = {}): Observable<GetPromptResult> {
    return this.starter.asking('prompts/get', options, (session, input) =>
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
    return this.starter.run('completion/complete', options, COMPLETE_KEYS, (session) =>
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
    return this.starter.run('ping', options, CALL, (session) =>
      this.correlator.request('ping', (id) => buildRequest(id, 'ping', undefined, session.stamp, options.meta)).pipe(
        map(() => true),
        catchError((error: unknown) =>
          error instanceof McpProtocolError && error.code === ErrorCode.MethodNotFound ? of(false) : throwError(() => error),
        ),
      ),
    );
  }

  /**
   * Changes the least severe log message wanted, while connected: cold, like
   * every call (nothing changes until subscribed); emits once and completes
   * when the level is in force. On a 2025-11-25 (or older) server it sends
   * `logging/setLevel`, and fails with `McpCapabilityError` (`logging`),
   * sending nothing, when the server did not declare logging. On a
   * 2026-07-28 server there is no round trip: every request sent from then
   * on carries the level in `_meta`, which is how that era asks for logs.
   * The level outlives the session: a restarted server is asked for it again.
   * Messages arrive on `log$` (and `onLog`).
   *
   * @throws McpClientError at once for a level that is not one of the eight level names.
   * @example
   * ```ts
   * await firstValueFrom(mcp.setLogLevel('debug'));
   * mcp.log$.subscribe(({ level, data }) => console.error(level, data));
   * ```
   */
  setLogLevel(level: LoggingLevel, options: CallOptions = {}): Observable<void> {
    checkLogLevel(level);
    return this.starter.run('setLogLevel', options, CALL, (session) =>
      this.logLevel.apply(session, level, (method, build) => this.correlator.request(method, build)),
    );
  }

  /**
   * What the server said about one of its tools, from its catalogue, as far
   * as the client trusts it: its hints (`readOnlyHint`, …) only with
   * `trustAnnotations: true`, else the title alone (`listTools` shows all it
   * sent). `undefined` for no such tool (a server without `tools` has none), or nothing left to say.
   */
  toolAnnotations(name: string, options: ListOptions = {}): Observable<ToolAnnotations | undefined> {
    const said = this[SERVER_ANNOTATIONS](name, options);
    return this.settings.trustAnnotations ? said : said.pipe(map(withoutHints));
  }

  /** The tool's annotations as the server sent them, for a layer the user marked trusted (see `annotation-trust.ts`). */
  [TOOL_DECLARATION](name: string): Observable<Tool | undefined> {
    return this.catalogue.declaration(name);
  }

  [SERVER_ANNOTATIONS](name: string, options: ListOptions = {}): Observable<ToolAnnotations | undefined> {
    const tools = this.listTools(options).pipe(catchError((error: unknown) => (isMissing(error, 'tools') ? of([]) : throwError(() => error))));
    return tools.pipe(map((listed) => listed.find((tool) => tool.name === name)?.annotations));
  }

  /**
   * The server's tools as function declarations for an LLM (OpenAI style),
   * under names every major model API accepts unless `options.names` says
   * otherwise: a name that fits is unchanged, one that does not is mapped
   * (see `toolNames`), and `executeToolCalls` reads the mapped names back.
   * Tools meant for an MCP App's view alone (`_meta.ui.visibility` without
   * `"model"`, or a visibility that cannot be read) are left out, and so are
   * tools that require a task when the server cannot run tasks (one warning).
   * A server that did not declare `tools` gives an empty list, not an error.
   *
   * @throws McpClientError (as a rejection) for an invalid `options.names`.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const tools = await firstValueFrom(this.catalogue.offeredTools());
    const session = this.connection.session;
    return this.catalogue.forLlm(tools, options.names, session === undefined || this.tasks.canRunTasks(session));
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
    const { tracer } = this;
    if (tracer === undefined) return this.catalogue.execute(calls, options);
    return tracer.batch(Array.isArray(calls) ? calls.length : 0, () => this.catalogue.execute(calls, options));
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
    return this.listener.listen(wanted, options);
  }

  /**
   * Says the roots changed, for a client whose `onListRoots` now answers
   * differently (a `roots` Observable announces its new lists itself). A
   * 2025-11-25 server is sent `notifications/roots/list_changed` and asks
   * for the roots again; before the handshake there is nothing to send (the
   * server asks once initialized). A 2026-07-28 server is sent nothing: that
   * revision removed the notification, and the server asks for roots inside
   * the next request that needs them. While one notification waits for the
   * server to list roots again, another adds nothing and is not sent.
   * Nothing is sent when `clientCapabilities` left out `roots.listChanged`.
   *
   * @example
   * ```ts
   * let folders = ['file:///work/a'];
   * const mcp = McpClient.connectStdio({ command: 'srv', onListRoots: () => ({ roots: folders.map((uri) => ({ uri })) }) });
   * folders = ['file:///work/b'];
   * mcp.notifyRootsChanged();
   * ```
   */
  notifyRootsChanged(): void {
    this.roots.announce();
  }

  /**
   * Closes the connection: every pending call fails with
   * `McpTransportClosedError`, `notifications$` completes, and the transport
   * shuts down (for stdio: stdin closed, then SIGTERM and SIGKILL after
   * `killGraceMs` each). Idempotent; safe on a connection whose server died.
   */
  close(): Promise<void> {
    this.roots.stop();
    return this.connection.close();
  }

  /** Where a `Registry` publishes this client: told to every hook as `server.prefix` (see `asking-server.ts`). */
  [ASKED_UNDER](prefix: string | undefined): void {
    this.settings.asker.prefix = prefix;
  }
}

// For the static constructors: the class is named outside its own body: a mention inside makes the bundle give it an inner name (_McpClient), which McpClient.name would show.
function newClient(options: McpClientOptions): McpClient {
  return new McpClient(options);
}
