// sampling/createMessage as an Anthropic Messages request, and the message
// back as a CreateMessageResult. The two shapes are close cousins: MCP's
// tool_use and tool_result blocks were drawn after Anthropic's.
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { CreateMessageContent, CreateMessageParams, CreateMessageResult, SamplingContent } from '../../protocol/sampling.js';
import { toRootObject } from '../schemas/root-object.js';
import type { SamplingRequestOptions } from './openai-chat.js';
import { blocksOf, checkResponse, contentOf, member, placeholder, reasonOf, toolUse } from './sampling-content.js';
import { isObject } from '../../util/values.js';

/** The body of `POST /v1/messages` (`anthropic.messages.create`). */
export interface AnthropicSamplingRequest {
  model?: string;
  system?: string;
  messages: Array<{ role: 'user' | 'assistant'; content: Array<Record<string, unknown>> }>;
  max_tokens: number;
  temperature?: number;
  stop_sequences?: string[];
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  tool_choice?: { type: 'auto' | 'any' | 'none' };
}

const CHOICE = { auto: 'auto', required: 'any', none: 'none' } as const;

/**
 * A `sampling/createMessage` request as the body of an Anthropic Messages
 * request: `systemPrompt` as `system`, images as base64 sources, tool uses
 * and results block for block, `toolChoice` `required` as `{ type: 'any' }`.
 * Audio, which the API does not take, becomes a line saying it was left
 * out. Read the answer with {@link anthropicToSamplingResult}.
 *
 * @example
 * ```ts
 * onSample: async ({ params }) =>
 *   anthropicToSamplingResult(await anthropic.messages.create(samplingToAnthropic(params as CreateMessageParams, { model: 'claude-sonnet-4-5' }))),
 * ```
 */
export function samplingToAnthropic(params: CreateMessageParams, options: SamplingRequestOptions = {}): AnthropicSamplingRequest {
  const messages = params.messages.map((message) => ({ role: message.role, content: blocksOf(message).map(anthropicBlock) }));
  const tools = params.tools?.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: toRootObject(tool.inputSchema) as Record<string, unknown>,
  }));
  const mode = params.toolChoice?.mode;
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    messages,
    max_tokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences?.length ? { stop_sequences: params.stopSequences } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(tools?.length && mode ? { tool_choice: { type: CHOICE[mode] } } : {}),
  };
}

function anthropicBlock(block: SamplingContent): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.content.map((inner) =>
          inner.type === 'image' && typeof inner.data === 'string' && typeof inner.mimeType === 'string'
            ? { type: 'image', source: { type: 'base64', media_type: inner.mimeType, data: inner.data } }
            : { type: 'text', text: inner.type === 'text' && typeof inner.text === 'string' ? inner.text : placeholder(inner as { type: string }) },
        ),
        ...(block.isError ? { is_error: true } : {}),
      };
    default:
      return { type: 'text', text: placeholder(block) };
  }
}

const STOP: Record<string, string> = { end_turn: 'endTurn', max_tokens: 'maxTokens', stop_sequence: 'stopSequence', tool_use: 'toolUse' };

/**
 * An Anthropic Messages response as a `CreateMessageResult`: text and
 * `tool_use` blocks kept (thinking blocks left out), `stop_reason` in
 * MCP's words (`tool_use` as `toolUse`).
 *
 * @throws McpClientError when the response has no content list, or a tool use has no id, name or object input.
 */
export function anthropicToSamplingResult(response: unknown, model?: string): CreateMessageResult {
  const body = checkResponse(response, 'Anthropic Messages');
  const content = member(body, 'content');
  if (!Array.isArray(content)) throw new McpClientError('the Anthropic Messages response has no content list');
  const blocks: CreateMessageContent[] = [];
  for (const block of content) {
    const type = member(block, 'type');
    const text = member(block, 'text');
    if (type === 'text' && typeof text === 'string') blocks.push({ type: 'text', text });
    if (type === 'tool_use') {
      const input = member(block, 'input') ?? {};
      if (!isObject(input)) throw new McpClientError('the model made a tool call whose input is not an object');
      blocks.push(toolUse(member(block, 'id'), member(block, 'name'), input));
    }
  }
  const stopReason = reasonOf(STOP, member(body, 'stop_reason'));
  const named = member(body, 'model');
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: typeof named === 'string' ? named : (model ?? 'unknown'),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
