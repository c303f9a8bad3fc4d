import type { ExecuteOptions, LlmToolCall, ToolMessage, ToolProvider } from '../tools/bridge.js';
import { openAIParameters, type OpenAIToolsOptions } from './openai-strict.js';
import { toRootObject } from './schemas/root-object.js';

/** A function tool as the OpenAI Chat Completions API declares it (`tools` of `chat.completions.create`). */
export interface OpenAIChatFunctionTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: Record<string, unknown>;
    /** Present only with the `strict` option: whether this tool could be declared strict. */
    strict?: boolean;
  };
}

/**
 * The provider's tools as function tools for the OpenAI Chat Completions API.
 * Without options this is `provider.toolsForLlm()`, unchanged but for a
 * schema OpenAI would refuse at its root (no `type: 'object'`, a union
 * there, an array without `items`), which is made an object schema; with
 * `{ strict: true }` each tool is declared in strict mode where its schema
 * allows (see {@link OpenAIToolsOptions}). The calls the model makes go to
 * {@link executeOpenAIChatToolCalls}: the nulls strict mode makes the model
 * send for optional members are dropped there, and the arguments are checked
 * against each tool's own schema.
 *
 * @example
 * ```ts
 * const tools = await toolsForOpenAIChat(provider, { strict: true });
 * const completion = await openai.chat.completions.create({ model, messages, tools });
 * ```
 */
export async function toolsForOpenAIChat(provider: ToolProvider, options: OpenAIToolsOptions = {}): Promise<OpenAIChatFunctionTool[]> {
  const tools = await provider.toolsForLlm();
  if (options.strict !== true) {
    return tools.map((tool) => {
      const parameters = toRootObject(tool.function.parameters);
      return parameters === tool.function.parameters ? tool : { type: tool.type, function: { ...tool.function, parameters } };
    });
  }
  return tools.map(({ type, function: fn }) => ({ type, function: { ...fn, ...openAIParameters(fn.parameters, options) } }));
}

/**
 * Runs the tool calls of a chat completion (`message.tool_calls`) and answers
 * each as a `tool` message. It is `provider.executeToolCalls` with the
 * arguments checked against each tool's own inputSchema (`checkArguments`,
 * unless `options` turn it off): what {@link toolsForOpenAIChat} declared in
 * strict mode can be looser than the tool's schema, and arguments the tool
 * would refuse are answered `is_error` without reaching the server.
 *
 * @param toolCalls the assistant message's `tool_calls`.
 * @returns the messages to append after the assistant message, in order.
 * @example
 * ```ts
 * const message = completion.choices[0].message;
 * messages.push(message, ...(await executeOpenAIChatToolCalls(provider, message.tool_calls ?? [])));
 * ```
 */
export function executeOpenAIChatToolCalls(provider: ToolProvider, toolCalls: readonly LlmToolCall[], options: ExecuteOptions = {}): Promise<ToolMessage[]> {
  return provider.executeToolCalls([...toolCalls], { ...options, checkArguments: options.checkArguments ?? true });
}
