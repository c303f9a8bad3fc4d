import { firstValueFrom, type Subscription } from 'rxjs';
import { SERVER_ANNOTATIONS } from '../tools/annotation-trust.js';
import { failure, type ExecuteOptions, type LlmTool, type LlmToolCall, type ToolMessage, type ToolProvider } from '../tools/bridge.js';
import { ASKED_UNDER } from '../client/questions/asking-server.js';
import { McpClient, type ConnectHttpOptions, type ConnectStdioOptions } from '../client/mcp-client.js';
import type { ToolsForLlmOptions } from '../tools/tool-names.js';
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
   * `disabled` when the file switches it off.
   */
  state: 'starting' | 'ready' | 'failed' | 'disabled';
  /** Why it failed. */
  error?: Error;
  /** How many tools it offers, once ready. */
  tools?: number;
}

/** Client options for the servers of a config: the client's own, and those of either transport. */
export type ServerClientOptions = Omit<ConnectStdioOptions, 'command' | 'args' | 'env' | 'cwd'> & Omit<ConnectHttpOptions, 'url' | 'headers' | 'httpTransport'>;

/**
 * One server of a config as a tool provider: its client is made on the first
 * catalogue read, and made afresh on the read after a failure. A failed
 * server answers calls with `is_error` until a read brings it back.
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

  constructor(
    private readonly entry: ServerEntry,
    private readonly connect: () => McpClient,
    private readonly report: (status: ServerStatus) => void,
  ) {}

  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const client = this.current();
    try {
      const tools = (await client.toolsForLlm(options)).filter((tool) => this.offers(tool.function.name));
      if (this.running === client) {
        this.ready = client;
        this.report({ state: 'ready', tools: tools.length });
      }
      return tools;
    } catch (error) {
      this.fail(client, error instanceof Error ? error : new McpClientError(messageOf(error)));
      throw error;
    }
  }

  async executeToolCalls(calls: LlmToolCall[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
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
    if (!this.running || !this.offers(name)) return undefined;
    return firstValueFrom(this.running.toolAnnotations(name));
  }

  /** Whether the config says this server's tools are always loaded (`alwaysLoad: true`), for a tool it offers. */
  [ALWAYS_LOADED](name: string): boolean {
    return this.entry.alwaysLoad === true && this.offers(name);
  }

  /** The tool's declaration as the server listed it. */
  async [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    if (!this.running || !this.offers(name)) return undefined;
    return firstValueFrom(this.running[TOOL_DECLARATION](name));
  }

  /** The tool's annotations as the server sent them, for a layer the user marked trusted. */
  async [SERVER_ANNOTATIONS](name: string): Promise<ToolAnnotations | undefined> {
    if (!this.running || !this.offers(name)) return undefined;
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

  /** Closes the client, if one runs; later reads and calls find the server closed. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.running;
    this.running = undefined;
    this.watching?.unsubscribe();
    await client?.close();
  }

  private current(): McpClient {
    if (this.closed) throw new McpClientError(`server ${JSON.stringify(this.entry.name)} is closed`);
    if (this.running) return this.running;
    let client: McpClient;
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
