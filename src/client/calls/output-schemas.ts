import { filter, type Observable, type Subscription } from 'rxjs';
import { McpOutputSchemaError } from '../../errors/output-schema-errors.js';
import type { JsonRpcNotification } from '../../protocol/jsonrpc.js';
import type { CallToolResult, Tool } from '../../protocol/types.js';
import { quote } from '../../util/quote.js';
import { isObject, messageOf } from '../../util/values.js';
import { type Checker, compileOutputSchema, dialectOf, loadValidator, unsupportedDialect } from '../../tools/output-check.js';
import type { Session } from '../session.js';

/** The most tools warned of by name for an unsupported dialect; past it, no more warnings. */
const WARNED_TOOLS = 256;

/** One tool's outputSchema as a list showed it, and its checker once a result of the tool needed it. */
interface Entry {
  schema: Record<string, unknown>;
  checker?: Promise<Checker | string>;
}

/** Checks one result of a tool against its outputSchema: the result, or an `McpOutputSchemaError`. */
export type OutputCheck = (result: CallToolResult) => Promise<CallToolResult>;

/**
 * The outputSchemas of each session's tools, learned from the `tools/list`
 * answers that pass through the client (`listTools`, the LLM bridge's
 * catalogue, a list served from the cache was learned when it was fetched).
 * A tool no list of the session has shown is not checked: the client sends
 * no request of its own to find a schema.
 *
 * Each schema is compiled once per list, when a result of its tool first
 * needs it; the validator itself loads only then. A
 * `notifications/tools/list_changed` forgets everything, and a list that
 * such a notification overtook in flight teaches nothing.
 */
export class OutputSchemas {
  // Replaced, never cleared, when forgetting: a learner holding the old
  // table knows its list was overtaken.
  private sessions = new WeakMap<Session, ReadonlyMap<string, Entry>>();

  // The tools already warned of for a dialect this client does not check in, so
  // that a list fetched again does not warn again; bounded, as names come from servers.
  private readonly warned = new Set<string>();

  /**
   * `enabled` is the client option `validateStructuredContent`: off, nothing
   * is learned or checked. `warn` (the client's `onWarn`) hears once of each
   * tool whose outputSchema declares a dialect the client does not check in.
   */
  constructor(
    private readonly enabled: boolean,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** Learns from a whole `tools/list` answer of `session` whose request starts now; `undefined` when checking is off. */
  learner(session: Session): ((tools: readonly Tool[]) => void) | undefined {
    if (!this.enabled) return undefined;
    const sessions = this.sessions;
    return (tools) => {
      if (sessions !== this.sessions) return;
      const table = new Map<string, Entry>();
      for (const tool of tools) {
        if (!isObject(tool.outputSchema)) continue;
        table.set(tool.name, { schema: tool.outputSchema });
        if (dialectOf(tool.outputSchema) === undefined) this.warnUnsupported(tool.name, tool.outputSchema);
      }
      if (table.size > 0) sessions.set(session, table);
      else sessions.delete(session);
    };
  }

  private warnUnsupported(name: string, schema: Record<string, unknown>): void {
    if (this.warned.has(name) || this.warned.size >= WARNED_TOOLS) return;
    this.warned.add(name);
    this.warn(`tool ${quote(name)}: ${unsupportedDialect(schema)}; its results will fail with McpOutputSchemaError (unchecked)`);
  }

  /** The check for results of `name` in `session`, or `undefined` when no list of this session gave it an outputSchema. */
  checkFor(session: Session, name: string): OutputCheck | undefined {
    const entry = this.sessions.get(session)?.get(name);
    return entry && ((result) => check(name, entry, result));
  }

  /** Forgets every session's schemas whenever the server says its tool list changed; runs until unsubscribed. */
  watch(notifications$: Observable<JsonRpcNotification>): Subscription {
    return notifications$
      .pipe(filter((note) => note.method === 'notifications/tools/list_changed'))
      .subscribe({ next: () => (this.sessions = new WeakMap()), error: () => undefined });
  }
}

// A result with isError is the tool's own failure, which its schema does not
// describe (as the specification and the official client have it).
async function check(name: string, entry: Entry, result: CallToolResult): Promise<CallToolResult> {
  if (result.isError === true) return result;
  if (result.structuredContent === undefined) throw new McpOutputSchemaError(name, 'missing', 'the result has no structuredContent');
  entry.checker ??= loadValidator().then(
    (library) => compileOutputSchema(library, entry.schema),
    (error: unknown) => `the validator could not be loaded: ${quote(messageOf(error))}`,
  ).catch((error: unknown) => `its outputSchema could not be read: ${quote(messageOf(error))}`);
  const checker = await entry.checker;
  const verdict = typeof checker === 'string' ? { problem: 'unchecked' as const, violation: checker } : checker(result.structuredContent);
  if (verdict) throw new McpOutputSchemaError(name, verdict.problem, verdict.violation);
  return result;
}
