// rxmcp/protocol: the wire, for whoever writes a Transport of their own or
// reads raw messages (a logger, a proxy, a test double): JSON-RPC message
// types and helpers, the protocol's versions and error codes, what
// `limitLists` receives, the task wire format. A user of McpClient and the
// providers needs none of it but JsonRpcNotification (what `notifications$`
// and `listen` emit), which the root keeps; the root re-exports the other
// names it used to hold, deprecated, for one minor version. Everything here
// comes from src/protocol/ (below it only errors/ and util/), so this entry
// loads no transport, no client and nothing node-only.

export { classify, decodeLine, isAnswerTo, isErrorResponse, kindOf } from './jsonrpc.js';
export type {
  Classified,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  RequestId,
} from './jsonrpc.js';
export { buildNotification, cancelledNotification } from './request.js';
export { ErrorCode, LEGACY_VERSIONS, MODERN_VERSIONS } from './versions.js';
export type { ListLimits } from './list-walk.js';
export { isTaskHandle, readTask, TASKS_EXTENSION } from './tasks.js';
export type { WireTask } from './tasks.js';
// The shapes inside a hook's question and a URL elicitation error, for code
// that builds or forwards them (a gateway, a test double).
export type { AskingServer } from './input-request.js';
export type { RequiredElicitation } from '../errors/protocol-errors.js';
// A sampling question and its answer, tools included (SEP-1577): what an
// `onSample` hook is given (`question.params as CreateMessageParams`, sound
// once the client has checked it) and what it answers.
export type {
  CreateMessageContent,
  CreateMessageParams,
  CreateMessageResult,
  ModelPreferences,
  SamplingAudioContent,
  SamplingContent,
  SamplingImageContent,
  SamplingMessage,
  SamplingRole,
  SamplingTextContent,
  SamplingTool,
  ToolChoice,
  ToolResultContent,
  ToolUseContent,
} from './sampling.js';
export { SAMPLING_LIMITS } from './sampling-checks.js';
// An item's icons as the client keeps them, and the check each src passed.
export type { Icon } from './icons.js';
export { iconSrcProblem } from './icons.js';
