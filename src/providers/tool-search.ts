import { BehaviorSubject, type Observable } from 'rxjs';
import { annotationsOf, failure, type LlmTool, type LlmToolCall, parseCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../tools/bridge.js';
import { NameMapper, type ToolNames, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../tools/tool-declaration.js';
import { DEFERRABLE_TOOLS, type DeferrableTool } from '../tools/deferred-tools.js';
import { isAlwaysLoaded } from '../tools/always-loaded.js';
import { type SearchableTool, ToolIndex } from '../tools/tool-index.js';
import { messageOf } from '../util/values.js';
import { MAX_FOUND, searchAnswer, searchDeclaration, SEARCH_ANNOTATIONS } from './tool-search-tool.js';

export type { SearchableTool } from '../tools/tool-index.js';

/** Options of `ToolSearch`. */
export interface ToolSearchOptions {
  /** The provider whose catalogue is searched and whose tools run the calls. */
  provider: ToolProvider;
  /** Tools always shown, by real or shown name (a name the catalogue lacks is skipped, with `onWarn` once). */
  alwaysInclude?: readonly string[];
  /**
   * Tools always shown, by a test of their real name (`(name) => name.startsWith('github_')` keeps a server's tools).
   * Besides these and `alwaysInclude`, the tools of a config's server with
   * `alwaysLoad: true` are always shown, when the provider is (or wraps) a
   * `Registry.fromConfig`.
   */
  alwaysIncludeIf?: (name: string) => boolean;
  /** How many found tools stay shown beside the always-included ones, the most recently found or called kept (default 20, 1 to 1,000). */
  maxLoaded?: number;
  /** The search tool's name (default `tool_search`); it must fit the portable name rule. */
  searchToolName?: string;
  /**
   * Your own ranker, fused with the lexical one: given the query and the
   * whole catalogue (the same array while the catalogue is unchanged, so
   * embeddings can be cached by it), it answers one score per tool, higher
   * better (a score that is not a finite number is no opinion). Both
   * rankings are fused by reciprocal rank, so their scales never matter.
   * One that throws or answers a list of another length is ignored, with
   * `onWarn`, and the lexical ranking stands.
   */
  rank?: (query: string, tools: readonly SearchableTool[]) => ReadonlyArray<number> | Promise<ReadonlyArray<number>>;
  /** Told what went wrong that does not fail a call: an `alwaysInclude` name not found, a `rank` that failed. */
  onWarn?: (message: string) => void;
}

/** One tool a search found. */
export interface ToolSearchResult {
  /** Its name as `toolsForLlm()` shows it (under the default rule, or the rule the search was given). */
  name: string;
  description?: string;
  /** How well it matched: higher is better; comparable only within one search. */
  score: number;
}

const DEFAULT_MAX_LOADED = 20;
const DEFAULT_LIMIT = 5;
/** The most tools one `search` answers. */
const MAX_LIMIT = 100;
// Reciprocal rank fusion's constant: the usual 60 keeps either ranking's top from deciding alone.
const RRF_K = 60;
const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

// What a ToolSearch and its forks share: the last reading of the catalogue
// (with its index), the name mapping, and the warnings already given.
interface Shared {
  last: Snapshot | undefined;
  names: NameMapper;
  warned: Set<string>;
}

// One reading of the provider's catalogue: kept while the provider's tools
// stay the same (by name, description and the schema object), so the
// lexical index is built once per catalogue, not once per turn.
interface Snapshot {
  tools: LlmTool[];
  positions: Map<string, number>;
  /** Which tools are always shown (`alwaysInclude`, `alwaysIncludeIf`, a config's `alwaysLoad`). */
  always: Uint8Array;
  searchable?: SearchableTool[];
  index?: Promise<ToolIndex>;
}

/**
 * Big catalogues, small declarations: the model is shown a few tools that
 * are always there (`alwaysInclude`, `alwaysIncludeIf`, and the servers a
 * config marks `alwaysLoad`) and a `tool_search`
 * tool; the tools a search finds join the next `toolsForLlm()`, up to
 * `maxLoaded` of them (the least recently found or called go first). Search
 * is lexical (BM25F over names, titles, descriptions and parameters), in
 * process, with a hook for your own ranker.
 *
 * A call to a tool that exists but is not shown yet runs (and loads it): a
 * model names only tools it was told of, by a search or by a vendor's own
 * tool search, and refusing would cost a turn and protect nothing: who may
 * call what is a `Policy`'s job. A provider that already has a tool under
 * the search tool's name makes `toolsForLlm` reject and every call fail:
 * give `searchToolName`, or put the provider under a `Registry` prefix.
 *
 * Its seat: outermost, `ToolSearch( Policy( Registry ) )`, so a search never
 * offers a tool the policy denies outright, and the search itself asks no
 * one. One instance holds one conversation's loaded tools; `reset()` forgets
 * them, and `fork()` makes another conversation over the same catalogue.
 *
 * @example
 * ```ts
 * const tools = new ToolSearch({ provider: registry, alwaysInclude: ['fs_read_file'] });
 * const declarations = await tools.toolsForLlm(); // fs_read_file, tool_search
 * const answers = await tools.executeToolCalls(reply.tool_calls); // a search loads what it found
 * ```
 */
export class ToolSearch implements ToolProvider {
  private readonly provider: ToolProvider;
  private readonly alwaysNames: ReadonlySet<string>;
  private readonly alwaysIf: ((name: string) => boolean) | undefined;
  private readonly maxLoaded: number;
  private readonly searchName: string;
  private readonly rank: ToolSearchOptions['rank'];
  private readonly warn: (message: string) => void;
  private readonly options: ToolSearchOptions;
  private shared: Shared = { last: undefined, names: new NameMapper(), warned: new Set() };
  // Real names, least recently loaded first.
  private readonly loaded = new Map<string, true>();
  private readonly loadedNames = new BehaviorSubject<readonly string[]>([]);

  /** @throws McpClientError for a missing provider or an option of the wrong kind. */
  constructor(options: ToolSearchOptions) {
    const { provider, alwaysInclude = [], alwaysIncludeIf, maxLoaded = DEFAULT_MAX_LOADED, searchToolName = 'tool_search', rank, onWarn } = options ?? ({} as ToolSearchOptions);
    if (typeof provider?.toolsForLlm !== 'function' || typeof provider.executeToolCalls !== 'function') throw new McpClientError('option provider must be a tool provider');
    if (!Array.isArray(alwaysInclude) || alwaysInclude.some((name) => typeof name !== 'string')) throw new McpClientError('option alwaysInclude must be a list of tool names');
    if (alwaysIncludeIf !== undefined && typeof alwaysIncludeIf !== 'function') throw new McpClientError('option alwaysIncludeIf must be a function');
    if (!Number.isInteger(maxLoaded) || maxLoaded < 1 || maxLoaded > 1000) throw new McpClientError('option maxLoaded must be a whole number from 1 to 1000');
    if (typeof searchToolName !== 'string' || !PORTABLE_NAME.test(searchToolName)) throw new McpClientError('option searchToolName must be a portable tool name');
    if (rank !== undefined && typeof rank !== 'function') throw new McpClientError('option rank must be a function');
    if (onWarn !== undefined && typeof onWarn !== 'function') throw new McpClientError('option onWarn must be a function');
    this.options = { ...options, alwaysInclude: [...alwaysInclude] };
    this.provider = provider;
    this.alwaysNames = new Set(alwaysInclude);
    this.alwaysIf = alwaysIncludeIf;
    this.maxLoaded = maxLoaded;
    this.searchName = searchToolName;
    this.rank = rank;
    this.warn = onWarn ?? (() => undefined);
  }

  /** The real names of the tools searches have loaded, least recent first; hot, replays the current list. */
  get loaded$(): Observable<readonly string[]> {
    return this.loadedNames.asObservable();
  }

  /**
   * Another conversation over the same provider, with the same options and
   * nothing loaded: it shares this one's reading of the catalogue and its
   * index (built once for all), not its loaded tools. What `rxmcp serve
   * --tool-search` gives each host.
   */
  fork(): ToolSearch {
    const twin = newToolSearch(this.options);
    twin.shared = this.shared;
    return twin;
  }

  /** Forgets every loaded tool (a new conversation); the always-included stay. */
  reset(): void {
    this.loaded.clear();
    this.loadedNames.next([]);
  }

  /**
   * The always-included tools, the search tool, then the loaded tools (least
   * recently loaded first), under portable names unless `options.names` says
   * otherwise. Names are mapped over the whole catalogue, so a tool has the
   * same name whether shown, found or not loaded at all.
   *
   * @throws McpClientError (as a rejection) when the provider has a tool under the search tool's name, or for an invalid `options.names`.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const snapshot = await this.snapshot();
    const shown = this.shared.names.show([...snapshot.tools, searchDeclaration(this.searchName)], options.names);
    const always = shown.filter((_tool, n) => snapshot.always[n] === 1);
    const loaded = [...this.loaded.keys()].flatMap((name) => {
      const at = snapshot.positions.get(name);
      return at === undefined || snapshot.always[at] === 1 ? [] : [shown[at] as LlmTool];
    });
    return [...always, shown[shown.length - 1] as LlmTool, ...loaded];
  }

  /**
   * Ranks the whole catalogue for a query, best first, at most `limit` tools
   * (default 5, at most 100). Loads nothing: only the model's own searches do.
   * Only the first 2,048 characters of the query are read.
   *
   * @throws McpClientError (as a rejection) for a query that is not a string or a limit that is not a whole number from 1.
   */
  async search(query: string, options: { limit?: number; names?: ToolNames } = {}): Promise<ToolSearchResult[]> {
    const { limit = DEFAULT_LIMIT, names } = options;
    if (typeof query !== 'string') throw new McpClientError('a search query must be a string');
    if (!Number.isInteger(limit) || limit < 1) throw new McpClientError('option limit must be a whole number from 1');
    const snapshot = await this.snapshot();
    const shown = this.shared.names.show([...snapshot.tools, searchDeclaration(this.searchName)], names);
    const hits = await this.ranked(snapshot, query, Math.min(limit, MAX_LIMIT));
    return hits.map(({ doc, score }) => {
      const { description } = (shown[doc] as LlmTool).function;
      return { name: (shown[doc] as LlmTool).function.name, ...(description === undefined ? {} : { description }), score };
    });
  }

  /**
   * Answers the search tool's calls here, loading what they find, and passes
   * every other call on as one batch (a call to a tool not yet shown loads
   * it too). A view's calls (`caller: 'app'`) all go on: a view neither
   * searches nor loads. Never rejects.
   */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    let snapshot: Snapshot | undefined;
    let broken: unknown;
    try {
      snapshot = await this.snapshot();
    } catch (error) {
      if (error instanceof SearchNameTaken) return given.map((call) => failure(typeof call?.id === 'string' ? call.id : '', error.message));
      broken = error;
    }
    const read = await readBack(this.shared.names, given, givenOptions, async () => [...(await this.snapshot()).tools, searchDeclaration(this.searchName)]);
    if ('answers' in read) return read.answers;
    const { calls, options } = read;
    if (givenOptions.caller === 'app') return this.provider.executeToolCalls(calls, options);
    const answers: ToolMessage[] = new Array(calls.length);
    const passed: Array<{ index: number; call: LlmToolCall }> = [];
    for (const [index, call] of calls.entries()) {
      const name = (call as { function?: { name?: unknown } } | null)?.function?.name;
      if (name !== this.searchName) {
        passed.push({ index, call });
        if (snapshot && typeof name === 'string' && snapshot.positions.has(name)) this.load([name], snapshot);
        continue;
      }
      answers[index] = snapshot ? await this.answer(call, snapshot, givenOptions.names) : failure(call.id, `The tools could not be listed, so none could be searched: ${messageOf(broken)}`);
    }
    if (passed.length > 0) {
      let results: ToolMessage[];
      try {
        results = await this.provider.executeToolCalls(
          passed.map(({ call }) => call),
          options,
        );
      } catch (error) {
        results = passed.map(({ call }) => failure(call.id, messageOf(error)));
      }
      passed.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  /** What the provider below says about a tool; the search tool reads only. */
  async toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    return name === this.searchName ? { ...SEARCH_ANNOTATIONS } : annotationsOf(this.provider, name);
  }

  /** The tool's declaration as the provider below has it, or the search tool's own (see `tool-declaration.ts`). */
  async [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    if (name !== this.searchName) return declarationOf(this.provider, name);
    const { function: fn } = searchDeclaration(this.searchName);
    return { name: fn.name, title: SEARCH_ANNOTATIONS.title, description: fn.description, inputSchema: fn.parameters, annotations: { ...SEARCH_ANNOTATIONS } };
  }

  /** The whole catalogue for vendor-native tool search: the always-included tools loaded, the rest deferred (see `deferred-tools.ts`). */
  async [DEFERRABLE_TOOLS](): Promise<DeferrableTool[]> {
    const snapshot = await this.snapshot();
    const shown = this.shared.names.show([...snapshot.tools, searchDeclaration(this.searchName)], undefined);
    return snapshot.tools.map((_tool, n) => ({ tool: shown[n] as LlmTool, deferred: snapshot.always[n] !== 1 }));
  }

  // The search tool's answer to one call; what it finds is loaded, the best last (so kept longest).
  private async answer(call: LlmToolCall, snapshot: Snapshot, names: ToolNames | undefined): Promise<ToolMessage> {
    const parsed = parseCall(call);
    if ('error' in parsed) return failure(parsed.id, parsed.error);
    const { query, limit } = parsed.args;
    if (typeof query !== 'string' || query.trim() === '') return failure(parsed.id, `${this.searchName} needs a query: a few words saying what the tool should do`);
    const wanted = typeof limit === 'number' && Number.isFinite(limit) ? Math.round(limit) : DEFAULT_LIMIT;
    let hits: Array<{ doc: number; score: number }>;
    try {
      hits = await this.ranked(snapshot, query, Math.min(Math.max(wanted, 1), this.maxLoaded, MAX_FOUND));
    } catch (error) {
      return failure(parsed.id, `The search failed: ${messageOf(error)}`);
    }
    this.load(
      hits.map(({ doc }) => (snapshot.tools[doc] as LlmTool).function.name).reverse(),
      snapshot,
    );
    const shown = this.shared.names.show([...snapshot.tools, searchDeclaration(this.searchName)], names);
    return { role: 'tool', tool_call_id: parsed.id, content: searchAnswer(query, hits.map(({ doc }) => shown[doc] as LlmTool)), is_error: false };
  }

  private load(names: readonly string[], snapshot: Snapshot): void {
    let changed = false;
    for (const name of names) {
      const at = snapshot.positions.get(name);
      if (at === undefined || snapshot.always[at] === 1) continue;
      this.loaded.delete(name);
      this.loaded.set(name, true);
      changed = true;
    }
    for (const name of this.loaded.keys()) {
      if (this.loaded.size <= this.maxLoaded) break;
      this.loaded.delete(name);
    }
    if (changed) this.loadedNames.next([...this.loaded.keys()]);
  }

  // The lexical ranking, fused with the user's when there is one.
  private async ranked(snapshot: Snapshot, query: string, limit: number): Promise<Array<{ doc: number; score: number }>> {
    const index = await this.indexOf(snapshot);
    if (!this.rank) return index.search(query, limit);
    const lexical = index.search(query, Infinity);
    let theirs: ReadonlyArray<number> | undefined;
    try {
      theirs = await this.rank(query.slice(0, 2048), snapshot.searchable as SearchableTool[]);
      if (!Array.isArray(theirs) || theirs.length !== snapshot.tools.length) throw new McpClientError(`it answered ${Array.isArray(theirs) ? theirs.length : 'no'} scores for ${snapshot.tools.length} tools`);
    } catch (error) {
      this.warn(`the rank option failed, so the lexical ranking stands: ${messageOf(error)}`);
      return lexical.slice(0, limit);
    }
    const fused = new Map<number, number>();
    lexical.forEach(({ doc }, rank) => fused.set(doc, 1 / (RRF_K + rank + 1)));
    const order = [...theirs.keys()].filter((doc) => Number.isFinite(theirs[doc])).sort((a, b) => (theirs[b] as number) - (theirs[a] as number) || a - b);
    order.forEach((doc, rank) => fused.set(doc, (fused.get(doc) ?? 0) + 1 / (RRF_K + rank + 1)));
    return [...fused].map(([doc, score]) => ({ doc, score })).sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, limit);
  }

  private indexOf(snapshot: Snapshot): Promise<ToolIndex> {
    snapshot.index ??= this.build(snapshot);
    // A build that failed (a title lookup cannot; the index itself only by running out of memory) is tried again next time.
    snapshot.index.catch(() => (snapshot.index = undefined));
    return snapshot.index;
  }

  // Titles live in the declarations, not the function declarations: asked of the provider, a chunk at a time.
  private async build(snapshot: Snapshot): Promise<ToolIndex> {
    const searchable: SearchableTool[] = [];
    const CHUNK = 512;
    for (let from = 0; from < snapshot.tools.length; from += CHUNK) {
      const chunk = snapshot.tools.slice(from, from + CHUNK);
      const declared = await Promise.all(chunk.map((tool) => declarationOf(this.provider, tool.function.name)));
      chunk.forEach(({ function: fn }, n) => {
        const title = declared[n]?.title ?? declared[n]?.annotations?.title;
        searchable.push({
          name: fn.name,
          ...(typeof title === 'string' ? { title } : {}),
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          parameters: fn.parameters,
        });
      });
    }
    snapshot.searchable = searchable;
    return new ToolIndex(searchable);
  }

  // The provider's catalogue, under real names, the last reading reused while nothing changed.
  private async snapshot(): Promise<Snapshot> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    const last = this.shared.last;
    if (last && sameCatalogue(last.tools, tools)) return last;
    const positions = new Map<string, number>();
    tools.forEach((tool, n) => positions.set(tool.function.name, n));
    if (positions.has(this.searchName)) throw new SearchNameTaken(this.searchName);
    const portable = this.shared.names.show([...tools, searchDeclaration(this.searchName)], undefined);
    const always = new Uint8Array(tools.length);
    const found = new Set<string>();
    tools.forEach((tool, n) => {
      const real = tool.function.name;
      const shown = (portable[n] as LlmTool).function.name;
      const named = this.alwaysNames.has(real) ? real : this.alwaysNames.has(shown) ? shown : undefined;
      if (named !== undefined) found.add(named);
      if (named !== undefined || this.test(real) || isAlwaysLoaded(this.provider, real)) always[n] = 1;
    });
    for (const name of this.alwaysNames) {
      if (found.has(name) || this.shared.warned.has(name)) continue;
      this.shared.warned.add(name);
      this.warn(`alwaysInclude names ${JSON.stringify(name)}, which the provider does not offer`);
    }
    const snapshot: Snapshot = { tools, positions, always };
    this.shared.last = snapshot;
    return snapshot;
  }

  private test(name: string): boolean {
    if (!this.alwaysIf) return false;
    try {
      return this.alwaysIf(name) === true;
    } catch (error) {
      if (!this.shared.warned.has('\0alwaysIncludeIf')) this.warn(`alwaysIncludeIf threw, so it counts as false: ${messageOf(error)}`);
      this.shared.warned.add('\0alwaysIncludeIf');
      return false;
    }
  }
}

// For `fork`: the class is named outside its own body: a mention inside makes the bundle give it an inner name (_ToolSearch), which ToolSearch.name would show.
function newToolSearch(options: ToolSearchOptions): ToolSearch {
  return new ToolSearch(options);
}

class SearchNameTaken extends McpClientError {
  constructor(name: string) {
    super(`the provider already offers a tool named ${JSON.stringify(name)}: give ToolSearch another searchToolName, or put the provider under a Registry prefix`);
  }
}

// Cheap, and enough: a provider that lists again from its cache hands back the same schema objects.
function sameCatalogue(before: readonly LlmTool[], after: readonly LlmTool[]): boolean {
  if (before === after) return true;
  if (before.length !== after.length) return false;
  for (let n = 0; n < before.length; n++) {
    const a = (before[n] as LlmTool).function;
    const b = (after[n] as LlmTool).function;
    if (a.name !== b.name || a.description !== b.description || a.parameters !== b.parameters) return false;
  }
  return true;
}
