import type { CallToolResult, Tool, ToolAnnotations, ToolProgress } from '../protocol/types.js';
import { dropAbsentNulls } from './absent-nulls.js';
import { vouchedFor } from './annotation-trust.js';
import { argumentCheckers, argumentViolation } from './argument-check.js';
import { type BatchJob, runBatch } from './batch-scheduler.js';
import { flattenResult } from './flatten.js';
import { checkCallHooks, type InputHooks } from '../protocol/input-request.js';
import { boundText, resultBudgetOf } from './result-budget.js';
import { type CallTimeouts, timeoutsOf, withCallTimeouts } from './call-timeouts.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { canonicalJson } from '../util/canonical-json.js';
import { messageOf } from '../util/values.js';
import type { NameMapper, ToolNames, ToolsForLlmOptions } from './tool-names.js';
import { callerOf, type ToolCaller, toolVisibility, visibleTools } from './tool-visibility.js';
import { MEDIA_LEDGER, type MediaLedger, mediaLedgerOf, type MediaLimits, mediaModeOf, type ToolMedia } from './tool-media.js';

// Every layer reads a provider's annotations through this one function, with the bridge's other helpers.
export { annotationsOf } from './annotation-trust.js';

/** A tool as an LLM API declares it (OpenAI-style function calling). */
export interface LlmTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** A tool call a model made. `arguments` is a JSON string (as most APIs send it) or an object. */
export interface LlmToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string | object };
}

/** The answer to one tool call, ready to append to the conversation. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
  is_error: boolean;
  structured_content?: unknown;
  /**
   * The images and audio clips of the result, with `media: 'inline'`, in
   * the order of its blocks; `content` names each on a line of its own.
   * Absent when there are none, and always with `media: 'text'`.
   */
  media?: ToolMedia[];
}

