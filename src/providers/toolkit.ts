import type { z } from 'zod';
import { type LlmTool, type LlmToolCall, runToolCalls, toLlmTools, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpTimeoutError } from '../errors/call-errors.js';
import { LONGEST_TIMER_MS } from '../util/checks.js';
import type { CallToolResult, Tool, ToolAnnotations } from '../protocol/types.js';
import { isObject, messageOf } from '../util/values.js';

/** How a toolkit tool is declared. */
export interface ToolkitToolDefinition<S extends z.ZodObject> {
  /** What the tool does, for the model. */
  description?: string;
  /** A human-readable name. */
  title?: string;
  /** The arguments, as a zod object; published as JSON Schema. */
  input: S;
  /** Hints about the tool's behaviour; `readOnlyHint` and `idempotentHint` let a batch overlap. */
  annotations?: ToolAnnotations;
}

/** What a toolkit tool's handler is given besides its checked arguments. */
export interface ToolkitCallContext {
  /** The model's id for this call, when it came through `executeToolCalls`. */
  toolCallId?: string;
  /** Aborted when the caller gives up. */
  signal?: AbortSignal;
}

/** A toolkit tool's implementation: checked arguments in, an MCP tool result out. */
export type ToolkitHandler<S extends z.ZodObject> = (
  args: z.infer<S>,
  context: ToolkitCallContext,
) => CallToolResult | Promise<CallToolResult>;

interface Registered {
  tool: Tool;
  input: z.ZodObject;
  handler: ToolkitHandler<z.ZodObject>;
}

/**
 * Tools that run in this process, offered to a model exactly as a remote MCP
 * server's are: the declarations and the bridge output are the same as an
 * `McpClient`'s in front of a server (built with the official SDK) offering
 * the same tools. Arguments are checked with the tool's zod schema; a check
 * that fails, or a handler that throws, is the tool's error result
 * (`isError`), as on a server.
 *
 * @example
 * ```ts
 * const local = new Toolkit({ name: 'local' }).tool(
 *   'add',
 *   { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
 *   ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
 * );
 * ```
 */
export class Toolkit implements ToolProvider {
  /** The toolkit's name. */
  readonly name: string;
  private readonly registered = new Map<string, Registered>();
  private readonly toolConcurrency: number;
  private readonly names = new NameMapper();

  constructor(options: { name: string; toolConcurrency?: number }) {
    if (typeof options?.name !== 'string' || options.name === '') throw new McpClientError('option name must be a non-empty string');
    this.name = options.name;
    this.toolConcurrency = Math.max(1, options.toolConcurrency ?? 4);
  }

  /**
   * Adds a tool.
   *
   * @throws McpClientError when a tool of that name exists already.
   */
  tool<S extends z.ZodObject>(name: string, definition: ToolkitToolDefinition<S>, handler: ToolkitHandler<S>): this {
    if (this.registered.has(name)) throw new McpClientError(`toolkit ${JSON.stringify(this.name)} already has a tool ${JSON.stringify(name)}`);
    const inputSchema = jsonSchemaOf(name, definition.input);
    const tool: Tool = { name, inputSchema };
    if (definition.title !== undefined) tool.title = definition.title;
    if (definition.description !== undefined) tool.description = definition.description;
    if (definition.annotations !== undefined) tool.annotations = definition.annotations;
    this.registered.set(name, { tool, input: definition.input, handler: handler as ToolkitHandler<z.ZodObject> });
    return this;
  }

  /** The catalogue, in the order the tools were added. */
  get tools(): Tool[] {
    return [...this.registered.values()].map(({ tool }) => tool);
  }

