import type { Tool } from 'rxmcp';
import { element } from './element.js';

/** The "run as a task" checkbox of a tool's call form, as `taskToggle` makes it. */
export interface TaskToggle {
  /** The checkbox and its label; undefined for a tool that cannot run as a task here. */
  view: HTMLElement | undefined;
  /** Whether the call is to run as a task. */
  chosen(): boolean;
}

/**
 * A "run as a task" checkbox for a tool whose `execution.taskSupport` is
 * `optional` (unticked) or `required` (ticked, and fixed), when the server
 * runs tool calls as tasks; nothing for any other tool. `execution` counts
 * only as the tool's own member: the tool is the server's.
 */
export function taskToggle(tool: Tool, serverRunsTasks: boolean): TaskToggle {
  const execution = Object.hasOwn(tool, 'execution') ? tool.execution : undefined;
  const support = typeof execution === 'object' && execution !== null && Object.hasOwn(execution, 'taskSupport') ? (execution as { taskSupport?: unknown }).taskSupport : undefined;
  if (!serverRunsTasks || (support !== 'optional' && support !== 'required')) return { view: undefined, chosen: () => false };
  const box = element('input');
  box.type = 'checkbox';
  box.id = 'as-task';
  box.checked = support === 'required';
  box.disabled = support === 'required';
  const label = element('label', support === 'required' ? ' run as a task (the tool requires it)' : ' run as a task');
  label.className = 'inline';
  label.prepend(box);
  return { view: label, chosen: () => box.checked };
}
