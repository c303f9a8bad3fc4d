import type { JSONSchema7, ToolSet } from 'ai';
import type { LlmToolCall, ToolMessage, ToolProvider } from '../tools/bridge.js';
import { CallGatherer } from '../tools/call-gatherer.js';
import { pickTools } from '../tools/pick-tools.js';
import type { ToolNames } from '../tools/tool-names.js';
import { resultBudgetOf } from '../tools/result-budget.js';
import { batchTimeoutsOf, type CallTimeouts } from '../tools/call-timeouts.js';
import { type MediaLimits, mediaLimitsOf, mediaModeOf, type ToolMedia } from '../tools/tool-media.js';
import { loadOptionalPeer } from '../util/optional-peer.js';

/** Options of `aiSdkTools`. */
export interface AiSdkToolsOptions extends CallTimeouts {
  /** Hand over only these of the provider's tools, each by its shown or its real name (default: all). Naming one the provider lacks rejects. */
  tools?: readonly string[];
  /** The rule for the names the model is shown (default: portable, see `PORTABLE_TOOL_NAMES`), or `'real'` for the providers' own names. */
  names?: ToolNames;
  /**
   * The most characters of one result the model reads, passed on to every
   * layer of the provider (see `ExecuteOptions.maxResultChars`; default 100,000).
   */
  maxResultChars?: number;
  /**
   * Timeouts for some tools, keyed by the names the model is shown, laid
   * over `timeoutMs`, `resetTimeoutOnProgress` and `maxTotalTimeoutMs`
   * (which this adapter passes on with every batch: see
   * `ExecuteOptions.toolTimeouts` and docs/llm-bridge.md, "Long calls").
   */
  toolTimeouts?: Record<string, CallTimeouts>;
  /**
   * What becomes of the images and audio the tools return (see
   * `ExecuteOptions.media`): `'inline'` (the default here) hands them to
   * the model beside the text, `'text'` names them in the text only.
   */
  media?: 'inline' | 'text';
  /** How much media one batch carries, and which MIME types (see `ExecuteOptions.mediaLimits`; default 10 items, 15 MiB, web images, WAV and MP3). */
  mediaLimits?: MediaLimits;
}

/** What a tool's `execute` resolves to: the answer `executeToolCalls` gives, as a value. */
export interface AiSdkToolOutput {
  /** The text the model reads. */
  text: string;
  /** True when the call failed: the model then reads `text` as the tool's error result (`error-text`). */
  isError: boolean;
  /** The tool's `structuredContent`, when it gave one: for the application, as the model reads `text`. */
  structuredContent?: unknown;
  /** The images and audio handed to the model after `text` (`media: 'inline'`, the default). */
  media?: ToolMedia[];
}

/**
 * Any `ToolProvider` (a client, a `Registry`, a `Policy` over `Leases`…) as an
 * AI SDK `ToolSet`, for `generateText`, `streamText` or an `Agent`.
 *
 * Each tool is a dynamic tool with the provider's JSON schema. Its `execute`
 * runs through the provider, so everything the stack adds applies: a policy's
 * questions and denials, leases, progress under the model's call id. The
 * calls of one model turn are gathered back into one batch for the
 * provider's scheduler (serial unless all are read-only and idempotent).
 * `execute` never throws: it resolves an {@link AiSdkToolOutput}, and
 * `toModelOutput` gives the model exactly the text `executeToolCalls` gives
 * (with the result's images and audio after it, as `image-data` and
 * `file-data` parts of a `content` output, under `options.media`), a failure (a denial, a tool's `isError`, a dead server) as an `error-text`
 * result the model can react to, so the loop goes on. The AI SDK's abort
 * signal cancels the calls in flight.
 *
 * Needs the `ai` package (v6 or v7), an optional peer dependency of rxmcp,
 * loaded on the first call.
 *
 * @throws McpClientError (as a rejection) saying to install `ai` when it is not installed; when `options.tools` names a tool the provider does not offer, `options.maxResultChars` is no budget, a timeout is no number of milliseconds, or `options.media` or `options.mediaLimits` cannot be read.
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { aiSdkTools } from 'rxmcp/ai-sdk';
 *
 * const { text } = await generateText({ model, prompt, tools: await aiSdkTools(policy), stopWhen: stepCountIs(8) });
 * ```
 */
export async function aiSdkTools(provider: ToolProvider, options: AiSdkToolsOptions = {}): Promise<ToolSet> {
  const { dynamicTool, jsonSchema } = await loadOptionalPeer('rxmcp/ai-sdk', 'ai', () => import('ai'));
  const maxResultChars = resultBudgetOf(options);
  const timeouts = batchTimeoutsOf(options);
  const declarations = await pickTools(provider, options.tools, options.names);
  const gatherer = new CallGatherer(provider, {
    maxResultChars,
    ...timeouts,
    media: mediaModeOf({ media: options.media ?? 'inline' }),
    mediaLimits: { ...mediaLimitsOf(options) },
    ...(options.names === undefined ? {} : { names: options.names }),
  });
  const tools: ToolSet = {};
  for (const { function: fn } of declarations) {
    tools[fn.name] = dynamicTool({
      ...(fn.description === undefined ? {} : { description: fn.description }),
      // No validate: the provider checks arguments itself, so the model reads the same complaint either way.
      inputSchema: jsonSchema(fn.parameters as JSONSchema7),
      execute: async (input, { toolCallId, abortSignal }) => toOutput(await gatherer.run(toCall(toolCallId, fn.name, input), abortSignal)),
      toModelOutput: ({ output }) => {
        const { text, isError, media } = output as AiSdkToolOutput;
        if (isError) return { type: 'error-text', value: text };
        if (!media || media.length === 0) return { type: 'text', value: text };
        return {
          type: 'content',
          value: [
            { type: 'text', text },
            // Images as image data; audio as file data, which providers that take audio read.
            ...media.map(({ type, mimeType, data }) => (type === 'image' ? { type: 'image-data' as const, data, mediaType: mimeType } : { type: 'file-data' as const, data, mediaType: mimeType })),
          ],
        };
      },
    });
  }
  return tools;
}

function toCall(id: string, name: string, input: unknown): LlmToolCall {
  // The AI SDK hands over parsed JSON; a non-object is left for the bridge to refuse in its own words.
  const args = typeof input === 'object' && input !== null ? input : JSON.stringify(input ?? {});
  return { id, type: 'function', function: { name, arguments: args } };
}

function toOutput(message: ToolMessage): AiSdkToolOutput {
  const output: AiSdkToolOutput = { text: message.content, isError: message.is_error };
  if (message.structured_content !== undefined) output.structuredContent = message.structured_content;
  if (message.media !== undefined) output.media = message.media;
  return output;
}
