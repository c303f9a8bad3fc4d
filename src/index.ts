// The public surface of rxmcp, name by name. Browser-safe: nothing here
// imports a node-only module at load time (stdio loads child_process when it
// first starts a server).

export { McpClient } from './client/mcp-client.js';
export type { ConnectHttpOptions, ConnectionState, ConnectStdioOptions } from './client/mcp-client.js';
export type { ExecuteOptions, LlmTool, LlmToolCall, ToolMessage, ToolProvider } from './tools/bridge.js';
export type { MediaLimits, ToolMedia } from './tools/tool-media.js';
export { PORTABLE_TOOL_NAMES, portableToolNames, toolNames } from './tools/tool-names.js';
export type { ToolNameRule, ToolNames, ToolsForLlmOptions } from './tools/tool-names.js';
export { toolVisibility } from './tools/tool-visibility.js';
export type { ToolCaller, ToolVisibility } from './tools/tool-visibility.js';
export { executeOpenAIChatToolCalls, mediaMessagesForOpenAIChat, toolsForOpenAIChat } from './formats/openai-chat.js';
export type { OpenAIChatFunctionTool, OpenAIChatMediaMessage } from './formats/openai-chat.js';
export type { OpenAIToolsOptions } from './formats/openai-strict.js';
export { DEFAULT_MAX_RESULT_CHARS } from './tools/result-budget.js';
export { executeOpenAIResponsesToolCalls, toolsForOpenAIResponses } from './formats/openai-responses.js';
export type { OpenAIResponsesToolSearchTool, OpenAIResponsesToolsOptions } from './formats/openai-responses.js';
export type {
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
} from './formats/openai-responses.js';
export { executeAnthropicToolCalls, toolsForAnthropic } from './formats/anthropic-messages.js';
export type { AnthropicTool, AnthropicToolResultBlock, AnthropicToolUseBlock } from './formats/anthropic-messages.js';
export type { AnthropicToolSearchTool, AnthropicToolsOptions } from './formats/anthropic-messages.js';
export { executeGeminiToolCalls, toolsForGemini } from './formats/gemini.js';
export type {
  GeminiFunctionCallPart,
  GeminiFunctionDeclaration,
  GeminiFunctionResponsePart,
  GeminiFunctionTool,
} from './formats/gemini.js';
export { Toolkit } from './providers/toolkit.js';
export type { ToolkitCallContext, ToolkitHandler, ToolkitToolDefinition } from './providers/toolkit.js';
export { Registry } from './providers/registry.js';
export { Policy } from './providers/policy/policy.js';
export type {
  ElicitationQuestion,
  GrantRule,
  PermissionAnswer,
  PermissionQuestion,
  PolicyOptions,
  PolicyQuestion,
} from './providers/policy/policy.js';
export { Grants } from './providers/policy/grants.js';
export type { GrantsStore } from './providers/policy/grants-store.js';
export type { PolicyDecision, PolicyRule } from './providers/policy/rules.js';
export { CHECKS } from './providers/policy/commands/commands.js';
export { Reasons, REASON_PARAM } from './providers/reasons.js';
export { UnknownKeys } from './providers/unknown-keys.js';
export type { UnknownKeysWarning } from './providers/unknown-keys.js';
export { Pins } from './providers/pins/pins.js';
export type { DriftQuestion, PinReport, PinsOptions, PinStatus } from './providers/pins/pins.js';
export type { Pin, PinsStore } from './providers/pins/pins-store.js';
export type { PinnedDefinition } from './providers/pins/tool-fingerprint.js';
export { ToolSearch } from './providers/tool-search.js';
export type { SearchableTool, ToolSearchOptions, ToolSearchResult } from './providers/tool-search.js';
export { LeaseTable } from './providers/leases/lease-table.js';
export type { Lease, LeaseRefusal, LeaseStore } from './providers/leases/lease-store.js';
export { DEFAULT_ENFORCED_TOOLS, Leases } from './providers/leases/leases.js';
export type { LeasesOptions } from './providers/leases/leases.js';
export type { RegistryAddOptions, RegistryEntry, RegistryOptions } from './providers/registry.js';
export type { FromConfigOptions } from './providers/config-servers.js';
export type { ConfigServer, ServerClientOptions, ServerStatus } from './providers/config-server.js';
export { MemoryCatalogue } from './providers/memory-catalogue.js';
export type { MemoryCatalogueOptions } from './providers/memory-catalogue.js';
export type { CatalogueStore, StoredCatalogue } from './providers/catalogue-store.js';
export { normalizeServerConfig } from './config/normalize-server-config.js';
export type { ServerConfigOptions } from './config/normalize-server-config.js';
export { MAX_CONFIG_CHARS, parseServerConfig } from './config/parse-server-config.js';
export type { ParseServerConfigOptions } from './config/parse-server-config.js';
export { resolvePlaceholders } from './config/placeholders.js';
export type { ResolveOptions } from './config/placeholders.js';
export type { ConfigFormat, ConfigInput, ConfigWarning, HttpServerEntry, ServerConfig, ServerEntry, StdioServerEntry } from './config/server-config.js';
export { InputBroker } from './client/questions/input-broker.js';
export type { InputBrokerOptions, PendingQuestion } from './client/questions/input-broker.js';
export type { InputHook, InputHooks, InputRequest } from './protocol/input-request.js';
export type {
  CallOptions,
  CallToolAsTaskOptions,
  CallToolOptions,
  InputCallOptions,
  ClientOptions,
  CompleteOptions,
  ListOptions,
  McpClientOptions,
  ResumeTaskOptions,
} from './client/options.js';
export type { TracingOptions } from './client/tracing/tracing-options.js';
export type { Task, TaskEvent, TaskStatus } from './protocol/tasks.js';

