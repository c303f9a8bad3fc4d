import { mergeMap, Observable, of, Subscription, timer } from 'rxjs';
import { McpProtocolError } from '../../errors/protocol-errors.js';
import { McpTaskError } from '../../errors/task-errors.js';
import type { JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { checkToolResult, stripBookkeeping } from '../../protocol/shape.js';
import { isTaskHandle, isTerminal, readTask, type Task, type TaskEvent, type WireTask } from '../../protocol/tasks.js';
import type { CallToolResult, Era } from '../../protocol/types.js';
import { ErrorCode } from '../../protocol/versions.js';
import { LONGEST_TIMER_MS } from '../../util/checks.js';
import { type Answering, answerInputRequests } from '../questions/input-hooks.js';

/** How often to ask when the server suggests nothing. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** No server's `pollIntervalMs` has the client ask more often than this. */
export const MIN_POLL_INTERVAL_MS = 100;

/** The status notifications of both dialects: 2025-11-25, then the 2026-07-28 extension. */
const STATUS_NOTIFICATIONS = ['notifications/tasks/status', 'notifications/tasks'];

/** What following a task needs: its era, a way to send, the notifications, and who answers its questions. */
export interface TaskContext extends Answering {
  era: Era;
  /** Sends one request of the session (stamped for its era) and emits its result. */
  request(method: string, params: Record<string, unknown>): Observable<Record<string, unknown>>;
  notifications$: Observable<JsonRpcNotification>;
}

/** How a task is followed. */
export interface FollowOptions {
  /** Leave the task running on the server when the subscriber leaves (default: cancel it). */
  detach?: boolean;
}

/**
 * The events of a `tools/call` answer: one `result` for a direct answer, or
 * the task it named, followed to its end.
 */
export function eventsOf(context: TaskContext, answer: Record<string, unknown>, options: FollowOptions): Observable<TaskEvent> {
  if (!isTaskHandle(answer)) return of({ kind: 'result', task: undefined, result: answer as CallToolResult });
  return followTask(context, readTask('tools/call', answer), options);
}

/**
 * Follows a task from a known state to its end: emits each state it sees
 * (a state is new when its status or message changed), then the result, then
 * completes. It asks `tasks/get` at the server's `pollIntervalMs`, and at once
 * when a status notification for the task arrives. Input the task needs goes
 * through the hooks: 2025-11-25 by opening `tasks/result`, on which the
 * server sends its questions as requests (the client's usual answering of
 * server requests replies); 2026-07-28 by answering the `inputRequests` that
 * `tasks/get` shows, each key once, with `tasks/update`.
 *
 * A task that fails or is cancelled errors with `McpTaskError`, as does one
 * the server no longer knows (`expired`). Unsubscribing before the end stops
 * every poll and, unless `detach`, sends `tasks/cancel`.
 */
export function followTask(context: TaskContext, first: WireTask, options: FollowOptions = {}): Observable<TaskEvent> {
  return new Observable<TaskEvent>((subscriber) => {
    const { taskId } = first.task;
    const work = new Subscription();
    let done = false;
    let last: Task | undefined;
    let interval = DEFAULT_POLL_INTERVAL_MS;
    let waiting: Subscription | undefined;
    let fetching = false;
    const answered = new Set<string>();

    const fail = (error: unknown): void => {
      done = true;
      subscriber.error(error);
    };
    const finish = (task: Task, result: Record<string, unknown>): void => {
      let shaped: CallToolResult;
      try {
        shaped = stripBookkeeping(checkToolResult(result)) as CallToolResult;
      } catch (error) {
        fail(error);
        return;
      }
      done = true;
      subscriber.next({ kind: 'result', task, result: shaped });
      subscriber.complete();
    };
    // A protocol error about the task itself: the server no longer knows it.
    const lost = (error: unknown): unknown =>
      error instanceof McpProtocolError && error.code === ErrorCode.InvalidParams
        ? new McpTaskError(taskId, 'expired', error.message, error.code, error.data, { cause: error })
        : error;

    const schedule = (): void => {
      waiting?.unsubscribe();
      waiting = timer(interval).subscribe(poll);
      work.add(waiting);
    };
    function poll(): void {
      work.add(
        context.request('tasks/get', { taskId }).subscribe({
          next: (answer) => see(readOrFail('tasks/get', answer)),
          error: (error: unknown) => fail(lost(error)),
        }),
      );
    }
    const readOrFail = (method: string, value: unknown): WireTask | undefined => {
      try {
        return readTask(method, value);
      } catch (error) {
        fail(error);
        return undefined;
      }
    };

    // 2025-11-25: the result (and, before it, the task's questions) comes
    // from tasks/result, which the server holds open until the task ends.
    const fetchResult = (): void => {
      if (fetching) return;
      fetching = true;
      work.add(
        context.request('tasks/result', { taskId }).subscribe({
          next: (result) => {
            if (done) return;
            const seen = last ?? first.task;
            finish(isTerminal(seen.status) ? seen : { ...seen, status: 'completed' }, result);
          },
          error: (error: unknown) => {
            if (done) return;
            if (error instanceof McpProtocolError && error.code !== undefined && error.code !== ErrorCode.InvalidParams) {
              fail(new McpTaskError(taskId, 'failed', error.message, error.code, error.data, { cause: error }));
            } else fail(lost(error));
          },
        }),
      );
    };

    // 2026-07-28: answer each question once, however many polls show it.
    const answer = (inputRequests: Record<string, unknown> | undefined): void => {
      const fresh = Object.entries(inputRequests ?? {}).filter(([key]) => !answered.has(key));
      if (fresh.length === 0) return;
      for (const [key] of fresh) answered.add(key);
      work.add(
        // Screened and asked as a call's own input requests are: a task's question gets no laxer hearing.
        answerInputRequests(fresh, context, (key) => `task input request ${JSON.stringify(key)}`)
          .pipe(mergeMap((inputResponses) => context.request('tasks/update', { taskId, inputResponses })))
          .subscribe({
            next: () => {
              if (!done) poll();
            },
            error: (error: unknown) => fail(lost(error)),
          }),
      );
    };

    function see(wire: WireTask | undefined): void {
      if (done || wire === undefined || wire.task.taskId !== taskId) return;
      const { task } = wire;
      // The server's pace, within what a timer can keep: 1 ms (or a wait past
      // the longest timer, which fires at once) would be a loop of requests.
      if (task.pollIntervalMs !== undefined && task.pollIntervalMs > 0) interval = Math.min(LONGEST_TIMER_MS, Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs));
      if (last === undefined || last.status !== task.status || last.statusMessage !== task.statusMessage) {
        subscriber.next({ kind: 'status', task });
      }
      last = task;
      if (done) return;
      const legacy = context.era === 'legacy';
      if (task.status === 'cancelled') {
        fail(new McpTaskError(taskId, 'cancelled', task.statusMessage));
        return;
      }
      if (task.status === 'failed') {
        // A 2025-11-25 task also fails for a tool that answered isError:
        // tasks/result has the answer, which is a value, not an exception.
        if (legacy) fetchResult();
        else fail(new McpTaskError(taskId, 'failed', wire.error?.message ?? task.statusMessage, wire.error?.code, wire.error?.data));
        return;
      }
      if (task.status === 'completed') {
        if (!legacy && wire.result !== undefined) finish(task, wire.result);
        else if (legacy) fetchResult();
        else fail(new McpProtocolError(`tasks/get showed task ${JSON.stringify(taskId)} completed without its result`, undefined, undefined, 'tasks/get'));
        return;
      }
      if (task.status === 'input_required') {
        if (legacy) fetchResult();
        else answer(wire.inputRequests);
      }
      if (!isTerminal(task.status)) schedule();
    }

    work.add(
      context.notifications$.subscribe({
        next: (note) => {
          if (!STATUS_NOTIFICATIONS.includes(note.method) || note.params?.taskId !== taskId) return;
          see(readOrFail(note.method, note.params));
        },
        error: () => undefined,
      }),
    );
    see(first);

    return () => {
      work.unsubscribe();
      if (done || options.detach) return;
      // Not bound to this subscription, which is what is ending: the cancel
      // goes out on its own, and a failure is only worth a warning.
      context.request('tasks/cancel', { taskId }).subscribe({
        error: (error: unknown) => context.warn(`tasks/cancel ${JSON.stringify(taskId)} failed: ${error instanceof Error ? error.message : String(error)}`),
      });
    };
  });
}
