import { catchError, firstValueFrom, of, throwError, type Subscription } from 'rxjs';
import { SERVER_ANNOTATIONS, withoutHints } from '../tools/annotation-trust.js';
import { failure, readBack, toLlmTools, type ExecuteOptions, type LlmTool, type LlmToolCall, type ToolMessage, type ToolProvider } from '../tools/bridge.js';
import { ASKED_UNDER } from '../client/questions/asking-server.js';
import { isMissing } from '../client/capability-gate.js';
import { McpClient, type ConnectHttpOptions, type ConnectStdioOptions } from '../client/mcp-client.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { visibleTools } from '../tools/tool-visibility.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { StoredTools } from './stored-tools.js';
import type { ServerEntry } from '../config/server-config.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../protocol/types.js';
import { TOOL_DECLARATION } from '../tools/tool-declaration.js';
import { ALWAYS_LOADED } from '../tools/always-loaded.js';
import { messageOf } from '../util/values.js';

/** Where one configured server stands: see `Registry.status$`. */
export interface ServerStatus {
  /**
   * `starting` until its first catalogue read succeeds (it starts with the
   * first read), `ready` once it listed its tools, `failed` when it could not
   * start, answer, or stay up (it is tried again on the next read), and
   * `disabled` when the file switches it off. With a `catalogue`, `stored`
   * when its tools were read from the catalogue and it has not started: it
   * starts on its first call (or when something asks for its client).
   */
  state: 'starting' | 'ready' | 'stored' | 'failed' | 'disabled';
  /** Why it failed. */
  error?: Error;
  /** How many tools it offers, once ready or stored. */
  tools?: number;
}

/** Client options for the servers of a config: the client's own, and those of either transport. */
export type ServerClientOptions = Omit<ConnectStdioOptions, 'command' | 'args' | 'env' | 'cwd'> & Omit<ConnectHttpOptions, 'url' | 'headers' | 'httpTransport'>;

/** What a `ConfigServer` needs besides its entry: whether its hints are trusted, and its catalogue entry, if any. */
export interface ConfigServerOptions {
  trustAnnotations?: boolean;
  /** Where its tools are kept between runs; absent for an `alwaysLoad` server or a registry without a catalogue. */
  stored?: StoredTools;
}

/**
 * One server of a config as a tool provider: its client is made on the first
 * catalogue read, and made afresh on the read after a failure. A failed
 * server answers calls with `is_error` until a read brings it back.
 *
 * With a stored catalogue, the first read may answer from it instead, and
 * the client is made on the first call; that call is checked against what
 * the server lists then (see `executeToolCalls`).
 */
export class ConfigServer implements ToolProvider {
  private running: McpClient | undefined;
  private watching: Subscription | undefined;
  private failure: Error | undefined;
  private closed = false;
  // The client whose catalogue was read: its end is news; a client that dies
  // while starting fails that read, which says why.
  private ready: McpClient | undefined;
  // The prefix a registry publishes this server under, for each client made.
  private prefix: string | undefined;
  // The catalogue's answer, read once: until a client is made, the stored tools stand in for the server's.
  private loading: Promise<Tool[] | undefined> | undefined;
  private started = false;
  // The stored tools last shown, by name, until a read shows the live ones: calls are checked against them.
  private shown: Map<string, Tool> | undefined;
  // What the server listed when a call started it (or the first call after it started), by name.
  private live: Promise<Map<string, Tool>> | undefined;
  // The client whose list was last stored, and the shape of the tools it last showed.
  private storedFrom: McpClient | undefined;
  private lastShown = '';
  private readonly names = new NameMapper();

  constructor(
    private readonly entry: ServerEntry,
    private readonly connect: () => McpClient,
    private readonly report: (status: ServerStatus) => void,
    private readonly options: ConfigServerOptions = {},
  ) {}