  /** Calls one tool: arguments checked, handler run, any failure turned into an `isError` result. */
  async callTool(name: string, args: Record<string, unknown> = {}, context: ToolkitCallContext = {}): Promise<CallToolResult> {
    const entry = this.registered.get(name);
    if (!entry) return errorResult(`Tool ${name} not found`);
    try {
      const checked = entry.input.safeParse(args);
      if (!checked.success) {
        // Worded as the official server SDK words it, so both sides read the same to a model.
        const issues = checked.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
        return errorResult(`Input validation error: Invalid arguments for tool ${name}: ${issues.join(', ')}`);
      }
      return await entry.handler(checked.data, context);
    } catch (error) {
      return errorResult(messageOf(error));
    }
  }

  /** What a tool's annotations say, or `undefined`; trusted as they are, being the user's own code. */
  toolAnnotations(name: string): ToolAnnotations | undefined {
    return this.registered.get(name)?.tool.annotations;
  }

  /** The tools as function declarations, under names a model accepts unless `options.names` says otherwise (as `McpClient`'s). */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    return this.names.show(toLlmTools(this.tools), options.names);
  }

  executeToolCalls(calls: LlmToolCall[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
    return runToolCalls(
      {
        catalogue: async () => this.tools,
        // A handler is given its call's id and signal; the batch's hooks are for servers' questions.
        call: (name, args, { toolCallId, signal, timeoutMs, maxTotalTimeoutMs }) =>
          withinTime(localLimit(timeoutMs, maxTotalTimeoutMs), signal, (bounded) => this.callTool(name, args, bounded ? { toolCallId, signal: bounded } : { toolCallId })),
        concurrency: this.toolConcurrency,
        // The user's own code: its annotations are the user's word.
        trustAnnotations: true,
        names: this.names,
        owner: this,
      },
      calls,
      options,
    );
  }
}

// The same JSON Schema the official server SDK publishes for a zod input
// (`z.toJSONSchema(input, { io: 'input' })`), asked of the schema itself
// (zod 4.2 and later give every schema the method): the user's zod is loaded
// already, and rxmcp's root entry then loads none of its own.
function jsonSchemaOf(name: string, input: z.ZodObject): Record<string, unknown> {
  const schema = input as { toJSONSchema?: unknown; safeParse?: unknown } | undefined;
  if (typeof schema?.toJSONSchema !== 'function' || typeof schema.safeParse !== 'function') {
    throw new McpClientError(`tool ${JSON.stringify(name)} needs a zod 4.2 (or later) object schema as its input: this one has no toJSONSchema or safeParse method`);
  }
  let published: unknown;
  try {
    published = schema.toJSONSchema({ io: 'input' });
  } catch (error) {
    throw new McpClientError(`tool ${JSON.stringify(name)}: its input schema cannot be written as JSON Schema: ${messageOf(error)}`, { cause: error });
  }
  if (!isObject(published)) throw new McpClientError(`tool ${JSON.stringify(name)}: its input schema's toJSONSchema gave something that is not an object`);
  return { type: 'object', ...published };
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

// A handler reports no progress, so nothing resets its clock: it has until
// the sooner of its timeout and its cap (none without either, as before).
function localLimit(timeoutMs: number | undefined, maxTotalTimeoutMs: number | undefined): number | undefined {
  const limits = [timeoutMs, maxTotalTimeoutMs].filter((ms): ms is number => ms !== undefined && ms > 0);
  return limits.length === 0 ? undefined : Math.min(...limits);
}

// Runs a handler with a signal that aborts with the caller's or when `ms`
// runs out; at that moment the call fails with McpTimeoutError, as a
// server's call would, whatever the handler does with its signal. A limit
// past what a timer can wait (about 24.8 days) is no limit.
function withinTime(ms: number | undefined, signal: AbortSignal | undefined, run: (signal: AbortSignal | undefined) => Promise<CallToolResult>): Promise<CallToolResult> {
  if (ms === undefined || ms > LONGEST_TIMER_MS) return run(signal);
  const controller = new AbortController();
  const relay = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) relay();
  else signal?.addEventListener('abort', relay, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new McpTimeoutError('tools/call', ms);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  return Promise.race([run(controller.signal), expired]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', relay);
  });
}
