import type { ContentBlock } from '@langchain/core/messages';
import type { DynamicStructuredTool, ToolRunnableConfig } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import type { LlmToolCall, ToolProvider } from '../tools/bridge.js';
import { CallGatherer } from '../tools/call-gatherer.js';
import { pickTools } from '../tools/pick-tools.js';
import type { ToolNames } from '../tools/tool-names.js';
import { resultBudgetOf } from '../tools/result-budget.js';
import { batchTimeoutsOf, type CallTimeouts } from '../tools/call-timeouts.js';
import { type MediaLimits, mediaLimitsOf, mediaModeOf, type ToolMedia } from '../tools/tool-media.js';
import { loadOptionalPeer } from '../util/optional-peer.js';

/** Options of `langchainTools`. */
export interface LangchainToolsOptions extends CallTimeouts {
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

/**
 * Any `ToolProvider` (a client, a `Registry`, a `Policy` over `Leases`…) as
 * LangChain structured tools, for `model.bindTools(tools)` and a LangGraph
 * `ToolNode` (or `createReactAgent`, `createAgent`).
 *
 * Each tool carries the provider's JSON schema and runs through the
 * provider, so everything the stack adds applies: a policy's questions and
 * denials, leases, progress under the model's call id. The calls of one
 * model turn are gathered back into one batch for the provider's scheduler
 * (serial unless all are read-only and idempotent). Invoked with a tool call
 * (as a `ToolNode` does), a tool returns a `ToolMessage` whose content is the
 * text `executeToolCalls` gives (with the result's images and audio after it
 * as standard `image` and `audio` content blocks, under `options.media`),
 * `status: 'error'` when the call failed (a
 * denial, a tool's `isError`, a dead server) and the tool's
 * `structuredContent` as its `artifact`; invoked with bare arguments, it
 * returns that text. It never throws for a failed call, so the graph goes
 * on. The run's `signal` cancels the calls in flight.
 *
 * LangChain checks arguments against the schema before a call reaches the
 * provider; a mismatch is LangChain's own error.
 *
 * Needs `@langchain/core` (v1), an optional peer dependency of rxmcp,
 * loaded on the first call.
 *
 * @throws McpClientError (as a rejection) saying to install `@langchain/core` when it is not installed; when `options.tools` names a tool the provider does not offer, `options.maxResultChars` is no budget, a timeout is no number of milliseconds, or `options.media` or `options.mediaLimits` cannot be read.
 * @example
 * ```ts
 * import { ToolNode } from '@langchain/langgraph/prebuilt';
 * import { langchainTools } from 'rxmcp/langchain';
 *
 * const tools = await langchainTools(policy);
 * const model = chatModel.bindTools(tools);
 * const toolNode = new ToolNode(tools);
 * ```
 */
export async function langchainTools(provider: ToolProvider, options: LangchainToolsOptions = {}): Promise<DynamicStructuredTool[]> {
  const [{ ToolMessage }, { DynamicStructuredTool }] = await loadOptionalPeer('rxmcp/langchain', '@langchain/core', () =>
    Promise.all([import('@langchain/core/messages'), import('@langchain/core/tools')]),
  );
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
  let direct = 0;
  return declarations.map(
    ({ function: fn }) =>
      new DynamicStructuredTool({
        name: fn.name,
        description: fn.description ?? '',
        schema: fn.parameters as JSONSchema,
        func: async (input: unknown, _runManager, config?: ToolRunnableConfig) => {
          const toolCallId = config?.toolCall?.id;
          // The bridge answers by call id; a bare invocation has none, so it gets one of its own.
          const call: LlmToolCall = { id: toolCallId ?? `direct-${++direct}`, type: 'function', function: { name: fn.name, arguments: (input ?? {}) as object } };
          const answer = await gatherer.run(call, config?.signal);
          if (toolCallId === undefined) return answer.content;
          return new ToolMessage({
            content: withMedia(answer.content, answer.media),
            tool_call_id: toolCallId,
            name: fn.name,
            status: answer.is_error ? 'error' : 'success',
            ...(answer.structured_content === undefined ? {} : { artifact: answer.structured_content }),
          });
        },
      }),
  );
}

// The text alone when there is no media; else LangChain's standard content
// blocks: the text, then each image or clip as base64 with its MIME type.
function withMedia(text: string, media: readonly ToolMedia[] | undefined): string | Array<ContentBlock.Text | ContentBlock.Multimodal.Image | ContentBlock.Multimodal.Audio> {
  if (!media || media.length === 0) return text;
  return [
    { type: 'text', text },
    ...media.map(({ type, mimeType, data }) => (type === 'image' ? { type: 'image' as const, mimeType, data } : { type: 'audio' as const, mimeType, data })),
  ];
}