  /**
   * The server's tools for a model: the stored ones while it has not
   * started and the catalogue holds a usable entry for it, else the live
   * ones (starting it), which then replace the stored entry.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const stored = await this.storedTools();
    if (stored) {
      this.shown = new Map(stored.map((tool) => [tool.name, tool]));
      const tools = this.names.show(toLlmTools(visibleTools(stored, 'model').filter((tool) => this.offers(tool.name))), options.names);
      this.report({ state: 'stored', tools: tools.length });
      return tools;
    }
    const client = this.current();
    try {
      const tools = (await client.toolsForLlm(options)).filter((tool) => this.offers(tool.function.name));
      if (this.running === client) {
        this.ready = client;
        this.shown = undefined;
        this.live = undefined;
        this.report({ state: 'ready', tools: tools.length });
        this.remember(client, tools);
      }
      return tools;
    } catch (error) {
      this.fail(client, error instanceof Error ? error : new McpClientError(messageOf(error)));
      throw error;
    }
  }

  /**
   * Runs a batch against the server, starting it if need be. After the
   * model was shown stored tools, each call is first checked against what
   * the server lists now: a tool it no longer offers, or whose definition
   * changed, is refused (it might do something the model was not told of),
   * and the catalogue takes the live list, which the next read shows.
   */
  async executeToolCalls(calls: LlmToolCall[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const shown = this.shown;
    if (shown && !this.closed) {
      const read = await readBack(this.names, calls, options, () => this.toolsForLlm({ names: 'real' }));
      if ('answers' in read) return read.answers;
      let live: Map<string, Tool>;
      try {
        live = await this.listedLive();
      } catch (error) {
        return read.calls.map((call) => failure(typeof call?.id === 'string' ? call.id : '', `server ${JSON.stringify(this.entry.name)} is not running: ${messageOf(error)}`));
      }
      return this.runChecked(read.calls, read.options, shown, live);
    }
    return this.run(calls, options);
  }

  // The calls whose tools changed since they were shown are refused; the others run.
  private async runChecked(calls: LlmToolCall[], options: ExecuteOptions, shown: Map<string, Tool>, live: Map<string, Tool>): Promise<ToolMessage[]> {
    const answers: ToolMessage[] = new Array(calls.length);
    const passed: Array<{ index: number; call: LlmToolCall }> = [];
    calls.forEach((call, index) => {
      const name = (call as { function?: { name?: unknown } })?.function?.name;
      const before = typeof name === 'string' ? shown.get(name) : undefined;
      const refusal = before === undefined ? undefined : this.drift(name as string, before, live.get(name as string));
      if (refusal) answers[index] = failure(typeof call?.id === 'string' ? call.id : '', refusal);
      else passed.push({ index, call });
    });
    if (passed.length > 0) {
      const results = await this.run(
        passed.map(({ call }) => call),
        options,
      );
      passed.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  // Why a call of a tool shown from the catalogue may not run, or undefined when the server still offers it as it was.
  private drift(name: string, before: Tool, after: Tool | undefined): string | undefined {
    const server = JSON.stringify(this.entry.name);
    const told = 'the tool list shown was stored when the server last ran; the list is refreshed now: list the tools again';
    if (after === undefined) return `Tool ${JSON.stringify(name)} was not run: server ${server} no longer offers it (${told})`;
    if (canonicalJson(before) !== canonicalJson(after)) return `Tool ${JSON.stringify(name)} was not run: server ${server} changed its definition (${told}, and check it)`;
    return undefined;
  }

  private async run(calls: LlmToolCall[], options: ExecuteOptions): Promise<ToolMessage[]> {
    if (this.failure || this.closed) {
      const reason = this.closed ? 'is closed' : `is not running: ${this.failure?.message ?? ''}`;
      return calls.map((call) => failure(typeof call?.id === 'string' ? call.id : '', `server ${JSON.stringify(this.entry.name)} ${reason}`));
    }
    const answers: ToolMessage[] = new Array(calls.length);
    const allowed: Array<{ index: number; call: LlmToolCall }> = [];
    calls.forEach((call, index) => {
      const name = (call as { function?: { name?: unknown } })?.function?.name;
      if (typeof name === 'string' && !this.offers(name)) answers[index] = failure(call.id, `Unknown tool: ${name}`);
      else allowed.push({ index, call });
    });
    if (allowed.length > 0) {
      let client: McpClient;
      try {
        client = this.current();
      } catch (error) {
        return calls.map((call, index) => answers[index] ?? failure(call.id, `server ${JSON.stringify(this.entry.name)} is not running: ${messageOf(error)}`));
      }
      const results = await client.executeToolCalls(
        allowed.map(({ call }) => call),
        options,
      );
      allowed.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  /** What the server says about one of its tools, its hints only when its client trusts them (`trustAnnotations`). */
  async toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    if (!this.offers(name)) return undefined;
    if (!this.running) {
      const annotations = this.storedTool(name)?.annotations;
      return this.options.trustAnnotations ? annotations : withoutHints(annotations);
    }
    return firstValueFrom(this.running.toolAnnotations(name));
  }

  /** Whether the config says this server's tools are always loaded (`alwaysLoad: true`), for a tool it offers. */
  [ALWAYS_LOADED](name: string): boolean {
    return this.entry.alwaysLoad === true && this.offers(name);
  }

  /** The tool's declaration as the server listed it. */
  async [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    if (!this.offers(name)) return undefined;
    if (!this.running) return this.storedTool(name);
    return firstValueFrom(this.running[TOOL_DECLARATION](name));
  }

  /** The tool's annotations as the server sent them, for a layer the user marked trusted. */
  async [SERVER_ANNOTATIONS](name: string): Promise<ToolAnnotations | undefined> {
    if (!this.offers(name)) return undefined;
    if (!this.running) return this.storedTool(name)?.annotations;
    return firstValueFrom(this.running[SERVER_ANNOTATIONS](name));
  }

  /**
   * The server's client, started now if none runs (a failed one is started
   * afresh): what a `Gateway` forwards this server's resources, prompts and
   * completion to (`servers: { [prefix]: () => server.client() }`). The
   * client stays this server's: close the server, not the client.
   *
   * @throws McpClientError when the server is closed, or its client cannot be made.
   */
  client(): McpClient {
    return this.current();
  }

  /** Takes the prefix a registry publishes this server under, for its client's questions (`server.prefix`). */
  [ASKED_UNDER](prefix: string | undefined): void {
    this.prefix = prefix;
    this.running?.[ASKED_UNDER](prefix);
  }

  /** Closes the client, if one runs, once its list is stored; later reads and calls find the server closed. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.running;
    await this.options.stored?.flush();
    this.running = undefined;
    this.watching?.unsubscribe();
    await client?.close();
  }

  // The stored tools while they stand in for the server: read from the
  // catalogue once; never again once a client was made (a server that ran
  // and failed is started afresh on the next read, as without a catalogue).
  private async storedTools(): Promise<Tool[] | undefined> {
    const { stored } = this.options;
    if (!stored || this.started || this.closed) return undefined;
    this.loading ??= stored.load();
    const tools = await this.loading;
    return this.started ? undefined : tools;
  }

  private storedTool(name: string): Tool | undefined {
    return this.shown?.get(name);
  }

  // What the server lists now, by name, read once for the calls checked
  // against the stored tools; it replaces the stored entry.
  private listedLive(): Promise<Map<string, Tool>> {
    const listing = (this.live ??= (async () => {
      const client = this.current();
      let tools: Tool[];
      try {
        tools = await firstValueFrom(offered(client));
      } catch (error) {
        this.fail(client, error instanceof Error ? error : new McpClientError(messageOf(error)));
        throw error;
      }
      if (this.running === client) {
        this.ready = client;
        this.report({ state: 'ready', tools: visibleTools(tools, 'model').filter((tool) => this.offers(tool.name)).length });
        this.storedFrom = client;
        this.options.stored?.save(async () => tools);
      }
      return new Map(tools.map((tool) => [tool.name, tool]));
    })());
    // A failed start is tried afresh by the next call.
    listing.catch(() => {
      if (this.live === listing) this.live = undefined;
    });
    return listing;
  }

  // Stores what a running server lists: once per client, and again when
  // what it shows changes (a change only of what the model is not shown
  // waits for the next start).
  private remember(client: McpClient, tools: readonly LlmTool[]): void {
    const { stored } = this.options;
    if (!stored) return;
    const shape = JSON.stringify(tools);
    if (this.storedFrom === client && shape === this.lastShown) return;
    this.storedFrom = client;
    this.lastShown = shape;
    stored.save(() => firstValueFrom(offered(client)));
  }

  private current(): McpClient {
    if (this.closed) throw new McpClientError(`server ${JSON.stringify(this.entry.name)} is closed`);
    if (this.running) return this.running;
    let client: McpClient;
    // From the first start on, reads ask the server, as they do without a catalogue.
    this.started = true;
    try {
      client = this.connect();
      client[ASKED_UNDER](this.prefix);
    } catch (error) {
      this.failure = error instanceof Error ? error : new McpClientError(messageOf(error));
      this.report({ state: 'failed', error: this.failure });
      throw error;
    }
    this.running = client;
    this.failure = undefined;
    this.report({ state: 'starting' });
    // A server that exits after it was ready is failed at once, for the UI, and started afresh on the next read.
    this.watching = client.state$.subscribe((state) => {
      if (state === 'closed' && this.ready === client && !this.closed) this.fail(client, new McpClientError(`server ${JSON.stringify(this.entry.name)} closed its connection`));
    });
    return client;
  }

  private fail(client: McpClient, error: Error): void {
    if (this.running !== client) return;
    this.running = undefined;
    this.live = undefined;
    this.watching?.unsubscribe();
    this.failure = error;
    this.report({ state: 'failed', error });
    void client.close();
  }

  private offers(tool: string): boolean {
    const { enabledTools, disabledTools } = this.entry;
    return (enabledTools === undefined || enabledTools.includes(tool)) && !(disabledTools ?? []).includes(tool);
  }
}

/** The server's tools, or none for a server that did not declare `tools`. */
function offered(client: McpClient) {
  return client.listTools().pipe(catchError((error: unknown) => (isMissing(error, 'tools') ? of([] as Tool[]) : throwError(() => error))));
}
