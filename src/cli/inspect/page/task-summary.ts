import type { Task } from 'rxmcp';

/** A task's state in one line: its status, and what the server says of it (the server's words, for `textContent`). */
export function taskSummary(task: Task): string {
  return `${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`;
}
