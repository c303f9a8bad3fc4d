import type { LlmTool, LlmToolCall, ToolProvider, ExecuteOptions } from '../tools/bridge.js';
import { deferrableTools } from '../tools/deferred-tools.js';
import { isObject } from '../util/values.js';
import { mediaOf, VENDOR_MEDIA_LIMITS, vendorOptions } from './vendor-media.js';
import { toRootObject } from './schemas/root-object.js';

/** A client tool as the Anthropic Messages API declares it (`tools` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  /** Present, and true, only with the `deferLoading` option: the API loads the tool once its tool search finds it. */
  defer_loading?: true;
}

/** Anthropic's own tool search tool (a server tool), declared in front of deferred tools. */
export interface AnthropicToolSearchTool {
  type: 'tool_search_tool_bm25_20251119' | 'tool_search_tool_regex_20251119';
  name: 'tool_search_tool_bm25' | 'tool_search_tool_regex';
}

/** How `toolsForAnthropic` declares tools. */
export interface AnthropicToolsOptions {
  /**
   * Anthropic's own tool search: every tool declared with `defer_loading:
   * true` (but a `ToolSearch`'s always-included tools, and its own
   * `tool_search` left out), and Anthropic's search tool first, BM25
   * (`true` or `'bm25'`) or regex (`'regex'`). The API searches and loads;
   * the calls come back as `tool_use` blocks as ever, and a `ToolSearch`
   * runs a call to a tool it has not shown. Default `false`.
   */
  deferLoading?: boolean | 'bm25' | 'regex';
}

/** A `tool_use` block of an assistant message: one call the model made. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** A block of a `tool_result`'s content: its text, or an image it carries. */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string } };

/** The answer to one `tool_use` block, for the content of the next user message. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /**
   * The same text `executeToolCalls` gives; when the result carries images
   * (`media: 'inline'`, the default here), a text block with that text and
   * an `image` block for each image, in order.
   */
  content: string | AnthropicToolResultContent[];
  /** Present, and true, only when the call failed (as the API's own examples write it). */
  is_error?: true;
}

/**
 * The provider's tools as client tools for the Anthropic Messages API; with
 * `{ deferLoading: true }`, the whole catalogue deferred behind Anthropic's
 * own tool search tool (see {@link AnthropicToolsOptions}).
 *
 * @example
 * ```ts
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: await toolsForAnthropic(provider) });
 * ```
 */
export async function toolsForAnthropic(provider: ToolProvider, options?: AnthropicToolsOptions & { deferLoading?: false }): Promise<AnthropicTool[]>;
export async function toolsForAnthropic(provider: ToolProvider, options: AnthropicToolsOptions): Promise<Array<AnthropicTool | AnthropicToolSearchTool>>;
export async function toolsForAnthropic(provider: ToolProvider, options: AnthropicToolsOptions = {}): Promise<Array<AnthropicTool | AnthropicToolSearchTool>> {
  const { deferLoading = false } = options;
  if (!deferLoading) return (await provider.toolsForLlm()).map((tool) => anthropicTool(tool, false));
  const search: AnthropicToolSearchTool =
    deferLoading === 'regex' ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' } : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  return [search, ...(await deferrableTools(provider)).map(({ tool, deferred }) => anthropicTool(tool, deferred))];
}

function anthropicTool({ function: fn }: LlmTool, deferred: boolean): AnthropicTool {
  return {
    name: fn.name,
    ...(fn.description === undefined ? {} : { description: fn.description }),
    input_schema: objectSchema(fn.parameters),
    ...(deferred ? { defer_loading: true as const } : {}),
  };
}

/**
 * Runs the `tool_use` blocks of an assistant message and answers each with a
 * `tool_result` block, in order, as one batch through the provider (so its
 * batch scheduler, policy and leases see the model's whole turn). Other
 * blocks (text, thinking…) are passed over. Never rejects: a failure is a
 * `tool_result` with `is_error: true` whose content says why.
 *
 * The arguments are checked against each tool's own inputSchema first
 * (`checkArguments` of {@link ExecuteOptions}, on unless `options` turn it
 * off): the declaration may be looser, and arguments the tool would refuse
 * are answered as a failure without reaching the server.
 *
 * Images come back as `image` blocks of the `tool_result` (PNG, JPEG, GIF
 * or WebP, at most 5 MB each as base64, within the batch's media budget:
 * `media` and `mediaLimits` of {@link ExecuteOptions}); audio, other types
 * and what the budget cuts stay lines of the text saying why.
 *
 * @param content the assistant message's `content`.
 * @returns the blocks for the next user message, which must answer every `tool_use`.
 * @example
 * ```ts
 * messages.push({ role: 'assistant', content: message.content });
 * messages.push({ role: 'user', content: await executeAnthropicToolCalls(provider, message.content) });
 * ```
 */
export async function executeAnthropicToolCalls(
  provider: ToolProvider,
  content: readonly { type: string }[],
  options: ExecuteOptions = {},
): Promise<AnthropicToolResultBlock[]> {
  const calls: LlmToolCall[] = content.filter(isToolUse).map((block) => ({
    id: typeof block.id === 'string' ? block.id : '',
    type: 'function',
    // Anthropic sends the input as an object already; anything else is refused by the bridge as "not a JSON object".
    function: { name: typeof block.name === 'string' ? block.name : '', arguments: isObject(block.input) ? block.input : JSON.stringify(block.input ?? {}) },
  }));
  if (calls.length === 0) return [];
  const answers = await provider.executeToolCalls(calls, vendorOptions(options, VENDOR_MEDIA_LIMITS.anthropic));
  return answers.map((answer) => ({
    type: 'tool_result',
    tool_use_id: answer.tool_call_id,
    content: withImages(answer.content, mediaOf(answer)),
    ...(answer.is_error ? { is_error: true as const } : {}),
  }));
}

function withImages(text: string, media: ReturnType<typeof mediaOf>): AnthropicToolResultBlock['content'] {
  const images = media.filter((item) => item.type === 'image');
  if (images.length === 0) return text;
  return [
    { type: 'text', text },
    ...images.map((image) => ({
      type: 'image' as const,
      // The ledger attached only the types the Anthropic limits name.
      source: { type: 'base64' as const, media_type: image.mimeType as 'image/png', data: image.data },
    })),
  ];
}

// The API takes only an object schema, and insists on saying so: whatever
// the provider declared (no type, a list of types, a union at the root, not
// an object at all) is declared as an object.
function objectSchema(parameters: unknown): AnthropicTool['input_schema'] {
  return isObject(parameters) ? { ...toRootObject(parameters), type: 'object' } : { type: 'object' };
}

function isToolUse(block: { type: string }): block is { type: string } & Record<string, unknown> {
  return isObject(block) && block.type === 'tool_use';
}
