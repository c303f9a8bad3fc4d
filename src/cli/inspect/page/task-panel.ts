import { catchError, exhaustMap, filter, merge, of, Subject, Subscription, switchMap, takeWhile, timer } from 'rxjs';
import type { McpClient, Task } from 'rxmcp';
import { actionButton, actionRow, outcome } from './call-parts.js';
import { catalogueEntry, catalogueList } from './catalogue-list.js';
import { byId, element } from './element.js';
import { taskSummary } from './task-summary.js';
import { resultView } from './result-view.js';

/** How often the list is asked again while a listed task still runs, in milliseconds. */
const POLL_MS = 1500;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** What the task panel needs besides the client. */
export interface TaskPanelOptions {
  /** The server lists its tasks (`tasks/list`); the 2026-07-28 extension has no such list. */
  listable: boolean;
  /** Told the number of tasks at each listing. */
  onCount(count: number): void;
}

/** The task panel, as `showTasks` makes it. */
export interface TaskPanel {
  /** The listing and the shown task's requests: unsubscribing ends them (a followed task is left running). */
  subscription: Subscription;
  /** Lists the tasks again (as the tab is chosen, say). */
  refresh(): void;
}

/**
 * Shows the server's tasks in the Tasks panel, with Refresh: listed again
 * on a status notification, as the tab is chosen, and every 1.5 s while a
 * listed task still runs. Choosing one shows it in the Call panel: Cancel
 * asks the server to cancel it, Result follows it to its result (leaving it
 * running when the view goes). A server that cannot list its tasks says so.
 */
export function showTasks(mcp: McpClient, options: TaskPanelOptions): TaskPanel {
  const panel = byId('tasks');
  let viewing = new Subscription();
  const refresh = actionButton('Refresh', 'tasks-refresh');
  const list = element('div');
  panel.replaceChildren(actionRow(refresh), list);
  if (!options.listable) {
    list.append(element('p', 'This server does not list its tasks (the 2026-07-28 extension has no tasks/list): a tool run as a task shows its status in its call.'));
    return { subscription: new Subscription(), refresh: () => undefined };
  }
  const asked = new Subject<void>();
  refresh.onclick = () => asked.next();
  const statuses = mcp.notifications$.pipe(filter((note) => note.method === 'notifications/tasks/status'));
  const listing = merge(of(undefined), asked, statuses)
    .pipe(
      switchMap(() =>
        timer(0, POLL_MS).pipe(
          exhaustMap(() => mcp.listTasks()),
          takeWhile((tasks) => tasks.some((task) => !TERMINAL.has(task.status)), true),
          catchError((error: Error) => {
            list.replaceChildren(element('p', `The tasks could not be listed: ${error.message}`));
            return of(undefined);
          }),
        ),
      ),
    )
    .subscribe((tasks) => {
      if (tasks === undefined) return;
      options.onCount(tasks.length);
      list.replaceChildren(
        tasks.length === 0
          ? element('p', 'No tasks.')
          : catalogueList(tasks, (task) => {
              const entry = catalogueEntry(task.taskId, [taskSummary(task)], () => showTask(task));
              entry.dataset.task = task.taskId;
              return entry;
            }),
      );
    });
  listing.add(() => viewing.unsubscribe());
  return { subscription: listing, refresh: () => asked.next() };

  function showTask(task: Task): void {
    viewing.unsubscribe();
    const view = (viewing = new Subscription());
    const [status, output] = outcome();
    status.textContent = taskSummary(task);
    const cancel = actionButton('Cancel', 'task-cancel');
    cancel.disabled = TERMINAL.has(task.status);
    const result = actionButton('Result', 'task-result');
    const times = [`created ${task.createdAt}`, task.lastUpdatedAt ? `updated ${task.lastUpdatedAt}` : '', typeof task.ttlMs === 'number' ? `kept ${task.ttlMs} ms` : ''];
    const meta = element('p', times.filter((part) => part !== '').join(' · '));
    meta.className = 'meta';
    byId('call').replaceChildren(element('h2', `Task ${task.taskId}`), meta, actionRow(cancel, result), status, output);
    cancel.onclick = () => {
      cancel.disabled = true;
      status.textContent = 'cancelling…';
      view.add(
        mcp.cancelTask(task.taskId).subscribe({
          next: () => {
            status.textContent = 'cancelled';
            asked.next();
          },
          error: (error: Error) => {
            status.textContent = `failed: ${error.message}`;
            cancel.disabled = false;
          },
        }),
      );
    };
    result.onclick = () => {
      result.disabled = true;
      // Detached: leaving the view stops following the task, not the task.
      view.add(
        mcp.resumeTask(task.taskId, { detach: true, timeoutMs: 0 }).subscribe({
          next: (event) => {
            if (event.task) status.textContent = taskSummary(event.task);
            if (event.kind !== 'result') return;
            output.replaceChildren(...resultView(event.result));
          },
          error: (error: Error) => (status.textContent = `failed: ${error.message}`),
          complete: () => (result.disabled = false),
        }),
      );
    };
  }
}