/** How a batch of calls is run; a layer passes them on to the provider it wraps. */
export interface ExecuteOptions {
  /** Aborts the calls still running. */
  signal?: AbortSignal;
  /**
   * The names the calls use: those `toolsForLlm` showed under the default
   * rule when left out, under the given rule, or the real ones (`'real'`,
   * what a layer passes to the provider it wraps).
   */
  names?: ToolNames;
  /**
   * The most characters (UTF-16 code units) of one call's answer the model
   * reads; past it, the text is cut to its head and tail around a line saying
   * how much was left out. Default 100,000 (`DEFAULT_MAX_RESULT_CHARS`);
   * at least 100; `Infinity` turns the cut off. `structured_content` is not
   * counted and never cut. Every layer passes it on, so set it once, on the
   * outermost call (or the format function or adapter that makes it).
   */
  maxResultChars?: number;
  /**
   * Checks each call's arguments (after the nulls that stand for "not
   * given" are dropped) against the tool's own inputSchema before it runs:
   * arguments that break it are answered `is_error` with the first
   * violation and never reach the server. A schema the check cannot read to
   * a conclusion (too deep, too large, a `$ref` to another document, too
   * costly) leaves the call unchecked: the server is the authority on its
   * own arguments. Default `false`; the vendor way-back functions
   * (`executeOpenAIChatToolCalls`, `executeOpenAIResponsesToolCalls`,
   * `executeAnthropicToolCalls`, `executeGeminiToolCalls`) turn it on, since
   * what they declared may be looser than the tools' schemas.
   */
  checkArguments?: boolean;
  /**
   * Who makes the calls (MCP Apps): `'model'` (the default) may call only
   * tools whose `_meta.ui.visibility` includes `"model"`, and a call to any
   * other is answered as one to an unknown tool; `'app'`, a view's calls
   * passed on by its host, may call only tools whose visibility includes
   * `"app"`. No visibility means both. Every layer passes it on unchanged,
   * and a `Policy` judges the calls of either caller by the same rules.
   * Any other value refuses the whole batch.
   */
  caller?: ToolCaller;
  /**
   * The provider whose view makes the calls (with `caller: 'app'`; a host
   * passes the view's own `McpClient`). Every layer passes it on, and a
   * client or toolkit that is not this one refuses the calls: a view may
   * call the tools of its own server only, however a `Registry` routes a
   * name (prefixes that extend each other, a forgotten `toolName`).
   */
  appServer?: object;
  /**
   * Told each call's result as its server gave it (what `callTool`
   * resolves with; a `Toolkit`'s handler's result), before it is flattened
   * into the `ToolMessage`, under the call's id, in the batch's order once
   * the batch has run. Calls answered without a result (refused, an unknown
   * tool, a failure of the call itself) are not reported. What it throws is
   * dropped: the batch's answers stand. Every layer passes it on unchanged.
   */
  onResult?: (toolCallId: string, result: CallToolResult) => void;
  /**
   * Told the progress the servers report for this batch's calls, under each
   * call's id; the client asks the server for progress for each of them.
   * The client's own `onProgress` hears them too. Every layer passes it on
   * unchanged.
   */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Answers the questions servers ask while this batch's calls run
   * (elicitation, sampling, roots) in place of the client's own hooks,
   * exactly as `callTool`'s `input` does: a 2026-07-28 server's
   * `input_required` rounds of these calls always; a 2025-11-25 server's
   * requests when the wire ties them to one of these calls (Streamable HTTP
   * sends them on the call's own response stream), and otherwise (stdio,
   * HTTP+SSE, the GET stream) when no call given other `input` runs on that
   * connection at the same time (then the client's own hooks answer). The
   * client still declares only the capabilities its own hooks cover. Every
   * layer passes it on unchanged.
   */
  input?: InputHooks;
  /**
   * Each call's budget in milliseconds, as `callTool`'s `timeoutMs`
   * (0 = none). Left out, a client's calls get its `requestTimeoutMs` and a
   * `Toolkit`'s handlers run unbounded. Every layer passes it on; see
   * docs/llm-bridge.md, "Long calls".
   */
  timeoutMs?: number;
  /** Restart each call's `timeoutMs` clock at every progress report its server sends, as `callTool`'s option does. */
  resetTimeoutOnProgress?: boolean;
  /**
   * A cap on each whole call, progress or not (0 = none); with
   * `resetTimeoutOnProgress` and no cap, ten of its `timeoutMs`. When it is
   * longer than `timeoutMs`, a tool whose `execution.taskSupport` is
   * `optional`, on a 2025-11-25 server that runs tasks and a client made
   * with `tasks: true`, runs as a task bounded by this cap alone.
   */
  maxTotalTimeoutMs?: number;
  /**
   * Timeouts for some tools, laid over the batch's field by field, keyed by
   * the name the calls use where this option is given (the name the model
   * called, as the outermost `executeToolCalls` receives it). The outermost
   * layer reads them against the calls and passes them on by call id, so
   * a `Registry`'s prefix or a shown name read back changes nothing. Only
   * own keys count.
   *
   * @example
   * ```ts
   * await registry.executeToolCalls(calls, { timeoutMs: 10_000, toolTimeouts: { ci_build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 900_000 } } });
   * ```
   */
  toolTimeouts?: Record<string, CallTimeouts>;
  /**
   * What becomes of the images and audio clips of the results: `'text'`
   * (the default here) names each on a line of `content` (`[image:
   * image/png, 4033 bytes]`); `'inline'` also hands them over in each
   * answer's `media`, checked (declared MIME type among
   * `mediaLimits.mimeTypes`, valid base64, first bytes matching the type)
   * and within the batch's budget, while `content` says of each whether it
   * is attached and, if not, why. The vendor way-back functions and both
   * adapters default to `'inline'` and put the media in their API's own
   * shape (docs/llm-bridge.md, "Media"). Any other value refuses the whole
   * batch. Every layer passes it on, and the budget holds for the whole
   * batch however a `Registry` splits it.
   */
  media?: 'inline' | 'text';
  /** With `media: 'inline'`: how much media one batch carries and which MIME types (see {@link MediaLimits}). Invalid limits refuse the whole batch. */
  mediaLimits?: MediaLimits;
}

/** Anything that offers tools to a model: a client, a toolkit, a registry, a policy layer… */
export interface ToolProvider {
  /** The tools, as function declarations, under names a model accepts unless told otherwise. */
  toolsForLlm(options?: ToolsForLlmOptions): Promise<LlmTool[]>;
  /** Runs a batch of calls; never rejects, and has run the whole batch when it resolves. */
  executeToolCalls(calls: LlmToolCall[], options?: ExecuteOptions): Promise<ToolMessage[]>;
}

/** One call as the bridge hands it to a source: its id, and what its batch asked for. */
export interface ToolCallContext extends CallTimeouts {
  toolCallId: string;
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  input?: InputHooks;
}

/** What the bridge needs from whoever really runs the tools. */
export interface ToolSource {
  /**
   * The catalogue, with annotations and `_meta`. May reject: a model's batch
   * then runs serially and unchecked (the model was shown nothing to call,
   * and the server is the authority on its own tools); an app's is refused.
   */
  catalogue(): Promise<readonly Tool[]>;
  /** Runs one tool. May reject: the rejection becomes the call's error message. */
  call(name: string, args: Record<string, unknown>, context: ToolCallContext): Promise<CallToolResult>;
  /** How many calls of a safe batch may overlap. */
  concurrency: number;
  /**
   * Whether the catalogue's hints (`readOnlyHint`, `idempotentHint`) may
   * overlap and merge a batch's calls: a `Toolkit`'s own tools, a server the
   * user trusts. Otherwise a batch runs one call at a time, unless a layer
   * the user marked trusted vouches for this source. Default `false`.
   */
  trustAnnotations?: boolean;
  /** Reads calls made under shown names back to the catalogue's names. */
  names: NameMapper;
  /** The provider this source runs the tools of, matched against `ExecuteOptions.appServer`. */
  owner?: object;
}

/** The declarations of a catalogue. */
export function toLlmTools(tools: readonly Tool[]): LlmTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema,
    },
  }));
}

