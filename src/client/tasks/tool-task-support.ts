import type { Tool } from '../../protocol/types.js';
import type { Session } from '../session.js';

/** What a 2025-11-25 tool says about running as a task (`execution.taskSupport`; absent means `forbidden`). */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** What `tool` says about running as a task. */
export function taskSupportOf(tool: Tool | undefined): TaskSupport {
  const support = (tool?.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/**
 * What each tool of a 2025-11-25 session supports, learned from the
 * `tools/list` answers that pass through the client, so that a task-aware
 * `callTool` need not list the tools before every call.
 *
 * Kept per session: a session the client has not seen list its tools (a
 * restarted server's, say) knows nothing. A `notifications/tools/list_changed`
 * forgets everything, and a list that such a notification overtook in flight
 * teaches nothing. A tool no list showed is not remembered, so calling it
 * lists again: it may have been added since.
 */
export class ToolTaskSupport {
  // Replaced, never cleared, when forgetting: a learner holding the old
  // table knows its list was overtaken.
  private sessions = new WeakMap<Session, ReadonlyMap<string, TaskSupport>>();

  /** What `name` supports in `session`, or `undefined` when no list of this session showed it. */
  of(session: Session, name: string): TaskSupport | undefined {
    return this.sessions.get(session)?.get(name);
  }

  /** Learns from a whole `tools/list` answer of `session` whose request starts now. */
  learner(session: Session): (tools: readonly Tool[]) => void {
    const sessions = this.sessions;
    return (tools) => {
      if (sessions === this.sessions) sessions.set(session, new Map(tools.map((tool) => [tool.name, taskSupportOf(tool)])));
    };
  }

  /** Forgets what every session's tools support: the server said they changed. */
  forget(): void {
    this.sessions = new WeakMap();
  }
}
