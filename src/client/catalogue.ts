import { catchError, defer, finalize, firstValueFrom, map, type Observable, of, share, throwError } from 'rxjs';
import { iconWarning, keepSafeIcons } from '../protocol/icons.js';
import type { PageShape } from '../protocol/page-shapes.js';
import type { CallToolResult, Tool } from '../protocol/types.js';
import { type ExecuteOptions, type LlmTool, type LlmToolCall, runToolCalls, toLlmTools, type ToolMessage } from '../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { withoutTaskTools } from '../tools/task-tools.js';
import { hasUnreadableVisibility, visibleTools } from '../tools/tool-visibility.js';
import { quote } from '../util/quote.js';
import { ResultCache } from './cache.js';
import { isMissing } from './capability-gate.js';
import { keepsUntilChanged } from './list-promise.js';
import type { CallPipeline } from './calls/call-pipeline.js';
import type { CallStarter } from './calls/call-starter.js';
import type { OutputSchemas } from './calls/output-schemas.js';
import { type CallToolOptions, checkCallOptions, LIST_KEYS, type ListOptions } from './options.js';
import { type Settings } from './settings.js';
import { walkPages } from './pagination.js';
import type { Session } from './session.js';
import { canRunToolTasks, type TaskCalls } from './tasks/task-calls.js';
import { taskSupportOf } from './tasks/tool-task-support.js';
import { type CallTimeouts, outlivesTimeout, totalOf } from '../tools/call-timeouts.js';


/** What the catalogue needs from its client. */
export interface CatalogueContext {
  settings: Pick<Settings, 'listLimits' | 'warn' | 'toolConcurrency' | 'trustAnnotations' | 'tasks' | 'requestTimeoutMs'>;
  starter: CallStarter;
  calls: CallPipeline;
  cache: ResultCache;
  tasks: TaskCalls;
  outputs: OutputSchemas;
  /** True once the client is closing: a cached list is then no longer handed out. */
  isClosing(): boolean;
  /** The session, once the probe found it. */
  session(): Session | undefined;
  /** Whether a list change the server announces can reach the client now (see `keepsUntilChanged`). */
  hearsServer(): boolean;
  /** The client: what a batch of a model's calls lists and calls, and the owner of the tools it runs (see `ToolSource.owner`). */
  owner: CatalogueOwner;
}

/** What the catalogue calls back on its client. */
export interface CatalogueOwner {
  listTools(): Observable<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Observable<CallToolResult>;
}

/**
 * How the client reads the server's catalogue: the lists, page by page and
 * through the cache, with what a tools list teaches the task and output
 * checks; and the tools as a model sees them, under the names it was shown,
 * with the calls it makes run back against the server. The client owns one.
 */
export class Catalogue {
  // The shown names of the last catalogue given to a model, to read its calls back.
  private readonly names = new NameMapper();
  private unreadableWarned = '';
  private taskToolsWarned = '';
  // The listing the declaration lookups of this moment share (see `declaration`).
  private declarations: Observable<Tool[]> | undefined;

  constructor(private readonly context: CatalogueContext) {}

