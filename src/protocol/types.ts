// The result types rxmcp hands to callers. They follow the 2026-07-28 schema
// (shared/spec) and hold the members both eras share; servers may send more,
// and whatever else they send is kept.

import type { Icon } from './icons.js';

/** Any JSON object. */
export type JsonObject = Record<string, unknown>;

/** The name and version an implementation reports about itself. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  /** Checked by the client: only `https:` and `data:` image icons are kept (see `protocol/icons.ts`). */
  icons?: Icon[];
  [key: string]: unknown;
}

/** What a server says it can do (`tools`, `resources`, `prompts`, `logging`, …). */
export type ServerCapabilities = JsonObject;

/** What this client says it can do. */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  roots?: { listChanged?: boolean; [key: string]: unknown };
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** A directory or file the client offers a server to work in: a `file://` URI, with an optional name to show. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

/** Which protocol era a server speaks: `modern` (2026-07-28, stateless) or `legacy` (the initialize handshake). */
export type Era = 'modern' | 'legacy';

/** How messages travel: a child process's stdio, Streamable HTTP, or the older HTTP+SSE (2024-11-05). */
export type Wire = 'stdio' | 'streamable-http' | 'sse';

/** What the era probe learned about a server. */
export interface ServerDescription {
  /** `modern` (per-request metadata) or `legacy` (initialize handshake). */
  era: Era;
  /** The version this connection speaks. */
  protocolVersion: string;
  /** Every version the server named; empty for a legacy server, or for a modern one that did not say. */
  supportedVersions: string[];
  /** The server's self-description; `undefined` when it gave none. */
  serverInfo: Implementation | undefined;
  /** What the server can do; `{}` when it did not say. */
  capabilities: ServerCapabilities;
  /** The server's advice to a model, if any. */
  instructions: string | undefined;
  /** The wire the connection travels on; absent for a transport of your own that does not say. */
  wire?: Wire;
}

/** Hints a server gives about a tool's behaviour. Hints, not guarantees. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A tool a server offers. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  /** Checked by the client: only `https:` and `data:` image icons are kept (see `protocol/icons.ts`). */
  icons?: Icon[];
  [key: string]: unknown;
}

/** A resource a server lists. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Checked by the client: only `https:` and `data:` image icons are kept (see `protocol/icons.ts`). */
  icons?: Icon[];
  [key: string]: unknown;
}

/** A family of resources named by a URI template (RFC 6570). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Checked by the client: only `https:` and `data:` image icons are kept (see `protocol/icons.ts`). */
  icons?: Icon[];
  [key: string]: unknown;
}

/** An argument a prompt takes. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

/** A prompt template a server offers. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /** Checked by the client: only `https:` and `data:` image icons are kept (see `protocol/icons.ts`). */
  icons?: Icon[];
  [key: string]: unknown;
}

/** One block of content: `text`, `image`, `audio`, `resource_link` or `resource`. */
export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** What a tool call produced. `isError: true` is the tool's own failure, returned as a value. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** One thing a resource URI resolved to: `text` or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}

/** What reading a resource produced. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  [key: string]: unknown;
}

/** One message of a rendered prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
  [key: string]: unknown;
}

/** A rendered prompt: a conversation ready to put in front of a model. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  [key: string]: unknown;
}

/** What `complete` asks completions for: a prompt's argument or a resource template's variable. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Completion candidates for an argument. */
export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  [key: string]: unknown;
}

/** The severity of a log message, least to most severe (RFC 5424). */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every log level, least to most severe: a message is sent when its level is at or after the one set. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A `notifications/progress` report. `total` and `message` are there only when the server sent them. */
export interface ProgressEvent {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** A progress report for a tool call the LLM bridge made, keyed by the model's tool-call id. */
export interface ToolProgress {
  toolCallId: string;
  progress: number;
  total?: number;
  message?: string;
}

/** A `notifications/message` log message. */
export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/**
 * Which change notifications `listen` asks for. Every field is optional; an
 * omitted one is not subscribed to.
 */
export interface ListenFilter {
  /** `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these resource URIs. */
  resourceSubscriptions?: string[];
}
