import { Observable, of, Subject, type Subscription, take, timer } from 'rxjs';
import type { JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { ErrorCode } from '../../protocol/versions.js';
import type { InputHooks } from '../../protocol/input-request.js';
import { isObject } from '../../util/values.js';

/** At most this many of a server's questions are held as tasks at once; more are refused. */
export const MAX_CLIENT_TASKS = 64;
/** A task's lifetime when the server asks for none. */
export const DEFAULT_CLIENT_TASK_TTL_MS = 5 * 60_000;
/** The longest lifetime a server's `ttl` gets: a question is forgotten an hour after it was asked. */
export const MAX_CLIENT_TASK_TTL_MS = 60 * 60_000;
/** The pause between polls the client suggests. */
export const CLIENT_TASK_POLL_MS = 1000;
/** At most this many `tasks/result` wait on one task; more are refused. */
const MAX_WAITERS = 16;
/** `tasks/list` pages. */
const PAGE_SIZE = 50;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];

type Status = 'working' | 'completed' | 'failed' | 'cancelled';
type Outcome = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

interface Held {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  outcome?: Outcome;
  /** `tasks/result` requests waiting for the end. */
  waiters: Subject<Outcome>;
  waiting: number;
  work: Subscription;
}

/**
 * The client's 2025-11-25 `tasks` capability for the hooks it has: task
 * augmentation for `sampling/createMessage` with `onSample`, for
 * `elicitation/create` with `onElicit` or `onElicitUrl`, and `tasks/list`
 * and `tasks/cancel` to go with them. Declared only under the client option
 * `tasks`.
 */
export function clientTasksCapability(hooks: InputHooks): NonNullable<ClientCapabilities['tasks']> {
  const requests: Record<string, unknown> = {};
  if (hooks.onSample) requests.sampling = { createMessage: {} };
  if (hooks.onElicit || hooks.onElicitUrl) requests.elicitation = { create: {} };
  if (Object.keys(requests).length === 0) return {};
  return { list: {}, cancel: {}, requests };
}

/** True when `declared` lets a server make `method` a task (`tasks.requests.sampling.createMessage`, `tasks.requests.elicitation.create`). */
export function acceptsTaskFor(declared: ClientCapabilities, method: string): boolean {
  const requests = (declared.tasks as { requests?: Record<string, Record<string, unknown> | undefined> } | undefined)?.requests;
  if (method === 'sampling/createMessage') return requests?.sampling?.createMessage !== undefined;
  if (method === 'elicitation/create') return requests?.elicitation?.create !== undefined;
  return false;
}

/** True for the methods a server polls its tasks on this client with. */
export function isTaskMethod(method: string): boolean {
  return TASK_METHODS.includes(method);
}

/**
 * The tasks a legacy server made of its questions to this client
 * (2025-11-25 tasks, the client as receiver). A task-augmented
 * `sampling/createMessage` or `elicitation/create` is answered at once with
 * a `CreateTaskResult`; the hook runs in the background, and the server
 * follows it with `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel`.
 *
 * Bounded, since the server is not trusted: at most `MAX_CLIENT_TASKS` held
 * at once (a question past that is refused, not queued), each forgotten at
 * the end of its `ttl` (at most `MAX_CLIENT_TASK_TTL_MS`), its hook stopped
 * if it is still asking. Task ids are random UUIDs. One instance serves one
 * connection, so a task is only ever shown to the server that asked; `clear`
 * forgets them all when that server is replaced.
 */
export class ClientSideTasks {
  private readonly tasks = new Map<string, Held>();

  constructor(private readonly declared: ClientCapabilities) {}

