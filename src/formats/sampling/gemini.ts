// sampling/createMessage as a Gemini generateContent request, and the
// response back as a CreateMessageResult.
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { CreateMessageContent, CreateMessageParams, CreateMessageResult, SamplingContent } from '../../protocol/sampling.js';
import { isObject } from '../../util/values.js';
import { toGeminiSchema } from '../schemas/gemini-schema.js';
import type { SamplingRequestOptions } from './openai-chat.js';
import { blocksOf, checkResponse, contentOf, member, reasonOf, toolResultText, toolUse } from './sampling-content.js';

/** The body of `POST /v1beta/models/{model}:generateContent` (REST field names; `@google/genai` takes the same under `config`). */
export interface GeminiSamplingRequest {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: Array<{ role: 'user' | 'model'; parts: Array<Record<string, unknown>> }>;
  generationConfig: { maxOutputTokens: number; temperature?: number; stopSequences?: string[] };
  tools?: Array<{ functionDeclarations: Array<{ name: string; description?: string; parametersJsonSchema: Record<string, unknown> }> }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE' } };
}

const MODE = { auto: 'AUTO', required: 'ANY', none: 'NONE' } as const;

/**
 * A `sampling/createMessage` request as the body of a Gemini
 * `generateContent` request: `systemPrompt` as `systemInstruction`, the
 * assistant as `model`, images and audio as `inlineData`, tool uses as
 * `functionCall` parts and results as `functionResponse` parts (named after
 * the tool use they answer), schemas reduced to what Gemini accepts,
 * `toolChoice` as `functionCallingConfig`. The model is named in the URL,
 * not the body. Read the answer with {@link geminiToSamplingResult}.
 *
 * @example
 * ```ts
 * onSample: async ({ params }) => {
 *   const body = samplingToGemini(params as CreateMessageParams);
 *   const response = await fetch(`${base}/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers, body: JSON.stringify(body) });
 *   return geminiToSamplingResult(await response.json(), 'gemini-2.5-flash');
 * }
 * ```
 */
export function samplingToGemini(params: CreateMessageParams, _options: SamplingRequestOptions = {}): GeminiSamplingRequest {
  // A functionResponse names its function; MCP's tool result names only the use's id.
  const names = new Map<string, string>();
  for (const message of params.messages) {
    for (const block of blocksOf(message)) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  const contents = params.messages.map((message) => ({
    role: message.role === 'assistant' ? ('model' as const) : ('user' as const),
    parts: blocksOf(message).map((block) => geminiPart(block, names)),
  }));
  const tools = params.tools?.length
    ? [{ functionDeclarations: params.tools.map((tool) => ({ name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parametersJsonSchema: toGeminiSchema(tool.inputSchema) })) }]
    : undefined;
  const mode = params.toolChoice?.mode;
  return {
    ...(params.systemPrompt ? { systemInstruction: { parts: [{ text: params.systemPrompt }] } } : {}),
    contents,
    generationConfig: {
      maxOutputTokens: params.maxTokens,
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
    },
    ...(tools ? { tools } : {}),
    ...(tools && mode ? { toolConfig: { functionCallingConfig: { mode: MODE[mode] } } } : {}),
  };
}

function geminiPart(block: SamplingContent, names: Map<string, string>): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'image':
    case 'audio':
      return { inlineData: { mimeType: block.mimeType, data: block.data } };
    case 'tool_use':
      return { functionCall: { id: block.id, name: block.name, args: block.input } };
    case 'tool_result': {
      const text = toolResultText(block);
      const response = block.isError ? { error: text } : block.structuredContent ?? { output: text };
      return { functionResponse: { id: block.toolUseId, name: names.get(block.toolUseId) ?? block.toolUseId, response } };
    }
  }
}

const FINISH: Record<string, string> = { STOP: 'endTurn', MAX_TOKENS: 'maxTokens' };

/**
 * A Gemini `generateContent` response (its first candidate) as a
 * `CreateMessageResult`: text parts as text (thought parts left out),
 * `functionCall` parts as `tool_use` content with `stopReason: 'toolUse'`.
 * Gemini may give a call no id; it then gets `<responseId>-<n>` (or
 * `gemini-call-<n>`), which the server's tool result will name back.
 * `model` is the response's `modelVersion`, else the one given.
 *
 * @throws McpClientError when the response has no candidate content, or a call's args are not an object.
 */
export function geminiToSamplingResult(response: unknown, model?: string): CreateMessageResult {
  const body = checkResponse(response, 'Gemini');
  const candidates = member(body, 'candidates');
  const candidate = Array.isArray(candidates) ? candidates[0] : undefined;
  const parts = member(member(candidate, 'content'), 'parts');
  if (!Array.isArray(parts)) throw new McpClientError('the Gemini response has no candidate with content parts');
  const responseId = member(body, 'responseId');
  const blocks: CreateMessageContent[] = [];
  parts.forEach((part, index) => {
    const text = member(part, 'text');
    if (typeof text === 'string' && member(part, 'thought') !== true) blocks.push({ type: 'text', text });
    const call = member(part, 'functionCall');
    if (call === undefined) return;
    const args = member(call, 'args') ?? {};
    if (!isObject(args)) throw new McpClientError('the model made a function call whose args are not an object');
    const id = member(call, 'id');
    const fallback = `${typeof responseId === 'string' ? responseId.slice(0, 128) : 'gemini-call'}-${index}`;
    blocks.push(toolUse(typeof id === 'string' && id !== '' ? id : fallback, member(call, 'name'), args));
  });
  const used = blocks.some((block) => block.type === 'tool_use');
  const stopReason = used ? 'toolUse' : reasonOf(FINISH, member(candidate, 'finishReason'));
  const version = member(body, 'modelVersion');
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: typeof version === 'string' ? version : (model ?? 'unknown'),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
