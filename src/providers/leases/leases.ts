import { annotationsOf, failure, type LlmTool, type LlmToolCall, parseCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../../tools/tool-names.js';
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { ToolAnnotations } from '../../protocol/types.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../../tools/always-loaded.js';
import { refuseUnknown } from '../../util/refuse-unknown.js';
import { keysOf } from '../../util/option-keys.js';
import { DEFAULT_LOCATION_KEYS, locationsOf, segments } from '../policy/paths.js';
import type { LeaseRefusal, LeaseStore } from './lease-store.js';
import { isStrings, messageOf } from '../../util/values.js';

/** Options of `Leases`. */
export interface LeasesOptions {
  /** The provider whose mutating calls are checked against the table. */
  inner: ToolProvider;
  /** The workspace's table, shared by every agent's layer: a `LeaseTable` in one process, a `RedisLeaseTable` across processes. */
  table: LeaseStore;
  /** The agent this layer speaks for. */
  agentId: string;
  /** Tool-name prefix → the directory relative paths resolve against (`lock` for the lock tools). */
  roots?: Record<string, string>;
  /** How many agents are live now; more than one turns strict mode on. Fails closed: a throw or a non-number counts as more than one. */
  concurrent?: () => number;
  /** The tools whose calls change files (default: the `fs_*` names and server-filesystem's, prefixed `fs_` or not). */
  enforcedTools?: string[];
  /** Called when an acquire really starts to wait (never for an immediate grant or `wait: 0`). */
  onWaitBegin?: () => void;
  /** Called when such a wait ends, however it ends. */
  onWaitEnd?: () => void;
  /** Asked once per poll; true ends a wait early. Fails open: a throw means "not cancelled". */
  cancelled?: () => boolean;
}

const OPTION_KEYS = keysOf<LeasesOptions>({
  inner: true,
  table: true,
  agentId: true,
  roots: true,
  concurrent: true,
  enforcedTools: true,
  onWaitBegin: true,
  onWaitEnd: true,
  cancelled: true,
});

/** Mutating tools by default: the seed's `fs_*` names, and server-filesystem's with and without an `fs_` prefix. */
export const DEFAULT_ENFORCED_TOOLS: readonly string[] = [
  'fs_write',
  'fs_edit',
  'fs_move',
  'fs_delete',
  ...['write_file', 'edit_file', 'move_file', 'create_directory'].flatMap((name) => [name, `fs_${name}`]),
];

const DEFAULT_WAIT_SECONDS = 90;
const POLL_MS = 1000;

const LOCK_TOOLS: LlmTool[] = [
  {
    type: 'function',
    function: {
      name: 'lock_acquire',
      description:
        'Claim files or directories before changing them, all or nothing. Waits up to `wait` seconds (default 90) for another agent to let go; the claim lasts `ttl` seconds.',
      parameters: {
        type: 'object',
        properties: {
          paths: { type: 'array', items: { type: 'string' }, description: 'The paths to claim.' },
          ttl: { type: 'number', description: 'How long the claim lasts, in seconds.' },
          wait: { type: 'number', description: 'How long to wait for a path held by another agent, in seconds; 0 never waits.' },
        },
        required: ['paths'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'lock_release',
      description: 'Give back claimed paths, or everything you hold when `paths` is left out.',
      parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } } },
    },
  },
];

/**
 * Advisory file leases for a fleet of agents editing one checkout: one
 * instance per agent (its `agentId`), one lease table for the workspace (a
 * `LeaseTable` in one process, a `RedisLeaseTable` across processes). It
 * publishes `lock_acquire(paths, ttl?, wait?)` and `lock_release(paths?)`
 * (without any prefix) and checks every call of a mutating tool: another
 * agent's lease on a path always refuses it; and when more than one agent is
 * live (`concurrent()`), a mutating call must be covered by a lease this
 * agent holds. Refusals are `is_error` answers that say who holds what and
 * how to proceed. A table that cannot answer refuses too (fail closed).
 * Leases are advisory: the filesystem's own checks still apply.
 */
export class Leases implements ToolProvider {
  private readonly options: LeasesOptions;
  private readonly roots: Array<[string, string]>;
  private readonly enforced: readonly string[];
  private readonly names = new NameMapper();

