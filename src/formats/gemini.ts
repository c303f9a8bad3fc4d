import type { LlmToolCall, ToolProvider, ExecuteOptions } from '../tools/bridge.js';
import { isObject } from '../util/values.js';
import { mediaOf, VENDOR_MEDIA_LIMITS, vendorOptions } from './vendor-media.js';
import { toGeminiSchema } from './schemas/gemini-schema.js';

/** A function declaration as the Google Gemini API takes it. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The MCP input schema in the part of JSON Schema Gemini accepts (`$ref`s expanded, unsupported keywords left out or folded into descriptions). */
  parametersJsonSchema: Record<string, unknown>;
}

/** One Gemini `Tool` holding every declaration (`config.tools` of `generateContent`). */
export interface GeminiFunctionTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A part of the model's content, as far as function calls go. */
export interface GeminiFunctionCallPart {
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
}

/** The answer to one function call: a part for the next `user` turn. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    /** The call's id, when the model gave one. */
    id?: string;
    name: string;
    /** `{ output }` with the same text `executeToolCalls` gives, or `{ error }` with why it failed: the keys the API documents. */
    response: { output: string } | { error: string };
    /** The images and audio the result carries (`media: 'inline'`, the default here), in order, as the function response's own parts. */
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

/**
 * The provider's tools as one Gemini `Tool` of function declarations, each
 * schema reduced to what Gemini's API accepts (see docs/llm-bridge.md,
 * "Schemas each vendor accepts").
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents, config: { tools: [await toolsForGemini(provider)] } });
 * ```
 */
export async function toolsForGemini(provider: ToolProvider): Promise<GeminiFunctionTool> {
  return {
    functionDeclarations: (await provider.toolsForLlm()).map(({ function: fn }) => ({
      name: fn.name,
      ...(fn.description === undefined ? {} : { description: fn.description }),
      parametersJsonSchema: toGeminiSchema(fn.parameters),
    })),
  };
}

/**
 * Runs the `functionCall` parts of the model's content and answers each with
 * a `functionResponse` part, in order, as one batch through the provider (so
 * its batch scheduler, policy and leases see the model's whole turn). Other
 * parts (text, thoughts…) are passed over. A call without an id is answered
 * by name and position, as Gemini matches them. Never rejects: a failure is a
 * response `{ error }` that says why.
 *
 * The arguments are checked against each tool's own inputSchema first
 * (`checkArguments` of {@link ExecuteOptions}, on unless `options` turn it
 * off): the declaration may be looser, and arguments the tool would refuse
 * are answered as a failure without reaching the server.
 *
 * Images and audio come back as `inlineData` parts of the function
 * response itself (`functionResponse.parts`, Gemini's multimodal function
 * responses): PNG, JPEG and WebP images, WAV, MP3, OGG and FLAC audio,
 * within the batch's media budget (`media` and `mediaLimits` of
 * {@link ExecuteOptions}); other types and what the budget cuts stay lines
 * of the text saying why.
 *
 * @param parts the candidate's `content.parts`.
 * @returns the parts of the next `user` turn.
 * @example
 * ```ts
 * const parts = response.candidates?.[0]?.content?.parts ?? [];
 * contents.push({ role: 'model', parts }, { role: 'user', parts: await executeGeminiToolCalls(provider, parts) });
 * ```
 */
export async function executeGeminiToolCalls(
  provider: ToolProvider,
  parts: readonly GeminiFunctionCallPart[],
  options: ExecuteOptions = {},
): Promise<GeminiFunctionResponsePart[]> {
  const found = parts.flatMap((part) => (isObject(part) && isObject(part.functionCall) ? [part.functionCall] : []));
  if (found.length === 0) return [];
  const calls: LlmToolCall[] = found.map((call, index) => ({
    // The bridge needs an id for every call (progress and answers go by it); Gemini may send none.
    id: typeof call.id === 'string' && call.id !== '' ? call.id : `gemini-call-${index}`,
    type: 'function',
    function: { name: typeof call.name === 'string' ? call.name : '', arguments: call.args === undefined ? {} : (call.args as object) },
  }));
  const answers = await provider.executeToolCalls(calls, vendorOptions(options, VENDOR_MEDIA_LIMITS.gemini));
  return answers.map((answer, index) => {
    const call = found[index] ?? {};
    const media = mediaOf(answer);
    return {
      functionResponse: {
        ...(typeof call.id === 'string' && call.id !== '' ? { id: call.id } : {}),
        name: typeof call.name === 'string' ? call.name : '',
        response: answer.is_error ? { error: answer.content } : { output: answer.content },
        ...(media.length === 0 ? {} : { parts: media.map(({ mimeType, data }) => ({ inlineData: { mimeType, data } })) }),
      },
    };
  });
}
