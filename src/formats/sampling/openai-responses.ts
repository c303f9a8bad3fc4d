// sampling/createMessage as an OpenAI Responses request, and the response
// back as a CreateMessageResult.
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { CreateMessageContent, CreateMessageParams, CreateMessageResult, SamplingContent } from '../../protocol/sampling.js';
import { toRootObject } from '../schemas/root-object.js';
import type { SamplingRequestOptions } from './openai-chat.js';
import { blocksOf, checkResponse, contentOf, dataUrl, member, parseArguments, placeholder, toolResultText, toolUse } from './sampling-content.js';

/** The body of `POST /v1/responses` (`openai.responses.create`). */
export interface OpenAIResponsesSamplingRequest {
  model?: string;
  instructions?: string;
  input: Array<Record<string, unknown>>;
  max_output_tokens: number;
  temperature?: number;
  tools?: Array<{ type: 'function'; name: string; description?: string; parameters: Record<string, unknown>; strict: false }>;
  tool_choice?: 'auto' | 'required' | 'none';
  /** Responses are not kept on OpenAI's side: each sampling request carries its whole conversation. */
  store: false;
}

/**
 * A `sampling/createMessage` request as the body of an OpenAI Responses
 * request: `systemPrompt` as `instructions`, messages as input items, images
 * as `input_image` data URLs, tool uses as `function_call` items and tool
 * results as `function_call_output` items. The Responses API has no stop
 * sequences, so `stopSequences` is left out; audio becomes a line saying it
 * was. Read the answer with {@link openAIResponsesToSamplingResult}.
 *
 * @example
 * ```ts
 * onSample: async ({ params }) =>
 *   openAIResponsesToSamplingResult(await openai.responses.create(samplingToOpenAIResponses(params as CreateMessageParams, { model: 'gpt-5' }))),
 * ```
 */
export function samplingToOpenAIResponses(params: CreateMessageParams, options: SamplingRequestOptions = {}): OpenAIResponsesSamplingRequest {
  const input: Array<Record<string, unknown>> = [];
  for (const message of params.messages) {
    const parts: Array<Record<string, unknown>> = [];
    const flush = (): void => {
      if (parts.length > 0) input.push({ role: message.role, content: parts.splice(0) });
    };
    // Items keep the message's order: text around a tool call stays on its side of it.
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use') {
        flush();
        input.push({ type: 'function_call', call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
      } else if (block.type === 'tool_result') {
        flush();
        input.push({ type: 'function_call_output', call_id: block.toolUseId, output: toolResultText(block) });
      } else {
        parts.push(part(block, message.role));
      }
    }
    flush();
  }
  const tools = params.tools?.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: toRootObject(tool.inputSchema) as Record<string, unknown>,
    strict: false as const,
  }));
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(params.systemPrompt ? { instructions: params.systemPrompt } : {}),
    input,
    max_output_tokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(tools?.length ? { tools } : {}),
    ...(tools?.length && params.toolChoice?.mode ? { tool_choice: params.toolChoice.mode } : {}),
    store: false,
  };
}

function part(block: SamplingContent, role: 'user' | 'assistant'): Record<string, unknown> {
  const textType = role === 'assistant' ? 'output_text' : 'input_text';
  if (block.type === 'text') return { type: textType, text: block.text };
  if (block.type === 'image' && role === 'user') return { type: 'input_image', image_url: dataUrl(block) };
  return { type: textType, text: placeholder(block) };
}

/**
 * An OpenAI Responses response as a `CreateMessageResult`: the `output_text`
 * of its message items as text, its `function_call` items as `tool_use`
 * content (`call_id` as the id) with `stopReason: 'toolUse'`, an answer cut
 * at `max_output_tokens` as `maxTokens`. Reasoning items are left out.
 *
 * @throws McpClientError when the response has no output list, or a call's arguments are not a JSON object.
 */
export function openAIResponsesToSamplingResult(response: unknown, model?: string): CreateMessageResult {
  const body = checkResponse(response, 'OpenAI Responses');
  const output = member(body, 'output');
  if (!Array.isArray(output)) throw new McpClientError('the OpenAI Responses response has no output list');
  const blocks: CreateMessageContent[] = [];
  for (const item of output) {
    const type = member(item, 'type');
    if (type === 'message') {
      const content = member(item, 'content');
      for (const piece of Array.isArray(content) ? content : []) {
        const text = member(piece, 'text');
        if (member(piece, 'type') === 'output_text' && typeof text === 'string') blocks.push({ type: 'text', text });
      }
    } else if (type === 'function_call') {
      const name = member(item, 'name');
      blocks.push(toolUse(member(item, 'call_id'), name, parseArguments(member(item, 'arguments'), String(name))));
    }
  }
  const used = blocks.some((block) => block.type === 'tool_use');
  const cut = member(member(body, 'incomplete_details'), 'reason') === 'max_output_tokens';
  const stopReason = used ? 'toolUse' : cut ? 'maxTokens' : member(body, 'status') === 'completed' ? 'endTurn' : undefined;
  const named = member(body, 'model');
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: typeof named === 'string' ? named : (model ?? 'unknown'),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