  /** @throws McpClientError for an unknown option or a missing inner provider, table or agent id. */
  constructor(options: LeasesOptions) {
    refuseUnknown(options, OPTION_KEYS);
    if (typeof options.inner?.executeToolCalls !== 'function') throw new McpClientError('option inner must be a tool provider');
    if (typeof options.table?.acquire !== 'function') throw new McpClientError('option table must be a lease table (LeaseTable, RedisLeaseTable)');
    if (typeof options.agentId !== 'string' || options.agentId === '') throw new McpClientError('option agentId must be a non-empty string');
    this.options = options;
    this.roots = Object.entries(options.roots ?? {}).sort(([a], [b]) => b.length - a.length);
    this.enforced = options.enforcedTools ?? DEFAULT_ENFORCED_TOOLS;
  }

  /** The lock tools, then the inner provider's, under portable names unless `options.names` says otherwise. */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    return this.names.show(await this.realTools(), options.names);
  }

  private async realTools(): Promise<LlmTool[]> {
    return [...LOCK_TOOLS, ...(await this.options.inner.toolsForLlm({ names: 'real' }))];
  }

  /** What the inner provider says about a tool. */
  toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    return annotationsOf(this.options.inner, name);
  }

  /** Whether the inner provider says the tool is always loaded; the lock tools are this layer's own, and never are. */
  [ALWAYS_LOADED](name: string): boolean {
    return !LOCK_TOOLS.some((tool) => tool.function.name === name) && isAlwaysLoaded(this.options.inner, name);
  }

  /**
   * Answers the lock tools itself, checks mutating calls against the table,
   * and forwards the rest to the inner provider as one batch, answering in
   * the model's order. A table that cannot answer refuses: no lease is
   * granted and no mutating call runs unchecked. Calls under shown names
   * are read back to the real names first.
   */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const read = await readBack(this.names, given, givenOptions, () => this.realTools());
    if ('answers' in read) return read.answers;
    const { calls, options } = read;
    const answers: ToolMessage[] = new Array(calls.length);
    const forwarded: Array<{ index: number; call: LlmToolCall }> = [];
    for (const [index, call] of calls.entries()) {
      const name = call?.function?.name;
      if (name === 'lock_acquire' || name === 'lock_release') {
        answers[index] = await this.lockTool(call);
        continue;
      }
      const refusal = typeof name === 'string' && this.enforced.includes(name) ? await this.check(call) : undefined;
      if (refusal) answers[index] = failure(call.id, refusal);
      else forwarded.push({ index, call });
    }
    if (forwarded.length > 0) {
      const results = await this.options.inner.executeToolCalls(
        forwarded.map(({ call }) => call),
        options,
      );
      forwarded.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  // Why a mutating call may not run now, or undefined when it may.
  private async check(call: LlmToolCall): Promise<string | undefined> {
    const parsed = parseCall(call);
    if ('error' in parsed) return undefined;
    try {
      return await this.checkPaths(this.normalise(parsed.name, locationsOf(parsed.args, DEFAULT_LOCATION_KEYS)));
    } catch (error) {
      return `${parsed.name} was not run: the lease table could not be read, so nobody can tell whether another agent holds its paths (${messageOf(error)}); try again later`;
    }
  }

  private async checkPaths(paths: Array<string | undefined>): Promise<string | undefined> {
    const { table, agentId } = this.options;
    for (const path of paths) {
      if (path === undefined) continue;
      const conflict = await table.conflict(agentId, path);
      if (conflict) return `${path} is leased by ${conflict[1].holder}; wait for it (lock_acquire with wait) or work on something else`;
    }
    if (!this.strict()) return undefined;
    // An unreadable path counts as uncovered: strict mode fails closed.
    let uncovered = paths.length === 0;
    let which = 'its paths';
    for (const path of paths) {
      if (path === undefined || !(await table.covers(agentId, path))) {
        uncovered = true;
        which = path ?? which;
        break;
      }
    }
    if (uncovered) {
      return `Other agents are editing this workspace: call lock_acquire with ${JSON.stringify([which])} first, then retry this call`;
    }
    return undefined;
  }

  private async lockTool(call: LlmToolCall): Promise<ToolMessage> {
    const parsed = parseCall(call);
    if ('error' in parsed) return failure(call?.id ?? '', parsed.error);
    const { table, agentId } = this.options;
    const { paths: raw, ttl, wait } = parsed.args;
    if (parsed.name === 'lock_release') {
      if (raw !== undefined && !isStrings(raw)) return failure(parsed.id, 'lock_release: paths must be a list of paths');
      const paths = raw === undefined ? undefined : this.normalise('lock_release', raw);
      if (paths?.includes(undefined)) return failure(parsed.id, 'lock_release: a path could not be read');
      let released: string[];
      try {
        released = await table.release(agentId, paths as string[] | undefined);
      } catch (error) {
        return failure(parsed.id, `lock_release: the lease table could not be reached, so nothing may have been released (${messageOf(error)}); try again later`);
      }
      return reply(parsed.id, `released ${released.length === 0 ? 'nothing' : released.join(', ')}`);
    }
    if (!isStrings(raw) || raw.length === 0) return failure(parsed.id, 'lock_acquire: paths must be a non-empty list of paths');
    if (ttl !== undefined && !(typeof ttl === 'number' && ttl > 0)) return failure(parsed.id, 'lock_acquire: ttl must be a positive number of seconds');
    if (wait !== undefined && !(typeof wait === 'number' && wait >= 0)) return failure(parsed.id, 'lock_acquire: wait must be 0 or more seconds');
    const paths = this.normalise('lock_acquire', raw);
    if (paths.includes(undefined)) return failure(parsed.id, 'lock_acquire: a path could not be read (relative without a root, .., NUL or backslash)');
    const ttlSeconds = (ttl as number | undefined) ?? table.defaultTtlSeconds;
    const waitSeconds = Math.min((wait as number | undefined) ?? DEFAULT_WAIT_SECONDS, table.defaultTtlSeconds);
    let refusal: LeaseRefusal | undefined;
    try {
      refusal = await this.acquire(paths as string[], ttlSeconds, waitSeconds);
    } catch (error) {
      return failure(parsed.id, `lock_acquire: the lease table could not be reached, so nothing was acquired (${messageOf(error)}); try again later`);
    }
    if (!refusal) return reply(parsed.id, `acquired ${(paths as string[]).join(', ')} for ${ttlSeconds} s`);
    return failure(
      parsed.id,
      `refused: ${refusal.path} is held by ${refusal.holder} (for ${refusal.heldForSeconds} s); work on something else and try again later`,
    );
  }

  // Tries at once, then polls about once a second until the wait runs out,
  // the run is cancelled, or the paths are free. Nothing is held meanwhile.
  // A table that fails ends the wait at once: its error is the answer.
  private async acquire(paths: string[], ttlSeconds: number, waitSeconds: number): Promise<LeaseRefusal | undefined> {
    const { table, agentId } = this.options;
    let refusal = await table.acquire(agentId, paths, ttlSeconds);
    if (!refusal || waitSeconds === 0) return refusal;
    const deadline = Date.now() + waitSeconds * 1000;
    shielded(this.options.onWaitBegin);
    try {
      while (refusal && Date.now() < deadline && !this.cancelled()) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
        refusal = await table.acquire(agentId, paths, ttlSeconds);
      }
      return refusal;
    } finally {
      shielded(this.options.onWaitEnd);
    }
  }

  // More than one live agent, or an answer that cannot be read as a count.
  private strict(): boolean {
    const { concurrent } = this.options;
    if (!concurrent) return false;
    try {
      const count = concurrent();
      return !(typeof count === 'number' && Number.isFinite(count)) || count > 1;
    } catch {
      return true;
    }
  }

  private cancelled(): boolean {
    try {
      return this.options.cancelled?.() === true;
    } catch {
      return false;
    }
  }

  private normalise(tool: string, paths: readonly unknown[]): Array<string | undefined> {
    const root = this.roots.find(([prefix]) => tool.startsWith(prefix))?.[1];
    return paths.map((path) => {
      const parts = segments(path, root);
      return parts ? `/${parts.join('/')}` : undefined;
    });
  }
}

function reply(id: string, text: string): ToolMessage {
  return { role: 'tool', tool_call_id: id, content: text, is_error: false };
}

function shielded(hook: (() => void) | undefined): void {
  try {
    hook?.();
  } catch {
    // A host's bookkeeping that fails must not turn a lock into an error.
  }
}