export { StdioTransport } from './transport/stdio-transport.js';
export type { StdioTransportOptions } from './transport/stdio-transport.js';
export { RestartingTransport } from './transport/restarting-transport.js';
export type { RestartOptions } from './transport/restarting-transport.js';
export { HttpTransport } from './transport/http-transport.js';
export type { HttpTransportKind, HttpTransportOptions } from './transport/http-options.js';
export type { ReconnectOptions } from './transport/reconnect-backoff.js';
export type { FetchLike, FetchResponse } from './http/fetch-like.js';
export type { RequestFailure, Transport } from './transport/transport.js';
export type {
  AuthOptions,
  AuthorizeAnswer,
  AuthorizeRequest,
  AuthState,
  EnterpriseAuth,
  PendingSignIn,
  PrivateKeyJwt,
  ResumedSignIn,
  StoredTokens,
  TokenSource,
  TokenStore,
  WorkloadIdentityAuth,
} from './auth/auth-options.js';
export { LineFramer } from './transport/line-framer.js';

export { McpClientError } from './errors/mcp-client-error.js';
export { McpAuthError } from './errors/auth-errors.js';
export type { AuthStep } from './errors/auth-errors.js';
export { McpCancelledError, McpInputLoopExceededError, McpTimeoutError } from './errors/call-errors.js';
export { McpStoreError } from './errors/store-errors.js';
export { McpConfigError } from './errors/config-errors.js';
export type { ConfigPlace } from './errors/config-errors.js';
export { McpOutputSchemaError } from './errors/output-schema-errors.js';
export type { OutputSchemaProblem } from './errors/output-schema-errors.js';
export { McpTaskError } from './errors/task-errors.js';
export type { TaskEndReason } from './errors/task-errors.js';
export { McpProtocolError, McpUnsupportedVersionError, McpUrlElicitationRequiredError } from './errors/protocol-errors.js';
export { McpCapabilityError } from './errors/capability-errors.js';
export {
  McpHttpError,
  McpNetworkError,
  McpServerGoneError,
  McpSpawnFailedError,
  McpTransportClosedError,
} from './errors/transport-errors.js';

// `notifications$` and `listen` hand out JSON-RPC notifications: their type stays here.
export type { JsonRpcNotification } from './protocol/jsonrpc.js';
// The wire's names moved to rxmcp/protocol (transport authors and raw-message readers
// need them, a client's user does not). Kept here, deprecated, for one minor version;
// a TSDoc tag on each specifier is what editors and linters see.
export {
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  classify,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  decodeLine,
} from './protocol/jsonrpc.js';
export type {
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  Classified,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  JsonRpcErrorResponse,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  JsonRpcMessage,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  JsonRpcRequest,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  JsonRpcResponse,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  JsonRpcResultResponse,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  RequestId,
} from './protocol/jsonrpc.js';
export {
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  LEGACY_VERSIONS,
  /** @deprecated Import from 'rxmcp/protocol'; the root re-export goes in the next minor version. */
  MODERN_VERSIONS,
} from './protocol/versions.js';
export type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  ContentBlock,
  Era,
  GetPromptResult,
  Implementation,
  JsonObject,
  ListenFilter,
  LoggingLevel,
  LogMessage,
  ProgressEvent,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Root,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerCapabilities,
  ServerDescription,
  Tool,
  ToolAnnotations,
  ToolProgress,
  Wire,
} from './protocol/types.js';
export { VERSION } from './version.js';
