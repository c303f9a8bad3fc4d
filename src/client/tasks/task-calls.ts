import { catchError, concatMap, defer, filter, map, mergeMap, type Observable, of, type Subscription, throwError } from 'rxjs';
import { McpCapabilityError } from '../../errors/capability-errors.js';
import { McpClientError } from '../../errors/mcp-client-error.js';
import { McpProtocolError } from '../../errors/protocol-errors.js';
import { ErrorCode } from '../../protocol/versions.js';
import type { JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { readTask, TASKS_EXTENSION, type Task, type TaskEvent } from '../../protocol/tasks.js';
import type { CallToolResult, Tool } from '../../protocol/types.js';
import { CALL_KEYS, CALL_TOOL_AS_TASK_KEYS, type CallOptions, type CallToolAsTaskOptions, type CallToolOptions, checkCallOptions, RESUME_TASK_KEYS, type ResumeTaskOptions } from '../options.js';
import { type Settings } from '../settings.js';
import { allPages } from '../pagination.js';
import { askingServerOf } from '../questions/asking-server.js';
import type { CallInput } from '../calls/call-inputs.js';
import type { OutputCheck } from '../calls/output-schemas.js';
import type { Session } from '../session.js';
import { eventsOf, followTask, type TaskContext } from './tasks.js';
import { type TaskSupport, taskSupportOf, ToolTaskSupport } from './tool-task-support.js';

type Meta = Record<string, unknown> | undefined;

/** What the task calls need from the client. */
export interface TaskCallsContext {
  settings: Pick<Settings, 'tasks' | 'hooks' | 'warn' | 'listLimits' | 'asker' | 'declaredCapabilities'>;
  notifications$: Observable<JsonRpcNotification>;
  /** One request of `session`, stamped for its era, to its result; filed under the call's `input`, if it has one. */
  request(session: Session, method: string, params: Record<string, unknown>, input?: CallInput): Observable<Record<string, unknown>>;
  /** One `tools/call` through the call pipeline (input rounds and all); a task handle comes back as the server sent it. */
  callTool(session: Session, params: Record<string, unknown>, meta: Meta, input: CallInput | undefined): Observable<Record<string, unknown>>;
  /** The client's frame around a call: options checked against `allowed`, budget and signal, the session. */
  run<T>(method: string, options: CallOptions, allowed: readonly string[], body: (session: Session) => Observable<T>): Observable<T>;
  /** The same for a tool call, with its progress token (given or minted) in `meta`, and its own hooks filed when it has any. */
  toolCall<T>(options: CallToolOptions, body: (session: Session, meta: Meta, input: CallInput | undefined) => Observable<T>): Observable<T>;
  listTools(): Observable<Tool[]>;
  /** The session, once the probe found it. */
  session(): Observable<Session>;
  /** The check of a tool's results against its listed outputSchema, if it has one. */
  outputCheck(session: Session, name: string): OutputCheck | undefined;
}

/**
 * The client's task calls (`McpClient.callToolAsTask`, `resumeTask`,
 * `cancelTask`, `listTasks`, and `callTool` under the client option
 * `tasks`), which the client delegates to. It also keeps what each tool of a
 * 2025-11-25 session supports, so that deciding whether to ask for a task
 * lists the tools once, not before every call.
 */
export class TaskCalls {
  private readonly support = new ToolTaskSupport();

  constructor(private readonly context: TaskCallsContext) {}

  /**
   * `callTool` with the client option `tasks`, or for a tool that requires a
   * task (`needsTask`) without it: a call that becomes a task is followed to
   * its result.
   */
  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Observable<CallToolResult> {
    return this.context.toolCall(options, (session, meta, input) =>
      this.toolTask(session, name, args, meta, options.task, false, input, !this.context.settings.tasks).pipe(
        filter((event) => event.kind === 'result'),
        map((event) => event.result),
      ),
    );
  }

  /**
   * `callTool` without the client option `tasks`: `plain` (the usual call),
   * unless `name` requires a task. A tool a list of this session showed is
   * decided at once. For one no list showed: a 2025-11-25 server that runs
   * tool calls as tasks has the tools listed first, once (as with the
   * option); anywhere else the call goes out plainly, and only when the
   * server refuses it as it refuses a call that should have been a task
   * (-32601 in 2025-11-25, -32021 naming the tasks extension in 2026-07-28;
   * nothing ran) are the tools listed, and a tool that requires a task is
   * called again as one (or refused with `McpCapabilityError`).
   */
  plainOrTask(name: string, args: Record<string, unknown>, options: CallToolOptions, session: () => Session | undefined, plain: () => Observable<CallToolResult>): Observable<CallToolResult> {
    // Read from the list itself: a list_changed overtaking it (server-everything
    // sends one right after the handshake) leaves nothing learned.
    // Made now, cold: a bad option throws at once, as a plain callTool does.
    const plainCall = plain();
    const listedRequired = (): Observable<boolean> =>
      this.context.listTools().pipe(map((tools) => taskSupportOf(tools.find((tool) => tool.name === name)) === 'required'));
    const decide = (current: Session): Observable<CallToolResult> => {
      if (this.needsTask(current, name)) return this.callTool(name, args, options);
      if (this.support.of(current, name) !== undefined) return plainCall;
      if (current.description.era === 'legacy' && canRunToolTasks(current)) {
        return listedRequired().pipe(mergeMap((required) => (required ? this.callTool(name, args, options) : plainCall)));
      }
      return plainCall.pipe(
        catchError((error: unknown) => {
          if (!refusedForWantOfTask(error)) return throwError(() => error);
          return listedRequired().pipe(mergeMap((required) => (required ? this.callTool(name, args, options) : throwError(() => error))));
        }),
      );
    };
    // Before the first call the session is not known yet: the probe runs first.
    return defer(() => {
      const current = session();
      return current === undefined ? this.context.session().pipe(mergeMap(decide)) : decide(current);
    });
  }

  /** See `McpClient.callToolAsTask`. */
  callToolAsTask(name: string, args: Record<string, unknown>, options: CallToolAsTaskOptions): Observable<TaskEvent> {
    const { detach, ...rest } = options;
    checkCallOptions(options, CALL_TOOL_AS_TASK_KEYS);
    return this.withTasks('tools/call', () =>
      this.context.toolCall(rest, (session, meta, input) => this.toolTask(session, name, args, meta, rest.task, detach === true, input)),
    );
  }

  /** See `McpClient.resumeTask`. */
  resumeTask(taskId: string, options: ResumeTaskOptions): Observable<TaskEvent> {
    const { detach, ...rest } = options;
    checkCallOptions(options, RESUME_TASK_KEYS);
    return this.withTasks('tasks/get', () =>
      this.context.run('tasks/get', rest, CALL_KEYS, (session) => {
        const context = this.taskContext(session);
        return context
          .request('tasks/get', { taskId })
          .pipe(mergeMap((answer) => followTask(context, readTask('tasks/get', answer), { detach: detach === true })));
      }),
    );
  }

  /** See `McpClient.cancelTask`. */
  cancelTask(taskId: string, options: CallOptions): Observable<void> {
    return this.withTasks('tasks/cancel', () =>
      this.context.run('tasks/cancel', options, CALL_KEYS, (session) =>
        this.context.request(session, 'tasks/cancel', { taskId }).pipe(map(() => undefined)),
      ),
    );
  }

  /** See `McpClient.listTasks`. */
  listTasks(options: CallOptions): Observable<Task[]> {
    return this.withTasks('tasks/list', () =>
      this.context.run('tasks/list', options, CALL_KEYS, (session) =>
        allPages<unknown>('tasks/list', 'tasks', this.context.settings.listLimits, (cursor) =>
          this.context.request(session, 'tasks/list', cursor === undefined ? {} : { cursor }),
        ).pipe(
          map((tasks) => tasks.map((task) => readTask('tasks/list', task).task)),
        ),
      ),
    );
  }

  /**
   * Where the client hands each whole `tools/list` answer of `session`,
   * taken when its request starts; `undefined` when nothing needs to learn
   * from it (no `tasks` option, or a modern server, which decides by itself).
   */
  learner(session: Session): (tools: readonly Tool[]) => void {
    return this.support.learner(session);
  }

  /**
   * True when a list of `session` showed `name` with `execution.taskSupport:
   * "required"`: without the client option `tasks`, such a call still has to
   * run as a task (2025-11-25 "Tool-Level Negotiation"), or fail at once when
   * the server cannot run one.
   */
  needsTask(session: Session | undefined, name: string): boolean {
    return session !== undefined && this.support.of(session, name) === 'required';
  }

  /** Whether the server of `session` can run a `tools/call` as a task: see `canRunToolTasks`. */
  canRunTasks(session: Session): boolean {
    return canRunToolTasks(session);
  }

  /** Forgets what tools support whenever the server says its tool list changed; runs until unsubscribed. */
  watch(): Subscription {
    return this.context.notifications$
      .pipe(filter((note) => note.method === 'notifications/tools/list_changed'))
      .subscribe({ next: () => this.support.forget(), error: () => undefined });
  }

  // A tool call that may become a task, as task events. A legacy server is
  // asked for a task only where its capabilities and the tool allow one
  // (2025-11-25 "Tool-Level Negotiation"); a modern one decides by itself.
  private toolTask(
    session: Session,
    name: string,
    args: Record<string, unknown>,
    meta: Meta,
    task: CallToolOptions['task'],
    detach: boolean,
    input: CallInput | undefined,
    forced = false,
  ): Observable<TaskEvent> {
    // Without the client option, only a tool that requires a task gets
    // here: it is refused before anything is sent when the server cannot
    // run tasks, and a modern request says it can take one.
    if (forced && !canRunToolTasks(session)) return throwError(() => cannotRunTask(session, name));
    const wire = forced && session.description.era === 'modern' ? this.withExtension(session) : session;
    return this.taskOf(session, wire, name, args, meta, task, detach, input, forced);
  }

  private taskOf(
    session: Session,
    wire: Session,
    name: string,
    args: Record<string, unknown>,
    meta: Meta,
    task: CallToolOptions['task'],
    detach: boolean,
    input: CallInput | undefined,
    forced: boolean,
  ): Observable<TaskEvent> {
    const context = this.taskContext(wire, input);
    const plain = { name, arguments: args };
    const send = (params: Record<string, unknown>): Observable<TaskEvent> =>
      this.context.callTool(wire, params, meta, input).pipe(
        mergeMap((answer) => eventsOf(context, answer, { detach })),
        concatMap((event) => (event.kind === 'result' ? this.checked(session, name, event) : of(event))),
      );
    const sendAs = (support: TaskSupport): Observable<TaskEvent> => {
      const augment = support === 'required' || (support === 'optional' && task !== undefined && task !== false);
      if (!augment) return send(plain);
      return send({ ...plain, task: typeof task === 'object' && task.ttlMs !== undefined ? { ttl: task.ttlMs } : {} });
    };
    if (session.description.era === 'modern') return send(plain);
    const known = this.support.of(session, name);
    if (!canRunToolTasks(session)) {
      // A tool a list showed as requiring a task is never called plainly:
      // the server would only refuse it (-32601).
      return known === 'required' ? throwError(() => cannotRunTask(session, name)) : send(plain);
    }
    if (forced) return sendAs('required');
    if (known !== undefined) return sendAs(known);
    // Listing teaches `support` too (the client hands every list to learner()).
    return this.context.listTools().pipe(mergeMap((tools) => sendAs(taskSupportOf(tools.find((tool) => tool.name === name)))));
  }

  // The session as a modern request that declares the tasks extension sees
  // it: the same description, a stamp whose capabilities add the extension.
  // One per session, so that the stamp's _meta is built once.
  private readonly extended = new WeakMap<Session, Session>();
  private withExtension(session: Session): Session {
    const declared = session.stamp.clientCapabilities;
    if (declared.extensions?.[TASKS_EXTENSION] !== undefined) return session;
    let wire = this.extended.get(session);
    if (wire === undefined) {
      const clientCapabilities = { ...declared, extensions: { ...declared.extensions, [TASKS_EXTENSION]: {} } };
      wire = { description: session.description, stamp: { ...session.stamp, clientCapabilities } };
      this.extended.set(session, wire);
    }
    return wire;
  }

  // A task's result is checked as a direct answer is; the schema is looked
  // up when the result arrives, since listing may have taught it meanwhile.
  private checked(session: Session, name: string, event: TaskEvent & { kind: 'result' }): Observable<TaskEvent> | Promise<TaskEvent> {
    const check = this.context.outputCheck(session, name);
    return check ? check(event.result).then((result) => ({ ...event, result })) : of(event);
  }

  // A task's questions go to its call's own hooks, if it has any.
  private taskContext(session: Session, input?: CallInput): TaskContext {
    const { settings, notifications$ } = this.context;
    return {
      era: session.description.era,
      request: (method, params) => this.context.request(session, method, params, input),
      notifications$,
      hooks: input?.hooks ?? settings.hooks,
      declared: settings.declaredCapabilities,
      warn: settings.warn,
      server: () => askingServerOf(session.description.serverInfo, settings.asker.prefix),
    };
  }

  private withTasks<T>(method: string, start: () => Observable<T>): Observable<T> {
    if (!this.context.settings.tasks) return throwError(() => new McpClientError(`${method} needs the client option tasks: true`));
    return start();
  }
}

/**
 * Whether the server of `session` can run a `tools/call` as a task: a
 * 2025-11-25 server that declared `tasks.requests.tools.call`, a 2026-07-28
 * one that declared the `io.modelcontextprotocol/tasks` extension.
 */
export function canRunToolTasks(session: Session): boolean {
  const { era, capabilities } = session.description;
  if (era === 'modern') return (capabilities.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION] !== undefined;
  return (capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined)?.requests?.tools?.call !== undefined;
}

/** The capability a task-augmented `tools/call` needs in the era of `session`, as a dotted path. */
export function toolTaskCapability(session: Session): string {
  return session.description.era === 'modern' ? `extensions.${TASKS_EXTENSION}` : 'tasks.requests.tools.call';
}

// The answer of a server to a plain call of a tool that needs a task.
function refusedForWantOfTask(error: unknown): boolean {
  if (!(error instanceof McpProtocolError)) return false;
  if (error.code === ErrorCode.MethodNotFound) return true;
  if (error.code !== ErrorCode.MissingRequiredClientCapability) return false;
  const data = error.data as { requiredCapabilities?: { extensions?: Record<string, unknown> } } | undefined;
  return typeof data === 'object' && data !== null && Object.hasOwn(data.requiredCapabilities?.extensions ?? {}, TASKS_EXTENSION);
}

function cannotRunTask(session: Session, name: string): McpCapabilityError {
  const capability = toolTaskCapability(session);
  return new McpCapabilityError(
    capability,
    'tools/call',
    `tools/call ${JSON.stringify(name)}: the tool requires a task, but the server did not declare the ${capability} capability`,
  );
}