/**
 * Runs the calls a model made against a source and answers each of them, in
 * order, under its own id. Never rejects: a malformed call, arguments that
 * are not a JSON object, an unknown tool, a tool's own failure (`isError`)
 * and any error of the call itself all come back as `is_error` messages
 * whose content says why. An empty string is a call without arguments.
 */
export async function runToolCalls(source: ToolSource, given: readonly unknown[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
  let budget: number;
  let caller: ToolCaller;
  let ledger: MediaLedger | undefined;
  try {
    budget = resultBudgetOf(options);
    caller = callerOf(options);
    ledger = mediaModeOf(options) === 'inline' ? mediaLedgerOf(options) : undefined;
    checkCallHooks(options, 'batch option');
    options = withCallTimeouts(given, options);
    if (options.onResult !== undefined && typeof options.onResult !== 'function') throw new McpClientError('batch option onResult must be a function');
  } catch (error) {
    // No tool runs under a budget, a caller or hooks nobody can read.
    return given.map((call) => failure(parseCall(call).id, messageOf(error)));
  }
  if (caller === 'app' && options.appServer !== undefined && options.appServer !== source.owner) {
    // An app calls its own server's tools alone (MCP Apps: "from the same server connection only").
    return given.map((call) => failure(parseCall(call).id, "The tool is not of the view's own server, so the view may not call it"));
  }
  const tools = await source.catalogue().catch(() => undefined);
  if (!tools && caller === 'app') {
    // A view is untrusted code: without the catalogue nobody can tell which tools are its to call.
    return given.map((call) => failure(parseCall(call).id, 'The tools could not be listed, so no call from an app can be checked against their visibility'));
  }
  const catalogue = tools && new Map(tools.map((tool) => [tool.name, tool]));
  const trusted = source.trustAnnotations === true || vouchedFor(options);
  let calls: readonly unknown[];
  try {
    // Read back over the list this caller is shown, as `toolsForLlm` mapped it: a hidden tool must not shift a shown name.
    calls = await source.names.toReal(given, options.names, async () => visibleTools(tools ?? [], caller).map(({ name }) => ({ function: { name } })));
  } catch (error) {
    return given.map((call) => failure(parseCall(call).id, `The tool names could not be read back: ${messageOf(error)}`));
  }
  const messages: Array<ToolMessage | undefined> = [];
  const jobs: BatchJob<CallToolResult>[] = [];
  const slots: Array<{ index: number; id: string; name: string }> = [];
  const parsedCalls = calls.map(parseCall);
  const checkers =
    options.checkArguments === true && catalogue
      ? await argumentCheckers(catalogue, parsedCalls.flatMap((parsed) => ('error' in parsed ? [] : [parsed.name])))
      : undefined;
  parsedCalls.forEach((parsed, index) => {
    if ('error' in parsed) {
      messages[index] = failure(parsed.id, parsed.error);
      return;
    }
    const { id, name } = parsed;
    const tool = catalogue?.get(name);
    if (catalogue && !tool) {
      messages[index] = failure(id, `Unknown tool: ${name}`);
      return;
    }
    if (tool && !toolVisibility(tool)[caller]) {
      // To the model, a tool kept from it does not exist; a view is told why.
      messages[index] = failure(id, caller === 'model' ? `Unknown tool: ${name}` : `Tool ${name} is not for apps: its visibility leaves out "app"`);
      return;
    }
    const args = withoutAbsentNulls(parsed.args, tool);
    const checker = checkers?.get(name);
    const violation = checker && argumentViolation(name, checker, args);
    if (violation !== undefined) {
      messages[index] = failure(id, boundText(violation, budget));
      return;
    }
    slots.push({ index, id, name });
    const context: ToolCallContext = { toolCallId: id, signal: options.signal, onProgress: options.onProgress, input: options.input, ...timeoutsOf(options, id, name) };
    let key: string | undefined;
    jobs.push({
      // Read only when a batch of safe calls runs together (runBatch): most batches are one call, and the
      // canonical text of its arguments was made at every call for nothing.
      get key() {
        return (key ??= jobKey(name, args, index));
      },
      safe: trusted && isSafe(catalogue?.get(name)?.annotations),
      run: () => source.call(name, args, context),
    });
  });
  const outcomes = await runBatch(jobs, source.concurrency);
  outcomes.forEach((outcome, n) => {
    const { index, id, name } = slots[n] as { index: number; id: string; name: string };
    if (outcome.status === 'fulfilled') tellResult(options.onResult, id, outcome.value);
    messages[index] = outcome.status === 'fulfilled' ? readResult(id, name, outcome.value, budget, ledger) : failure(id, boundText(messageOf(outcome.reason), budget));
  });
  return messages as ToolMessage[];
}

// A listener that throws has no say in the batch's answers.
function tellResult(onResult: ExecuteOptions['onResult'], id: string, result: CallToolResult): void {
  try {
    onResult?.(id, result);
  } catch {
    // Dropped: see above.
  }
}

// The nulls a model sends for "not given" (strict mode asks it to) never
// reach the server where the tool's schema refuses them; without a
// catalogue the arguments go as they are.
function withoutAbsentNulls(args: Record<string, unknown>, tool: Tool | undefined): Record<string, unknown> {
  return tool ? dropAbsentNulls(args, tool.inputSchema) : args;
}

/**
 * The message for a tool's result, its text cut to `maxChars` characters
 * (none by default); `structured_content` is kept whole. With a ledger
 * (`media: 'inline'`) the images and clips it admits go in `media`.
 */
export function fromResult(id: string, result: CallToolResult, maxChars = Infinity, ledger?: MediaLedger): ToolMessage {
  const { text, media } = flattenResult(result.content, maxChars, ledger);
  const message: ToolMessage = { role: 'tool', tool_call_id: id, content: text, is_error: result.isError === true };
  if (result.structuredContent !== undefined) message.structured_content = result.structuredContent;
  if (media.length > 0) message.media = media;
  return message;
}

// A result too large to turn into text (past the longest string there can
// be) fails its own call, not the batch.
function readResult(id: string, name: string, result: CallToolResult, maxChars: number, ledger: MediaLedger | undefined): ToolMessage {
  try {
    return fromResult(id, result, maxChars, ledger);
  } catch (error) {
    return failure(id, `The result of ${name} could not be read: ${messageOf(error)}`);
  }
}

/** The message for a call that could not run or failed. */
export function failure(id: string, reason: string): ToolMessage {
  return { role: 'tool', tool_call_id: id, content: reason, is_error: true };
}

type ParsedCall = { id: string; name: string; args: Record<string, unknown> } | { id: string; error: string };

/** Reads one call a model made, arguments included; says why when it cannot. */
export function parseCall(call: unknown): ParsedCall {
  const record = (typeof call === 'object' && call !== null ? call : {}) as Record<string, unknown>;
  const id = typeof record.id === 'string' ? record.id : '';
  const fn = record.function as Record<string, unknown> | undefined;
  if (!id || typeof fn !== 'object' || fn === null || typeof fn.name !== 'string' || fn.name === '') {
    return { id, error: 'Malformed tool call: it needs an id and a function name' };
  }
  const raw = fn.arguments;
  let args: unknown = raw;
  if (raw === undefined || raw === '') {
    args = {};
  } else if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw);
    } catch {
      return { id, error: `Invalid arguments for ${fn.name}: not valid JSON` };
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { id, error: `Invalid arguments for ${fn.name}: expected a JSON object` };
  }
  return { id, name: fn.name, args: args as Record<string, unknown> };
}

