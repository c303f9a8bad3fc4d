// rxmcp/sampling: an `onSample` hook in a few lines with any model API. Each
// pair turns a `sampling/createMessage` request (tools and tool results
// included, SEP-1577) into the request body of one vendor's API, and that
// vendor's answer back into a `CreateMessageResult`. Pure functions over
// JSON: no vendor SDK is imported, and none of the client is loaded.

export { openAIChatToSamplingResult, samplingToOpenAIChat } from './openai-chat.js';
export type { OpenAIChatSamplingRequest, SamplingRequestOptions } from './openai-chat.js';
export { openAIResponsesToSamplingResult, samplingToOpenAIResponses } from './openai-responses.js';
export type { OpenAIResponsesSamplingRequest } from './openai-responses.js';
export { anthropicToSamplingResult, samplingToAnthropic } from './anthropic-messages.js';
export type { AnthropicSamplingRequest } from './anthropic-messages.js';
export { geminiToSamplingResult, samplingToGemini } from './gemini.js';
export type { GeminiSamplingRequest } from './gemini.js';
export type {
  CreateMessageContent,
  CreateMessageParams,
  CreateMessageResult,
  SamplingContent,
  SamplingMessage,
  SamplingTool,
  ToolChoice,
  ToolResultContent,
  ToolUseContent,
} from '../../protocol/sampling.js';