  /**
   * Every item of a list, following its pages to the end, from the cache
   * while a whole list there is fresh: for its `ttlMs` (2026-07-28), or
   * until the server says it changed when it promised to (see
   * `keepsUntilChanged`). `refresh` reads it from the server whatever is kept.
   */
  list<T>(method: string, key: string, schema: PageShape, options: ListOptions): Observable<T[]> {
    const { starter, cache, calls, tasks, outputs, settings } = this.context;
    const refresh = options.refresh === true;
    checkCallOptions(options, LIST_KEYS);
    // The options are checked above, once: bounded directly rather than through run().
    const fetch = starter.bounded<T[]>(method, options, (session, subscriber) => {
      if (refresh) cache.dropMethod(method);
      // Read before the first page: a change heard while the pages come in leaves the list unkept.
      const untilChanged = keepsUntilChanged(session, method, this.context.hearsServer());
      const generation = cache.generation(method);
      const pages: string[] = [];
      const learn = method === 'tools/list' ? tasks.learner(session) : undefined;
      const learnOutputs = method === 'tools/list' ? outputs.learner(session) : undefined;
      const gathered = (all: T[]): void => {
        // Icons are checked once here, before the list is cached or handed to anyone.
        const dropped = iconWarning(method, keepSafeIcons(all, itemLabel));
        if (dropped) settings.warn(dropped);
        if (untilChanged) cache.keepList(method, all, generation);
        else cache.storeList(method, all, pages);
        learn?.(all as Tool[]);
        learnOutputs?.(all as Tool[]);
        if (method === 'tools/list') this.warnUnreadableVisibility(all as Tool[]);
      };
      return walkPages<T>(
        subscriber,
        method,
        key,
        settings.listLimits,
        (cursor, observer) => {
          const params = cursor === undefined ? undefined : { cursor };
          const pageKey = ResultCache.key(method, params);
          pages.push(pageKey);
          return calls.beginPage(session, method, params, options.meta, schema, pageKey, refresh, observer);
        },
        gathered,
      );
    });
    // A forced list never reads the cache: no stage for it.
    if (refresh) return fetch;
    // A whole list still fresh in the cache is handed out at once.
    return defer(() => {
      const kept = this.context.isClosing() || options.signal?.aborted ? undefined : cache.list(method);
      return kept ? of(kept.slice() as T[]) : fetch;
    });
  }

  /**
   * One tool's declaration, from the kept list when there is one, else from
   * a listing that every lookup made while it runs shares: a layer that asks
   * for each tool of a list of thousands at once (Pins, the gateway) costs
   * one listing, and one index of it, not one of each per tool.
   */
  declaration(name: string): Observable<Tool | undefined> {
    return defer(() => {
      const kept = this.context.isClosing() ? undefined : (this.context.cache.list('tools/list') as readonly Tool[] | undefined);
      if (kept) return of(indexOf(kept).get(name));
      // Shared while it runs (refCount: dropped when every lookup gave up), then forgotten: a later lookup lists anew.
      this.declarations ??= this.context.owner.listTools().pipe(
        finalize(() => {
          this.declarations = undefined;
        }),
        share(),
      );
      return this.declarations.pipe(map((tools) => indexOf(tools).get(name)));
    });
  }

  /**
   * The tools as a provider offers them: `listTools`, but a server that did
   * not declare `tools` offers none, an empty catalogue rather than an
   * error, so that a Registry, a Toolkit or a gateway holding a server of
   * prompts or resources alone still lists the others.
   */
  offeredTools(): Observable<Tool[]> {
    return this.context.owner.listTools().pipe(catchError((error: unknown) => (isMissing(error, 'tools') ? of([]) : throwError(() => error))));
  }

  /** `McpClient.toolsForLlm` once the tools are listed: those meant for the model, under the names `names` asks for. */
  forLlm(tools: readonly Tool[], names: ToolsForLlmOptions['names'], canRunTasks = true): LlmTool[] {
    return this.names.show(toLlmTools(visibleTools(canRunTasks ? tools : this.withoutTaskTools(tools), 'model')), names);
  }

  // A tool that requires a task, on a server that cannot run one, could
  // only fail: it is kept from the model, and said once per catalogue.
  private withoutTaskTools(tools: readonly Tool[]): readonly Tool[] {
    const { kept, dropped } = withoutTaskTools(tools);
    if (dropped.length === 0) return tools;
    const named = dropped.slice(0, 5).map(quote).join(', ') + (dropped.length > 5 ? ', …' : '');
    const warning = `${dropped.length} tool(s) kept from the model: they require a task, and the server cannot run tasks: ${named}`;
    if (warning !== this.taskToolsWarned) {
      this.taskToolsWarned = warning;
      this.context.settings.warn(warning);
    }
    return kept;
  }

