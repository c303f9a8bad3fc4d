import type { ListenFilter, ServerCapabilities } from 'rxmcp';

// The 2026-07-28 tasks extension's name (rxmcp/protocol's TASKS_EXTENSION),
// spelled here so that the page's bundle needs the root entry alone.
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What a server's capabilities say it offers, as the catalogue shows it. */
export interface ServerOffers {
  tools: boolean;
  resources: boolean;
  /** `resources.subscribe`: updates of a resource can be asked for. */
  subscribe: boolean;
  prompts: boolean;
  /** `completions`: prompt arguments and template variables can be completed. */
  completions: boolean;
  /** Tasks in either era: the 2025-11-25 `tasks` capability or the 2026-07-28 extension. */
  tasks: boolean;
  /** Tool calls can run as tasks (`tasks.requests.tools.call`, or the extension). */
  toolTasks: boolean;
  /** `tasks.list`: the server lists its tasks (the extension has no `tasks/list`). */
  listTasks: boolean;
  /** The list changes the server promised to announce. */
  listChanges: ListenFilter;
}

/**
 * Reads a server's capabilities, which are the server's to write: only own
 * members count (nothing from a prototype), and a member counts only as an
 * object, so `"tools": "yes"` offers nothing.
 */
export function serverOffers(capabilities: ServerCapabilities): ServerOffers {
  const tools = member(capabilities, 'tools');
  const resources = member(capabilities, 'resources');
  const prompts = member(capabilities, 'prompts');
  const tasks = member(capabilities, 'tasks');
  const extension = member(member(capabilities, 'extensions'), TASKS_EXTENSION);
  const toolTasks = member(member(member(tasks, 'requests'), 'tools'), 'call') !== undefined || extension !== undefined;
  const listChanges: ListenFilter = {};
  if (flag(tools, 'listChanged')) listChanges.toolsListChanged = true;
  if (flag(resources, 'listChanged')) listChanges.resourcesListChanged = true;
  if (flag(prompts, 'listChanged')) listChanges.promptsListChanged = true;
  return {
    tools: tools !== undefined,
    resources: resources !== undefined,
    subscribe: flag(resources, 'subscribe'),
    prompts: prompts !== undefined,
    completions: member(capabilities, 'completions') !== undefined,
    tasks: tasks !== undefined || extension !== undefined,
    toolTasks,
    listTasks: member(tasks, 'list') !== undefined,
    listChanges,
  };
}

function member(record: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  if (record === undefined || !Object.hasOwn(record, key)) return undefined;
  const value = record[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function flag(record: Record<string, unknown> | undefined, key: string): boolean {
  return record !== undefined && Object.hasOwn(record, key) && record[key] === true;
}
