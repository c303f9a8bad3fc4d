import { McpProtocolError } from '../errors/protocol-errors.js';
import { fields, nullable, number, oneOf, optional, record, shape, string } from './shapes.js';
import type { CallToolResult } from './types.js';

// The two task dialects on the wire. 2025-11-25 (core, legacy era): the
// client asks with `params.task: { ttl }`, the server answers
// `{ task: {...} }`, the result comes from `tasks/result`, timings are `ttl`
// and `pollInterval`. The 2026-07-28 extension `io.modelcontextprotocol/tasks`:
// the server decides, answers `resultType: "task"` with the task flat in the
// result, `tasks/get` inlines the result or error, input goes back through
// `tasks/update`, timings are `ttlMs` and `pollIntervalMs`.

/** The extension's identifier, declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a task stands. The last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as rxmcp hands it out, the same in both eras. */
export interface Task {
  /** The server's handle for the task: pass it to `resumeTask` or `cancelTask`, from any client of that server. */
  taskId: string;
  status: TaskStatus;
  /** What the server says about the current state, for a person to read. */
  statusMessage?: string;
  /** ISO 8601 time of creation. */
  createdAt: string;
  /** ISO 8601 time of the last change, when the server said. */
  lastUpdatedAt?: string;
  /** How long after creation the server may forget the task; `null` for never; absent when it did not say. */
  ttlMs?: number | null;
  /** How often the server would like to be asked, in milliseconds. */
  pollIntervalMs?: number;
}

/**
 * What `callToolAsTask` and `resumeTask` emit: each state of the task as it
 * is seen, then its result. A call the server answered directly emits one
 * `result` with no `task`.
 */
export type TaskEvent = { kind: 'status'; task: Task } | { kind: 'result'; task: Task | undefined; result: CallToolResult };

/** A task as the server sent it, with what it carries besides its state. */
export interface WireTask {
  task: Task;
  /** 2026-07-28: the final result of a completed task, inlined. */
  result?: Record<string, unknown>;
  /** 2026-07-28: the JSON-RPC error of a failed task. */
  error?: { code: number; message: string; data?: unknown };
  /** 2026-07-28: what an `input_required` task asks, keyed by the server. */
  inputRequests?: Record<string, unknown>;
}

const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

const text = optional(string);
const count = optional(number);

/** The members of a task this client reads, in either dialect (others pass through). */
export const wireTaskShape = shape(
  fields({
    taskId: string,
    status: oneOf(STATUSES),
    statusMessage: text,
    createdAt: string,
    lastUpdatedAt: text,
    ttlMs: optional(nullable(number)),
    ttl: optional(nullable(number)),
    pollIntervalMs: count,
    pollInterval: count,
    result: optional(record),
    error: optional(fields({ code: number, message: string })),
    inputRequests: optional(record),
  }),
);

/** The members of a task as the shape above lets them through: a `Task`'s, their 2025-11-25 names, and what it carries. */
interface WireTaskBody extends Task, Omit<WireTask, 'task'> {
  ttl?: number | null;
  pollInterval?: number;
}

/** Whether a status is terminal: the task will not change again. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * Whether a `tools/call` answer is a task handle rather than a result: a
 * 2026-07-28 `resultType: "task"`, or a 2025-11-25 `CreateTaskResult`
 * (`{ task }`, which has no `content`).
 */
export function isTaskHandle(result: Record<string, unknown>): boolean {
  if (result.resultType === 'task') return true;
  const task = result.task;
  return result.content === undefined && typeof task === 'object' && task !== null && typeof (task as { taskId?: unknown }).taskId === 'string';
}

/**
 * Reads a task from a `tools/call` handle, a `tasks/get` or `tasks/cancel`
 * answer, a `tasks/list` entry or a status notification, in either dialect.
 *
 * @throws McpProtocolError when it is not a task.
 */
export function readTask(method: string, value: unknown): WireTask {
  const body = typeof value === 'object' && value !== null && !('taskId' in value) && 'task' in value ? (value as { task: unknown }).task : value;
  const problem = wireTaskShape(body);
  if (problem) throw new McpProtocolError(`malformed task in ${method}: ${problem}`, undefined, { issues: [problem] }, method);
  const wire = body as WireTaskBody;
  const ttlMs = wire.ttlMs !== undefined ? wire.ttlMs : wire.ttl;
  const pollIntervalMs = wire.pollIntervalMs ?? wire.pollInterval;
  const task: Task = {
    taskId: wire.taskId,
    status: wire.status,
    createdAt: wire.createdAt,
    ...(wire.statusMessage === undefined ? {} : { statusMessage: wire.statusMessage }),
    ...(wire.lastUpdatedAt === undefined ? {} : { lastUpdatedAt: wire.lastUpdatedAt }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  };
  return {
    task,
    ...(wire.result === undefined ? {} : { result: wire.result }),
    ...(wire.error === undefined ? {} : { error: wire.error }),
    ...(wire.inputRequests === undefined ? {} : { inputRequests: wire.inputRequests }),
  };
}
