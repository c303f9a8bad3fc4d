// sampling/createMessage as an OpenAI Chat Completions request, and the
// completion back as a CreateMessageResult.
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { CreateMessageContent, CreateMessageParams, CreateMessageResult, SamplingContent } from '../../protocol/sampling.js';
import { toRootObject } from '../schemas/root-object.js';
import { blocksOf, checkResponse, contentOf, dataUrl, member, parseArguments, placeholder, reasonOf, toolResultText, toolUse } from './sampling-content.js';

/** Options of every `samplingTo…` helper. */
export interface SamplingRequestOptions {
  /** The model to name in the request; the server's `modelPreferences` are hints for choosing it. */
  model?: string;
}

/** The body of `POST /v1/chat/completions` (`openai.chat.completions.create`). */
export interface OpenAIChatSamplingRequest {
  model?: string;
  messages: Array<Record<string, unknown>>;
  max_completion_tokens: number;
  temperature?: number;
  stop?: string[];
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }>;
  tool_choice?: 'auto' | 'required' | 'none';
}

/**
 * A `sampling/createMessage` request as the body of an OpenAI Chat
 * Completions request: `systemPrompt` as the system message, images as
 * `data:` URLs, WAV and MP3 audio as `input_audio`, tool uses as
 * `tool_calls`, tool results as `tool` messages, `tools`/`toolChoice` as
 * function tools and `tool_choice`. Read the answer with
 * {@link openAIChatToSamplingResult}.
 *
 * @example
 * ```ts
 * onSample: async ({ params }) => {
 *   const completion = await openai.chat.completions.create(samplingToOpenAIChat(params as CreateMessageParams, { model: 'gpt-4o' }));
 *   return openAIChatToSamplingResult(completion);
 * }
 * ```
 */
export function samplingToOpenAIChat(params: CreateMessageParams, options: SamplingRequestOptions = {}): OpenAIChatSamplingRequest {
  const messages: Array<Record<string, unknown>> = [];
  if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  for (const message of params.messages) {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const text = blocks.filter((block) => block.type !== 'tool_use').map((block) => (block.type === 'text' ? block.text : placeholder(block))).join('\n');
      const calls = blocks.flatMap((block) =>
        block.type === 'tool_use' ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } }] : [],
      );
      messages.push({ role: 'assistant', content: text === '' && calls.length > 0 ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    // A user's tool results are one `tool` message each; anything else is one user message.
    const results = blocks.flatMap((block) => (block.type === 'tool_result' ? [block] : []));
    for (const result of results) messages.push({ role: 'tool', tool_call_id: result.toolUseId, content: toolResultText(result) });
    const parts = blocks.filter((block) => block.type !== 'tool_result').map(userPart);
    if (parts.length === 1 && parts[0]?.type === 'text') messages.push({ role: 'user', content: parts[0].text });
    else if (parts.length > 0) messages.push({ role: 'user', content: parts });
  }
  const tools = params.tools?.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: toRootObject(tool.inputSchema) as Record<string, unknown> },
  }));
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    messages,
    max_completion_tokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences?.length ? { stop: params.stopSequences } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(tools?.length && params.toolChoice?.mode ? { tool_choice: params.toolChoice.mode } : {}),
  };
}

function userPart(block: SamplingContent): Record<string, unknown> & { type: string; text?: string } {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image_url', image_url: { url: dataUrl(block) } };
  if (block.type === 'audio' && /^audio\/(wav|x-wav|mpeg|mp3)$/.test(block.mimeType)) {
    return { type: 'input_audio', input_audio: { data: block.data, format: block.mimeType.endsWith('wav') ? 'wav' : 'mp3' } };
  }
  return { type: 'text', text: placeholder(block) };
}

const FINISH: Record<string, string> = { stop: 'endTurn', length: 'maxTokens', tool_calls: 'toolUse', function_call: 'toolUse' };

/**
 * An OpenAI Chat Completions response (its first choice) as a
 * `CreateMessageResult`: text as text, `tool_calls` as `tool_use` content
 * with `stopReason: 'toolUse'`, `length` as `maxTokens`; `model` is the
 * response's unless it has none.
 *
 * @throws McpClientError when the response has no choice, or a tool call's arguments are not a JSON object.
 */
export function openAIChatToSamplingResult(response: unknown, model?: string): CreateMessageResult {
  const body = checkResponse(response, 'OpenAI Chat Completions');
  const choices = member(body, 'choices');
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  const message = member(choice, 'message');
  if (message === undefined) throw new McpClientError('the OpenAI Chat Completions response has no choice with a message');
  const blocks: CreateMessageContent[] = [];
  const text = member(message, 'content');
  if (typeof text === 'string' && text !== '') blocks.push({ type: 'text', text });
  const calls = member(message, 'tool_calls');
  for (const call of Array.isArray(calls) ? calls : []) {
    const fn = member(call, 'function');
    const name = member(fn, 'name');
    blocks.push(toolUse(member(call, 'id'), name, parseArguments(member(fn, 'arguments'), String(name))));
  }
  const finish = member(choice, 'finish_reason');
  const used = blocks.some((block) => block.type === 'tool_use');
  const stopReason = used ? 'toolUse' : reasonOf(FINISH, finish);
  const named = member(body, 'model');
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: typeof named === 'string' ? named : (model ?? 'unknown'),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
