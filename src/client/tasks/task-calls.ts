import { concatMap, filter, map, mergeMap, type Observable, of, type Subscription, throwError } from 'rxjs';
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { readTask, type Task, type TaskEvent } from '../../protocol/tasks.js';
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
  settings: Pick<Settings, 'tasks' | 'hooks' | 'warn' | 'listLimits' | 'asker'>;
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

  /** `callTool` with the client option `tasks`: a call that becomes a task is followed to its result. */
  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Observable<CallToolResult> {
    return this.context.toolCall(options, (session, meta, input) =>
      this.toolTask(session, name, args, meta, options.task, false, input).pipe(
        filter((event) => event.kind === 'result'),
        map((event) => event.result),
      ),
    );
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
  learner(session: Session): ((tools: readonly Tool[]) => void) | undefined {
    return this.context.settings.tasks && session.description.era === 'legacy' ? this.support.learner(session) : undefined;
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
  ): Observable<TaskEvent> {
    const context = this.taskContext(session, input);
    const plain = { name, arguments: args };
    const send = (params: Record<string, unknown>): Observable<TaskEvent> =>
      this.context.callTool(session, params, meta, input).pipe(
        mergeMap((answer) => eventsOf(context, answer, { detach })),
        concatMap((event) => (event.kind === 'result' ? this.checked(session, name, event) : of(event))),
      );
    const sendAs = (support: TaskSupport): Observable<TaskEvent> => {
      const augment = support === 'required' || (support === 'optional' && task !== undefined && task !== false);
      if (!augment) return send(plain);
      return send({ ...plain, task: typeof task === 'object' && task.ttlMs !== undefined ? { ttl: task.ttlMs } : {} });
    };
    const offered = (session.description.capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined)?.requests?.tools?.call;
    if (session.description.era === 'modern' || offered === undefined) return send(plain);
    const known = this.support.of(session, name);
    if (known !== undefined) return sendAs(known);
    // Listing teaches `support` too (the client hands every list to learner()).
    return this.context.listTools().pipe(mergeMap((tools) => sendAs(taskSupportOf(tools.find((tool) => tool.name === name)))));
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
      warn: settings.warn,
      server: () => askingServerOf(session.description.serverInfo, settings.asker.prefix),
    };
  }

  private withTasks<T>(method: string, start: () => Observable<T>): Observable<T> {
    if (!this.context.settings.tasks) return throwError(() => new McpClientError(`${method} needs the client option tasks: true`));
    return start();
  }
}