  /**
   * Starts `work` (the hook's answer to `request`, as a response) as a task
   * and emits the `CreateTaskResult` response, or the error when too many
   * tasks are held already.
   */
  create(request: JsonRpcRequest, taskParams: unknown, work: Observable<JsonRpcResponse>): Observable<JsonRpcResponse> {
    const { id } = request;
    if (this.tasks.size >= MAX_CLIENT_TASKS) {
      return of({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: `The client holds ${MAX_CLIENT_TASKS} tasks already; try again later` } });
    }
    const asked = isObject(taskParams) ? taskParams.ttl : undefined;
    const ttl = typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? Math.min(Math.floor(asked), MAX_CLIENT_TASK_TTL_MS) : DEFAULT_CLIENT_TASK_TTL_MS;
    const now = new Date().toISOString();
    const held: Held = {
      taskId: globalThis.crypto.randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      waiters: new Subject<Outcome>(),
      waiting: 0,
      work: timer(ttl).subscribe(() => this.forget(held)),
    };
    this.tasks.set(held.taskId, held);
    held.work.add(
      work.pipe(take(1)).subscribe({
        next: (response) => {
          const outcome: Outcome = 'error' in response && response.error ? { error: response.error } : { result: (response as { result: Record<string, unknown> }).result };
          this.end(held, 'error' in outcome ? 'failed' : 'completed', outcome);
        },
        error: (error: unknown) =>
          this.end(held, 'failed', { error: { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : 'The hook failed' } }),
      }),
    );
    return of({ jsonrpc: '2.0', id, result: { task: this.view(held) } });
  }

  /** Answers `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`. */
  serve(request: JsonRpcRequest): Observable<JsonRpcResponse> {
    const { id, method } = request;
    const fail = (code: number, message: string): Observable<JsonRpcResponse> => of({ jsonrpc: '2.0', id, error: { code, message } });
    const ok = (result: Record<string, unknown>): Observable<JsonRpcResponse> => of({ jsonrpc: '2.0', id, result });
    const params = isObject(request.params) ? request.params : {};
    const tasks = this.declared.tasks as { list?: unknown; cancel?: unknown } | undefined;
    if (method === 'tasks/list') {
      if (tasks?.list === undefined) return fail(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      const all = [...this.tasks.values()];
      const cursor = params.cursor;
      const start = cursor === undefined ? 0 : typeof cursor === 'string' && /^\d{1,6}$/.test(cursor) ? Number(cursor) : -1;
      if (start < 0 || start > all.length) return fail(ErrorCode.InvalidParams, 'Invalid cursor');
      const page = all.slice(start, start + PAGE_SIZE).map((held) => this.view(held));
      return ok(start + PAGE_SIZE < all.length ? { tasks: page, nextCursor: String(start + PAGE_SIZE) } : { tasks: page });
    }
    if (method === 'tasks/cancel' && tasks?.cancel === undefined) return fail(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    // Own entries of a Map only: a taskId of "__proto__" is just unknown.
    const held = typeof params.taskId === 'string' ? this.tasks.get(params.taskId) : undefined;
    if (held === undefined) return fail(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
    if (method === 'tasks/get') return ok(this.view(held));
    if (method === 'tasks/cancel') {
      if (held.status !== 'working') return fail(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${held.status}'`);
      this.end(held, 'cancelled', { error: { code: ErrorCode.InternalError, message: 'The task was cancelled' } }, 'The task was cancelled by request.');
      return ok(this.view(held));
    }
    // tasks/result: what the question would have been answered, once it is.
    const outcome = held.outcome;
    if (outcome !== undefined) return of(this.resultOf(id, held.taskId, outcome));
    if (held.waiting >= MAX_WAITERS) return fail(ErrorCode.InternalError, 'Too many tasks/result requests wait on this task');
    held.waiting += 1;
    return new Observable<JsonRpcResponse>((subscriber) => {
      const waiting = held.waiters.pipe(take(1)).subscribe({
        next: (ended) => {
          subscriber.next(this.resultOf(id, held.taskId, ended));
          subscriber.complete();
        },
        // Forgotten (its ttl ran out) before it ended.
        complete: () => {
          subscriber.next({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: 'Failed to retrieve task: Task has expired' } });
          subscriber.complete();
        },
      });
      return () => {
        held.waiting -= 1;
        waiting.unsubscribe();
      };
    });
  }

  /** Forgets every task and stops their hooks: the server that asked is gone. */
  clear(): void {
    for (const held of [...this.tasks.values()]) this.forget(held);
  }

  /** How many tasks are held: for tests and diagnostics. */
  get size(): number {
    return this.tasks.size;
  }

  private end(held: Held, status: Exclude<Status, 'working'>, outcome: Outcome, statusMessage?: string): void {
    if (held.status !== 'working') return;
    held.status = status;
    held.outcome = outcome;
    held.lastUpdatedAt = new Date().toISOString();
    if (statusMessage !== undefined) held.statusMessage = statusMessage;
    else if ('error' in outcome) held.statusMessage = outcome.error.message.slice(0, 200);
    // The hook is done (or is stopped); the ttl timer stays in `work`'s place.
    held.waiters.next(outcome);
    held.waiters.complete();
    if (status === 'cancelled') {
      const ttl = held.work;
      held.work = timer(Math.max(0, Date.parse(held.createdAt) + held.ttl - Date.now())).subscribe(() => this.forget(held));
      ttl.unsubscribe();
    }
  }

  private forget(held: Held): void {
    if (this.tasks.get(held.taskId) !== held) return;
    this.tasks.delete(held.taskId);
    held.work.unsubscribe();
    held.waiters.complete();
  }

  private view(held: Held): Record<string, unknown> {
    const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl } = held;
    return { taskId, status, ...(statusMessage === undefined ? {} : { statusMessage }), createdAt, lastUpdatedAt, ttl, pollInterval: CLIENT_TASK_POLL_MS };
  }

  // What the question's own response would have been, marked as the task's.
  private resultOf(id: JsonRpcRequest['id'], taskId: string, outcome: Outcome): JsonRpcResponse {
    if ('error' in outcome) return { jsonrpc: '2.0', id, error: outcome.error };
    const meta = isObject(outcome.result._meta) ? outcome.result._meta : {};
    return { jsonrpc: '2.0', id, result: { ...outcome.result, _meta: { ...meta, [RELATED_TASK]: { taskId } } } };
  }
}
