import { annotationsOf, SERVER_ANNOTATIONS, serverAnnotationsOf, TRUSTED_BATCH, type TrustedBatchOptions } from '../tools/annotation-trust.js';
import { failure, type LlmTool, type LlmToolCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { BehaviorSubject, type Observable } from 'rxjs';
import { ASKED_UNDER, takesPrefix } from '../client/questions/asking-server.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../tools/tool-declaration.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../tools/always-loaded.js';
import { messageOf } from '../util/values.js';
import type { ServerStatus } from './config-server.js';
import { configServers, type FromConfigOptions } from './config-servers.js';

/** One provider in a registry, under its prefix. */
export interface RegistryEntry {
  prefix: string;
  provider: ToolProvider;
}

/** Options of `Registry#add`. */
export interface RegistryAddOptions {
  /** The prefix its tools are published under. */
  prefix: string;
  /**
   * Trust what the provider's servers say of their tools (`readOnlyHint`,
   * `idempotentHint`, …): they then count in a `Policy`'s decisions and let
   * its batches overlap and merge, as a client's own `trustAnnotations`
   * does. Default `false`: the provider's hints count only where it trusts
   * them itself (a `Toolkit` always, a client with `trustAnnotations`).
   */
  trustAnnotations?: boolean;
}

/** Options of `Registry`. */
export interface RegistryOptions {
  /** What joins a prefix and a tool name (default `_`). */
  separator?: string;
  /** Called when a provider's tools cannot be listed (they are left out). */
  onWarn?: (message: string) => void;
}

/**
 * One tool namespace over many providers (clients, toolkits, other
 * registries, policy layers): every tool is published as
 * `{prefix}{separator}{name}`, and each call is routed back to the provider
 * whose prefix it was made under, the longest matching prefix winning (so
 * prefixes may extend each other and tool names may contain the separator).
 * Calls are batched per provider and answered in the model's order; a
 * provider that throws fails only its own calls.
 *
 * @example
 * ```ts
 * const tools = new Registry().add(git, { prefix: 'git' }).add(local, { prefix: 'fs' });
 * const declarations = await tools.toolsForLlm(); // git_log, …, fs_read, …
 * ```
 */
export class Registry implements ToolProvider {
  /**
   * A registry of the servers of a config file, each under its name as
   * prefix: any format `normalizeServerConfig` reads (Claude, Cursor,
   * Windsurf, VS Code, Codex, Gemini CLI, Goose, Zed, Copilot CLI, Cline,
   * Roo), as an object already parsed or as `ServerConfig` (from
   * `parseServerConfig`, or `readServerConfig` in `rxmcp/node`). An object's
   * warnings (unknown keys) are said through `onWarn`. Placeholders left in
   * it are filled in from `process.env` in Node; in a browser, resolve them
   * first (`resolvePlaceholders`). A broken entry (a key of the wrong type,
   * a variable not set, an `envFile` or `headersHelper` not honoured) is
   * shown `failed` and never started; the others are.
   *
   * Nothing starts here. The first catalogue read starts every enabled
   * server at once; one that fails to start or answer is left out of that
   * read (with `onWarn` saying why, and `status$` showing it), its calls are
   * answered with `is_error`, and it is tried again on the next read. The
   * others work. A tool that collides with another (a server listing a name
   * twice, or a name that lands under another server's prefix) is left out
   * with a warning, rather than failing every server's catalogue. `close()`
   * closes them all. The tools of a server whose entry has `alwaysLoad: true`
   * are always shown by a `ToolSearch` over the registry (or over a `Policy`,
   * `Reasons`… on it).
   *
   * @throws McpConfigError for a config that does not read, or (outside Node) holds placeholders never resolved.
   * @throws McpClientError for options that name a server the config lacks.
   * @example
   * ```ts
   * const tools = Registry.fromConfig(await readServerConfig('claude_desktop_config.json'), { onWarn: console.warn });
   * tools.status$.subscribe((servers) => render(servers));
   * const declarations = await tools.toolsForLlm(); // filesystem_read_file, …
   * await tools.close();
   * ```
   */
  static fromConfig(config: unknown, options: FromConfigOptions = {}): Registry {
    const { separator, onWarn } = options;
    const built = configServers(config, options);
    const registry = newRegistry({ ...(separator === undefined ? {} : { separator }), ...(onWarn ? { onWarn } : {}) });
    for (const { name, provider } of built.servers) registry.add(provider, { prefix: name });
    registry.statuses = built.status$;
    registry.leaveOutCollisions = true;
    registry.closed = built.end;
    return registry;
  }

  private readonly entries: RegistryEntry[] = [];
  // The entries added with `trustAnnotations: true`: trust goes with the entry a name routes to, never with a name.
  private readonly trusted = new WeakSet<RegistryEntry>();
  private readonly separator: string;
  private readonly warn: (message: string) => void;
  private readonly names = new NameMapper();
  private readonly noServers = new BehaviorSubject<ReadonlyMap<string, ServerStatus>>(new Map());
  private statuses: Observable<ReadonlyMap<string, ServerStatus>> = this.noServers.asObservable();
  private closed: () => void = () => this.noServers.complete();
  private leaveOutCollisions = false;
  // What an outer registry puts before this one's prefixes (its prefix and separator), or ''.
  private outer = '';

  constructor(options: RegistryOptions = {}) {
    this.separator = options.separator ?? '_';
    this.warn = options.onWarn ?? (() => undefined);
  }

  /**
   * Adds a provider under a prefix; with `trustAnnotations: true`, its
   * servers' tool annotations are trusted (see `RegistryAddOptions`).
   *
   * @throws McpClientError for an empty or duplicate prefix, a `trustAnnotations` that is not a boolean, or a provider without the two bridge methods.
   */
  add(provider: ToolProvider, options: RegistryAddOptions): this {
    const { prefix, trustAnnotations } = options ?? {};
    if (typeof prefix !== 'string' || prefix === '') throw new McpClientError('option prefix must be a non-empty string');
    if (trustAnnotations !== undefined && typeof trustAnnotations !== 'boolean') throw new McpClientError('option trustAnnotations must be a boolean');
    if (typeof provider?.toolsForLlm !== 'function' || typeof provider.executeToolCalls !== 'function') {
      throw new McpClientError(`the provider for ${JSON.stringify(prefix)} has no toolsForLlm and executeToolCalls`);
    }
    if (this.entries.some((entry) => entry.prefix === prefix)) throw new McpClientError(`prefix ${JSON.stringify(prefix)} is taken`);
    const entry = { prefix, provider };
    this.entries.push(entry);
    if (trustAnnotations) this.trusted.add(entry);
    this.tell(entry);
    return this;
  }

  /** Removes the provider under `prefix` and returns it, or `undefined` when there is none. */
  remove(prefix: string): ToolProvider | undefined {
    const index = this.entries.findIndex((entry) => entry.prefix === prefix);
    const provider = index === -1 ? undefined : this.entries.splice(index, 1)[0]?.provider;
    if (takesPrefix(provider)) provider[ASKED_UNDER](undefined, this.separator);
    return provider;
  }

  /**
   * Takes the prefix an outer registry publishes this one under, and passes
   * the whole prefix on to each provider: a question from a server of a
   * nested registry names the prefix its tools carry at the top.
   */
  [ASKED_UNDER](prefix: string | undefined, separator: string): void {
    this.outer = prefix === undefined ? '' : `${prefix}${separator}`;
    for (const entry of this.entries) this.tell(entry);
  }

  // Tells a provider its prefix, so its servers' questions say where they come
  // from: one hook shared by every server tells them apart by it.
  private tell(entry: RegistryEntry): void {
    if (takesPrefix(entry.provider)) entry.provider[ASKED_UNDER](`${this.outer}${entry.prefix}`, this.separator);
  }

  /**
   * Where each server of a config stands (see `Registry.fromConfig`), by
   * name; hot, and replayed to each subscriber. Empty for a registry built by
   * hand. Completes on `close()`.
   */
  get status$(): Observable<ReadonlyMap<string, ServerStatus>> {
    return this.statuses;
  }

  /** Closes every provider that can be closed (clients, the servers of a config, nested registries). */
  async close(): Promise<void> {
    await Promise.all(
      this.entries.map(async ({ provider }) => {
        const close = (provider as { close?: () => unknown }).close;
        if (typeof close === 'function') await close.call(provider);
      }),
    );
    this.closed();
  }

  /** The providers, with their prefixes, in the order they were added. */
  get providers(): readonly RegistryEntry[] {
    return [...this.entries];
  }

  /**
   * Every provider's tools under its prefix. A provider whose tools cannot be
   * listed is left out and reported through `onWarn`. The prefixed names are
   * then made portable as a whole (unless `options.names` says otherwise),
   * so a prefix that pushes a name past the limit is mapped here, once.
   *
   * @throws McpClientError (as a rejection) when two tools end up with one real name, or for an invalid `options.names`.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const lists = await Promise.all(
      this.entries.map(({ prefix, provider }) =>
        provider.toolsForLlm({ names: 'real' }).catch((error: unknown) => {
          this.warn(`left out the tools of ${JSON.stringify(prefix)}: ${messageOf(error)}`);
          return [] as LlmTool[];
        }),
      ),
    );
    const tools: LlmTool[] = [];
    const owners = new Map<string, string>();
    lists.forEach((list, n) => {
      const { prefix } = this.entries[n] as RegistryEntry;
      for (const tool of list) {
        const name = `${prefix}${this.separator}${tool.function.name}`;
        // A name routed to another provider (a longer prefix) would be unreachable.
        const routed = this.route(name)?.prefix;
        if (owners.has(name) || routed !== prefix) {
          // A config's servers are each other's strangers: one server's tool
          // list (a name twice, a name that lands under another server's
          // prefix) must not take the others' tools away. That tool is left out.
          if (this.leaveOutCollisions) {
            this.warn(`left out tool ${JSON.stringify(name)} of ${JSON.stringify(prefix)}: it collides with ${JSON.stringify(owners.get(name) ?? routed)}`);
            continue;
          }
          throw new McpClientError(
            `tool ${JSON.stringify(name)} of ${JSON.stringify(prefix)} collides with ${JSON.stringify(owners.get(name) ?? routed)}`,
          );
        }
        owners.set(name, prefix);
        tools.push({ ...tool, function: { ...tool.function, name } });
      }
    });
    return this.names.show(tools, options.names);
  }

  /**
   * What the provider behind a prefixed name says about that tool, or
   * `undefined`: its servers' hints only when it trusts them, or was added
   * with `trustAnnotations: true`.
   */
  async toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    const entry = this.route(name);
    if (!entry) return undefined;
    const local = name.slice(entry.prefix.length + this.separator.length);
    return this.trusted.has(entry) ? serverAnnotationsOf(entry.provider, local) : annotationsOf(entry.provider, local);
  }

  /** The declaration of the tool behind a prefixed name, under the name its server gave it. */
  async [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    const entry = this.route(name);
    return entry ? declarationOf(entry.provider, name.slice(entry.prefix.length + this.separator.length)) : undefined;
  }

  /**
   * Whether the provider behind a prefixed name says that tool is always
   * loaded: for `Registry.fromConfig`, whether its server's entry has
   * `alwaysLoad: true`. A `ToolSearch` over the registry (or over layers on
   * it) shows those tools from the start.
   */
  [ALWAYS_LOADED](name: string): boolean {
    const entry = this.route(name);
    return entry ? isAlwaysLoaded(entry.provider, name.slice(entry.prefix.length + this.separator.length)) : false;
  }

  /** The tool's annotations as its server sent them, for an outer registry that marked this one trusted. */
  async [SERVER_ANNOTATIONS](name: string): Promise<ToolAnnotations | undefined> {
    const entry = this.route(name);
    return entry ? serverAnnotationsOf(entry.provider, name.slice(entry.prefix.length + this.separator.length)) : undefined;
  }

  /** Runs a batch: each call routed by prefix, each provider's calls as one batch, answers in the model's order. */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const read = await readBack(this.names, given, givenOptions, () => this.toolsForLlm({ names: 'real' }));
    if ('answers' in read) return read.answers;
    const { calls, options } = read;
    const answers: ToolMessage[] = new Array(calls.length);
    const batches = new Map<RegistryEntry, Array<{ index: number; call: LlmToolCall }>>();
    calls.forEach((call, index) => {
      const name = (call as { function?: { name?: unknown } })?.function?.name;
      const id = typeof call?.id === 'string' ? call.id : '';
      const entry = typeof name === 'string' ? this.route(name) : undefined;
      if (!entry) {
        answers[index] = failure(id, typeof name === 'string' ? `Unknown tool: ${name}` : 'Malformed tool call: it needs an id and a function name');
        return;
      }
      const local = (name as string).slice(entry.prefix.length + this.separator.length);
      const batch = batches.get(entry) ?? [];
      batch.push({ index, call: { ...call, function: { ...call.function, name: local } } });
      batches.set(entry, batch);
    });
    for (const [entry, batch] of batches) {
      let results: ToolMessage[];
      try {
        results = await entry.provider.executeToolCalls(
          batch.map(({ call }) => call),
          // A trusted entry vouches for its provider's hints, so its batch may overlap.
          this.trusted.has(entry) ? vouching(options) : options,
        );
      } catch (error) {
        const reason = messageOf(error);
        results = batch.map(({ call }) => failure(call.id, `${entry.prefix} failed: ${reason}`));
      }
      batch.forEach(({ index, call }, n) => {
        answers[index] = results[n] ?? failure(call.id, `${entry.prefix} gave no answer for this call`);
      });
    }
    return answers;
  }

  private route(name: string): RegistryEntry | undefined {
    let best: RegistryEntry | undefined;
    for (const entry of this.entries) {
      const head = `${entry.prefix}${this.separator}`;
      if (name.startsWith(head) && name.length > head.length && (!best || entry.prefix.length > best.prefix.length)) best = entry;
    }
    return best;
  }
}

// For `fromConfig`: the class is named outside its own body: a mention inside makes the bundle give it an inner name (_Registry), which Registry.name would show.
function newRegistry(options: RegistryOptions): Registry {
  return new Registry(options);
}

function vouching(options: ExecuteOptions): ExecuteOptions {
  const vouched: ExecuteOptions & TrustedBatchOptions = { ...options, [TRUSTED_BATCH]: true };
  return vouched;
}