function isSafe(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.readOnlyHint === true && annotations.idempotentHint === true;
}

// Equal calls make equal keys. Arguments JSON cannot carry (a bigint, a
// function, an infinite number) get a key of their own ('#' starts no JSON
// text), and run on their own.
function jobKey(name: string, args: Record<string, unknown>, index: number): string {
  try {
    return `${name}\n${canonicalJson(args)}`;
  } catch {
    return `${name}\n#${index}`;
  }
}

/**
 * What a layer does first with a batch: reads the calls back to its real
 * names (those of `listReal`, listed only when a call's name looks mapped)
 * and gives the options to pass them on with, which say the names are real.
 * When the calls cannot be read back (an invalid `names` option, a listing
 * that failed) every call is answered with why: none runs under a name
 * nobody could check.
 */
export async function readBack(
  names: NameMapper,
  calls: LlmToolCall[],
  options: ExecuteOptions,
  listReal: () => Promise<LlmTool[]>,
): Promise<{ calls: LlmToolCall[]; options: ExecuteOptions } | { answers: ToolMessage[] }> {
  let timed: ExecuteOptions;
  try {
    // Read under the names the caller used, before they change.
    timed = withCallTimeouts(calls, options);
  } catch (error) {
    return { answers: calls.map((call) => failure(typeof call?.id === 'string' ? call.id : '', messageOf(error))) };
  }
  try {
    const passed = withMediaLedger(timed);
    // A layer under another gets options that already say so: passed on as they are, not copied again at every layer.
    return { calls: await names.toReal(calls, options.names, listReal), options: passed.names === 'real' ? passed : { ...passed, names: 'real' } };
  } catch (error) {
    const reason = `The tool names could not be read back: ${messageOf(error)}`;
    return { answers: calls.map((call) => failure(typeof call?.id === 'string' ? call.id : '', reason)) };
  }
}

// The outermost layer starts the batch's media ledger, so every provider the
// batch is split across draws on the same budget; a layer below finds it in
// the options it was given. Limits nobody can read leave it to the provider
// that runs the tools to refuse the batch.
function withMediaLedger(options: ExecuteOptions & { [MEDIA_LEDGER]?: MediaLedger }): ExecuteOptions {
  if (options.media !== 'inline' || options[MEDIA_LEDGER]) return options;
  try {
    const carried: ExecuteOptions & { [MEDIA_LEDGER]?: MediaLedger } = { ...options, [MEDIA_LEDGER]: mediaLedgerOf(options) };
    return carried;
  } catch {
    return options;
  }
}
