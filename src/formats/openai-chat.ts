import type { ExecuteOptions, LlmToolCall, ToolMessage, ToolProvider } from '../tools/bridge.js';
import { openAIParameters, type OpenAIToolsOptions } from './openai-strict.js';
import { toRootObject } from './schemas/root-object.js';
import { dataUrl, mediaOf, VENDOR_MEDIA_LIMITS, vendorOptions } from './vendor-media.js';

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
 * A chat-completions `tool` message carries text only. Images (PNG, JPEG,
 * GIF, WebP, within the batch's media budget: `media` and `mediaLimits` of
 * {@link ExecuteOptions}, `'inline'` by default here) ride in each
 * answer's `media`, and the line of `content` naming each says it is
 * attached; {@link mediaMessagesForOpenAIChat} makes the `user` message
 * that shows them, to append after the tool messages.
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
  return provider.executeToolCalls([...toolCalls], vendorOptions(options, VENDOR_MEDIA_LIMITS.openai));
}

/** A chat-completions `user` message showing the model the images its tool calls returned. */
export interface OpenAIChatMediaMessage {
  role: 'user';
  content: Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;
}

/**
 * The follow-up the chat-completions shape needs for images: a `tool`
 * message holds text only, so the images of a batch's answers go in one
 * `user` message after them, each after a text part naming the call it
 * came from (`call_1, image 1 of 2 (image/png):`) and as a `data:` URL.
 * Audio is left out (the API takes it only from audio models); its line in
 * the tool message already says it was returned.
 *
 * @param answers what {@link executeOpenAIChatToolCalls} (or any `executeToolCalls` with `media: 'inline'`) resolved with.
 * @returns one message when an answer carries an image, none otherwise: spread it after the tool messages.
 * @example
 * ```ts
 * const answers = await executeOpenAIChatToolCalls(provider, message.tool_calls ?? []);
 * messages.push(message, ...answers.map(({ role, tool_call_id, content }) => ({ role, tool_call_id, content })), ...mediaMessagesForOpenAIChat(answers));
 * ```
 */
export function mediaMessagesForOpenAIChat(answers: readonly ToolMessage[]): OpenAIChatMediaMessage[] {
  const content: OpenAIChatMediaMessage['content'] = [];
  for (const answer of answers) {
    const images = mediaOf(answer).filter((item) => item.type === 'image');
    images.forEach((image, n) => {
      content.push({ type: 'text', text: `${answer.tool_call_id}, image ${n + 1} of ${images.length} (${image.mimeType}):` });
      content.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
    });
  }
  if (content.length === 0) return [];
  return [{ role: 'user', content: [{ type: 'text', text: 'The images the tool calls above returned (tool messages carry text only):' }, ...content] }];
}
