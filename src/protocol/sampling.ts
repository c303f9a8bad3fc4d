// The shapes of a `sampling/createMessage` question and its answer, with the
// tools a server may offer the model (SEP-1577, 2025-11-25 and 2026-07-28:
// the same in both eras). They describe what an `onSample` hook is given
// once the client has checked the request (see sampling-checks.ts), and what
// it may answer.

/** Who speaks in a sampling message. */
export type SamplingRole = 'user' | 'assistant';

/** Text for or from the model. */
export interface SamplingTextContent {
  type: 'text';
  text: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** An image for or from the model, base64 in `data`. */
export interface SamplingImageContent {
  type: 'image';
  /** Base64-encoded image bytes. */
  data: string;
  /** `image/png`, `image/jpeg`, … */
  mimeType: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** Audio for or from the model, base64 in `data`. */
export interface SamplingAudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The model asks to call one of the offered tools (assistant messages only). */
export interface ToolUseContent {
  type: 'tool_use';
  /** Matches the `toolUseId` of the result that answers it. */
  id: string;
  /** The name of one of the request's `tools`. */
  name: string;
  /** The arguments, meant to fit the tool's `inputSchema`. */
  input: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The outcome of a tool use, given back to the model (user messages only, and nothing else in them). */
export interface ToolResultContent {
  type: 'tool_result';
  /** The `id` of the tool use this answers. */
  toolUseId: string;
  /** As `CallToolResult.content`: text, images, audio, resource links, embedded resources. */
  content: Array<Record<string, unknown> & { type: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** One block of a sampling message. */
export type SamplingContent = SamplingTextContent | SamplingImageContent | SamplingAudioContent | ToolUseContent | ToolResultContent;

/** A message of the conversation the server wants continued. */
export interface SamplingMessage {
  role: SamplingRole;
  content: SamplingContent | SamplingContent[];
  _meta?: Record<string, unknown>;
}

/** A tool the server offers the model during sampling: the shape of a `tools/list` tool. */
export interface SamplingTool {
  name: string;
  title?: string;
  description?: string;
  /** A JSON Schema object for the tool's arguments. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** How the model may use the tools: `auto` (the default), `required` (at least one), `none`. */
export interface ToolChoice {
  mode?: 'auto' | 'required' | 'none';
}

/** Hints for picking a model; advisory only. */
export interface ModelPreferences {
  hints?: Array<{ name?: string }>;
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/**
 * The params of `sampling/createMessage`, as an `onSample` hook receives
 * them: `question.params as CreateMessageParams` is sound, because the
 * client checked them first (tools and `toolChoice` only when the client
 * declared `sampling.tools`, every count and length bounded).
 */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  /** The most tokens the server wants sampled. */
  maxTokens: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  /** Tools the model may call (with `sampleWithTools: true` only). */
  tools?: SamplingTool[];
  toolChoice?: ToolChoice;
  _meta?: Record<string, unknown>;
}

/** The content a model's answer may hold: no tool results, which only a user gives. */
export type CreateMessageContent = SamplingTextContent | SamplingImageContent | SamplingAudioContent | ToolUseContent;

/**
 * What `onSample` answers: the model's message. `tool_use` content only when
 * the request offered tools (and not with `toolChoice.mode: 'none'`), naming
 * one of them; `stopReason: 'toolUse'` then.
 */
export interface CreateMessageResult {
  /** `assistant`, as a model speaks. */
  role: SamplingRole;
  content: CreateMessageContent | CreateMessageContent[];
  /** The name of the model that answered. */
  model: string;
  /** `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or a vendor's own reason. */
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});
  _meta?: Record<string, unknown>;
}
