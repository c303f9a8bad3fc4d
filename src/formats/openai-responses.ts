import type { LlmToolCall, ToolProvider, ExecuteOptions } from '../tools/bridge.js';
import { deferrableTools } from '../tools/deferred-tools.js';
import { isObject } from '../util/values.js';
import { dataUrl, mediaOf, VENDOR_MEDIA_LIMITS, vendorOptions } from './vendor-media.js';
import { openAIParameters, type OpenAIToolsOptions } from './openai-strict.js';

/** A function tool as the OpenAI Responses API declares it (`tools` of `responses.create`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** False unless asked for with the `strict` option and the tool's schema could be made strict. */
  strict: boolean;
  /** Present, and true, only with the `deferLoading` option: the API loads the tool once its tool search finds it. */
  defer_loading?: true;
}

/** OpenAI's hosted tool search tool, declared beside deferred function tools. */
export interface OpenAIResponsesToolSearchTool {
  type: 'tool_search';
}

/** How `toolsForOpenAIResponses` declares tools. */
export interface OpenAIResponsesToolsOptions extends OpenAIToolsOptions {
  /**
   * OpenAI's own tool search: every function tool declared with
   * `defer_loading: true` (but a `ToolSearch`'s always-included tools, and
   * its own `tool_search` left out), and `{ type: 'tool_search' }` (hosted:
   * the API searches and loads) first. The calls come back as
   * `function_call` items as ever, and a `ToolSearch` runs a call to a tool
   * it has not shown. Default `false`.
   */
  deferLoading?: boolean;
}

/** What the model's output holds about one function call (a `function_call` item of `response.output`). */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  /** The arguments, as the JSON string the API sends. */
  arguments: string;
}

/** A part of a `function_call_output`'s output: its text, or an image as a `data:` URL. */
export type OpenAIResponsesOutputPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string };

/** The answer to one function call, an input item for the next request. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /**
   * The same text `executeToolCalls` gives (the Responses API has no error
   * flag, so a failure is said in words); when the result carries images
   * (`media: 'inline'`, the default here), an `input_text` part with that
   * text and an `input_image` part for each image, in order.
   */
  output: string | OpenAIResponsesOutputPart[];
}

/**
 * The provider's tools as function tools for the OpenAI Responses API:
 * `strict: false` and the schemas as the server wrote them (but for a root
 * OpenAI refuses, declared as an object: see {@link OpenAIToolsOptions}), or, with
 * `{ strict: true }`, in strict mode wherever a schema allows (see
 * {@link OpenAIToolsOptions}); with `{ deferLoading: true }`, deferred behind
 * OpenAI's hosted tool search (see {@link OpenAIResponsesToolsOptions}).
 *
 * @example
 * ```ts
 * const response = await openai.responses.create({ model, input, tools: await toolsForOpenAIResponses(provider, { strict: true }) });
 * ```
 */
export async function toolsForOpenAIResponses(
  provider: ToolProvider,
  options?: OpenAIResponsesToolsOptions & { deferLoading?: false },
): Promise<OpenAIResponsesFunctionTool[]>;
export async function toolsForOpenAIResponses(
  provider: ToolProvider,
  options: OpenAIResponsesToolsOptions,
): Promise<Array<OpenAIResponsesFunctionTool | OpenAIResponsesToolSearchTool>>;
export async function toolsForOpenAIResponses(
  provider: ToolProvider,
  options: OpenAIResponsesToolsOptions = {},
): Promise<Array<OpenAIResponsesFunctionTool | OpenAIResponsesToolSearchTool>> {
  const declare = ({ function: fn }: { function: { name: string; description?: string; parameters: Record<string, unknown> } }, deferred: boolean): OpenAIResponsesFunctionTool => ({
    type: 'function',
    name: fn.name,
    ...(fn.description === undefined ? {} : { description: fn.description }),
    ...openAIParameters(fn.parameters, options),
    ...(deferred ? { defer_loading: true as const } : {}),
  });
  if (options.deferLoading !== true) return (await provider.toolsForLlm()).map((tool) => declare(tool, false));
  return [{ type: 'tool_search' }, ...(await deferrableTools(provider)).map(({ tool, deferred }) => declare(tool, deferred))];
}

/**
 * Runs the function calls in a Responses API output and answers each with a
 * `function_call_output` item, in order, as one batch through the provider
 * (so its batch scheduler, policy and leases see the model's whole turn).
 * Items other than `function_call` (messages, reasoning…) are passed over.
 * Never rejects: a failure is an answer whose output says why.
 *
 * The arguments are checked against each tool's own inputSchema first
 * (`checkArguments` of {@link ExecuteOptions}, on unless `options` turn it
 * off): the declaration may be looser, and arguments the tool would refuse
 * are answered as a failure without reaching the server.
 *
 * Images come back as `input_image` parts of the output (PNG, JPEG, GIF or
 * WebP, within the batch's media budget: `media` and `mediaLimits` of
 * {@link ExecuteOptions}); a `function_call_output` takes no audio, so
 * audio, other types and what the budget cuts stay lines of the text
 * saying why.
 *
 * @param output `response.output`, or any list of items holding the calls.
 * @returns the items to append to the next request's `input`, after the model's own output.
 * @example
 * ```ts
 * const answers = await executeOpenAIResponsesToolCalls(provider, response.output);
 * input.push(...response.output, ...answers);
 * ```
 */
export async function executeOpenAIResponsesToolCalls(
  provider: ToolProvider,
  output: readonly { type: string }[],
  options: ExecuteOptions = {},
): Promise<OpenAIResponsesFunctionCallOutput[]> {
  const calls: LlmToolCall[] = output.filter(isFunctionCall).map((item) => ({
    id: typeof item.call_id === 'string' ? item.call_id : '',
    type: 'function',
    function: { name: typeof item.name === 'string' ? item.name : '', arguments: typeof item.arguments === 'string' ? item.arguments : '' },
  }));
  if (calls.length === 0) return [];
  const answers = await provider.executeToolCalls(calls, vendorOptions(options, VENDOR_MEDIA_LIMITS.openai));
  return answers.map((answer) => {
    const images = mediaOf(answer).filter((item) => item.type === 'image');
    const output: OpenAIResponsesFunctionCallOutput['output'] =
      images.length === 0 ? answer.content : [{ type: 'input_text', text: answer.content }, ...images.map((image) => ({ type: 'input_image' as const, image_url: dataUrl(image) }))];
    return { type: 'function_call_output', call_id: answer.tool_call_id, output };
  });
}

function isFunctionCall(item: { type: string }): item is { type: string } & Record<string, unknown> {
  return isObject(item) && item.type === 'function_call';
}
