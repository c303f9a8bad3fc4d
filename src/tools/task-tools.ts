import type { Tool } from '../protocol/types.js';

/**
 * True for a tool that runs only as a task (`execution.taskSupport:
 * "required"`, 2025-11-25 "Tool-Level Negotiation"). Read from the tool's own
 * keys: an inherited `execution` is not the server's word.
 */
export function requiresTask(tool: Tool): boolean {
  const execution = Object.hasOwn(tool, 'execution') ? (tool.execution as unknown) : undefined;
  return typeof execution === 'object' && execution !== null && Object.hasOwn(execution, 'taskSupport') && (execution as { taskSupport?: unknown }).taskSupport === 'required';
}

/**
 * The tools a model may be offered when the server cannot run tasks: those
 * that require one are left out (a call could only fail), and named in
 * `dropped`.
 */
export function withoutTaskTools(tools: readonly Tool[]): { kept: Tool[]; dropped: string[] } {
  const kept: Tool[] = [];
  const dropped: string[] = [];
  for (const tool of tools) {
    if (requiresTask(tool)) dropped.push(tool.name);
    else kept.push(tool);
  }
  return { kept, dropped };
}