  /** See `McpClient.executeToolCalls`. */
  execute(calls: LlmToolCall[], options: ExecuteOptions): Promise<ToolMessage[]> {
    const { settings, owner } = this.context;
    // The catalogue this batch was read against: what each tool says about tasks.
    let listed: ReadonlyMap<string, Tool> = new Map();
    return runToolCalls(
      {
        catalogue: () =>
          firstValueFrom(this.offeredTools()).then((tools) => {
            listed = new Map(tools.map((tool) => [tool.name, tool]));
            return tools;
          }),
        call: (name, args, context) => {
          const { toolCallId, signal, onProgress, input } = context;
          const given: CallToolOptions = { toolCallId, ...this.bounds(name, context, listed) };
          if (signal) given.signal = signal;
          if (input) given.input = input;
          if (onProgress) given.onProgress = ({ progressToken: _token, ...report }) => onProgress({ toolCallId, ...report });
          return firstValueFrom(owner.callTool(name, args, given));
        },
        concurrency: settings.toolConcurrency,
        trustAnnotations: settings.trustAnnotations,
        names: this.names,
        owner,
      },
      calls,
      options,
    );
  }

  // A call that may run longer in all than one timeout, of a tool that may
  // run as a task on a 2025-11-25 server that runs them, goes as a task:
  // polled, it needs no request to outlive the timeout, and its whole time
  // is bounded by the cap alone. (A 2026-07-28 server decides by itself.)
  private bounds(name: string, timeouts: CallTimeouts, listed: ReadonlyMap<string, Tool>): CallToolOptions {
    const { timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs } = timeouts;
    const { settings } = this.context;
    const session = this.context.session();
    const asTask =
      settings.tasks &&
      session?.description.era === 'legacy' &&
      canRunToolTasks(session) &&
      taskSupportOf(listed.get(name)) === 'optional' &&
      outlivesTimeout(timeouts, settings.requestTimeoutMs);
    if (asTask) return { task: true, timeoutMs: totalOf(timeouts, timeoutMs ?? settings.requestTimeoutMs) ?? 0 };
    const bounds: CallToolOptions = {};
    if (timeoutMs !== undefined) bounds.timeoutMs = timeoutMs;
    if (resetTimeoutOnProgress !== undefined) bounds.resetTimeoutOnProgress = resetTimeoutOnProgress;
    if (maxTotalTimeoutMs !== undefined) bounds.maxTotalTimeoutMs = maxTotalTimeoutMs;
    return bounds;
  }

  // A tool hidden from everybody for a value nobody could read would
  // puzzle its user: said in one warning however many there are, and not
  // repeated for every fetch of the same catalogue.
  private warnUnreadableVisibility(tools: readonly Tool[]): void {
    // Most tools carry no _meta: the common case allocates nothing.
    if (!tools.some(hasUnreadableVisibility)) {
      this.unreadableWarned = '';
      return;
    }
    const hidden = tools.filter(hasUnreadableVisibility).map((tool) => quote(tool.name));
    const named = hidden.slice(0, 5).join(', ') + (hidden.length > 5 ? ', …' : '');
    const warning = `${hidden.length} tool(s) kept from the model and from apps, their _meta.ui.visibility unreadable: ${named}`;
    if (warning !== this.unreadableWarned) {
      this.unreadableWarned = warning;
      this.context.settings.warn(warning);
    }
  }
}

/** An item of a list as a warning names it: its name, else its URI. */
function itemLabel(item: Record<string, unknown>): string {
  const name = typeof item.name === 'string' ? item.name : typeof item.uri === 'string' ? item.uri : '?';
  return quote(name);
}

// The kept lists' indexes by name, each dropped with its list.
const indexes = new WeakMap<readonly Tool[], Map<string, Tool>>();

function indexOf(tools: readonly Tool[]): Map<string, Tool> {
  let index = indexes.get(tools);
  if (!index) {
    index = new Map();
    // The first of a name wins, as `find` would have it.
    for (const tool of tools) if (!index.has(tool.name)) index.set(tool.name, tool);
    indexes.set(tools, index);
  }
  return index;
}
