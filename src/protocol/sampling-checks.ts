// The checks a `sampling/createMessage` question passes before a hook sees
// it, and the checks a hook's answer passes before the server sees it. Both
// sides are untrusted: the request is a server's, the answer a model's (by
// way of the hook). Counts and lengths are bounded, only own keys are read,
// nothing recurses into the server's data (schemas are measured by
// JSON.stringify inside a try), and any doubt refuses.
import { quote } from '../util/quote.js';
import { isObject } from '../util/values.js';
import type { CreateMessageParams } from './sampling.js';

/** The bounds a sampling request is held to. */
export const SAMPLING_LIMITS = {
  /** Tools one request may offer (a hostile server's 10,000 are refused whole). */
  maxTools: 1_000,
  /** A tool's name, as `tools/list` names are bounded (1 to 128 characters). */
  maxToolNameChars: 128,
  /** A tool's title or description. */
  maxToolTextChars: 65_536,
  /** A tool's `inputSchema` (or `outputSchema`) written as JSON. */
  maxSchemaChars: 262_144,
  /** Messages in the conversation. */
  maxMessages: 10_000,
  /** Content blocks in one message, or in one tool result. */
  maxBlocks: 1_000,
  /** Stop sequences. */
  maxStopSequences: 64,
  /** A tool use's id. */
  maxIdChars: 512,
} as const;

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'tool_use', 'tool_result']);
const CHOICE_MODES = new Set(['auto', 'required', 'none']);

/** A request checked: the params to hand to the hook, or why it is refused. */
export type SamplingCheck = { ok: true; params: CreateMessageParams } | { ok: false; reason: string };

/** Whether a client's declared capabilities include `sampling.tools`. */
export function declaresSamplingTools(declared: Record<string, unknown> | undefined): boolean {
  const sampling = declared?.sampling;
  return isObject(sampling) && Object.hasOwn(sampling, 'tools') && sampling.tools !== undefined;
}

/**
 * Checks a `sampling/createMessage` request's params. `tools`, `toolChoice`
 * and tool content in the messages are refused unless `toolsDeclared` (the
 * client declared `sampling.tools`: 2025-11-25 client/sampling, "Tools in
 * Sampling"); with them, tools are bounded and the messages must pair each
 * tool use with its result as the spec's "Message Content Constraints" say.
 * The reasons are the `-32602` messages a 2025-11-25 server is sent.
 */
export function checkSamplingRequest(params: unknown, toolsDeclared: boolean): SamplingCheck {
  const refuse = (reason: string): SamplingCheck => ({ ok: false, reason });
  if (!isObject(params)) return refuse('sampling/createMessage needs params');
  const own = (key: string): unknown => (Object.hasOwn(params, key) ? params[key] : undefined);
  const messages = own('messages');
  if (!Array.isArray(messages)) return refuse('messages must be an array');
  if (messages.length > SAMPLING_LIMITS.maxMessages) return refuse(`too many messages (${messages.length}; at most ${SAMPLING_LIMITS.maxMessages})`);
  const maxTokens = own('maxTokens');
  if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 1) return refuse(`maxTokens must be a positive number; got ${quote(maxTokens)}`);
  const temperature = own('temperature');
  if (temperature !== undefined && (typeof temperature !== 'number' || !Number.isFinite(temperature))) return refuse('temperature must be a number');
  const systemPrompt = own('systemPrompt');
  if (systemPrompt !== undefined && typeof systemPrompt !== 'string') return refuse('systemPrompt must be a string');
  const stops = own('stopSequences');
  if (stops !== undefined && (!Array.isArray(stops) || stops.length > SAMPLING_LIMITS.maxStopSequences || !stops.every((stop) => typeof stop === 'string'))) {
    return refuse(`stopSequences must be at most ${SAMPLING_LIMITS.maxStopSequences} strings`);
  }

  const tools = own('tools');
  const toolChoice = own('toolChoice');
  const toolContent = messages.some((message) => blocksOf(message).some((block) => isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result')));
  if (!toolsDeclared && (tools !== undefined || toolChoice !== undefined || toolContent)) {
    return refuse('the client did not declare sampling.tools, so a sampling request may not carry tools, toolChoice or tool content');
  }
  if (tools !== undefined) {
    const toolsProblem = checkTools(tools);
    if (toolsProblem) return refuse(toolsProblem);
  }
  if (toolChoice !== undefined) {
    if (!isObject(toolChoice)) return refuse('toolChoice must be an object');
    const mode = Object.hasOwn(toolChoice, 'mode') ? toolChoice.mode : undefined;
    if (mode !== undefined && !(typeof mode === 'string' && CHOICE_MODES.has(mode))) return refuse(`toolChoice.mode must be auto, required or none; got ${quote(mode)}`);
  }
  for (const [index, message] of messages.entries()) {
    const problem = checkMessage(message, index);
    if (problem) return refuse(problem);
  }
  const pairing = checkPairing(messages as Array<Record<string, unknown>>);
  if (pairing) return refuse(pairing);
  return { ok: true, params: params as unknown as CreateMessageParams };
}

/**
 * Checks a hook's answer against the request it answers: `undefined` when
 * it may be sent, otherwise why not. Tool use only where tools were offered
 * and `toolChoice.mode` is not `none`, naming an offered tool; no tool
 * results (only a user gives those); `stopReason: 'toolUse'` only with a
 * tool use.
 */
export function checkSamplingResult(answer: Record<string, unknown>, params: Record<string, unknown>): string | undefined {
  const { role, model, stopReason } = answer;
  if (role !== 'assistant' && role !== 'user') return `role must be assistant (or user, as the schema allows); got ${quote(role)}`;
  if (typeof model !== 'string') return 'model must be a string';
  if (stopReason !== undefined && typeof stopReason !== 'string') return 'stopReason must be a string';
  const content = answer.content;
  const blocks = Array.isArray(content) ? content : [content];
  if (blocks.length === 0 || blocks.length > SAMPLING_LIMITS.maxBlocks) return `content must hold 1 to ${SAMPLING_LIMITS.maxBlocks} blocks`;
  const offered = new Set(Array.isArray(params.tools) ? params.tools.map((tool) => (isObject(tool) ? tool.name : undefined)) : []);
  const mode = isObject(params.toolChoice) ? params.toolChoice.mode : undefined;
  let used = false;
  for (const block of blocks) {
    if (!isObject(block)) return 'each content block must be an object';
    if (block.type === 'tool_result') return 'an answer cannot hold tool_result content';
    const problem = checkBlock(block, 'the answer');
    if (problem) return problem;
    if (block.type !== 'tool_use') continue;
    used = true;
    if (offered.size === 0) return 'the answer uses a tool, but the request offered none';
    if (mode === 'none') return "the answer uses a tool, but the request's toolChoice is none";
    if (!offered.has(block.name)) return `the answer uses ${quote(block.name)}, which the request did not offer`;
  }
  if (stopReason === 'toolUse' && !used) return 'stopReason is toolUse, but the answer uses no tool';
  return undefined;
}

function blocksOf(message: unknown): unknown[] {
  if (!isObject(message)) return [];
  const content = message.content;
  return Array.isArray(content) ? content : [content];
}

function checkTools(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return 'tools must be an array';
  if (tools.length > SAMPLING_LIMITS.maxTools) return `too many tools (${tools.length}; at most ${SAMPLING_LIMITS.maxTools})`;
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) return `tools[${index}] must be an object`;
    const { name, title, description, inputSchema, outputSchema } = tool;
    if (typeof name !== 'string' || name.length === 0 || name.length > SAMPLING_LIMITS.maxToolNameChars) {
      return `tools[${index}].name must be a string of 1 to ${SAMPLING_LIMITS.maxToolNameChars} characters`;
    }
    if (names.has(name)) return `tools name ${quote(name)} twice`;
    names.add(name);
    for (const [field, text] of [['title', title], ['description', description]] as const) {
      if (text !== undefined && (typeof text !== 'string' || text.length > SAMPLING_LIMITS.maxToolTextChars)) {
        return `tools[${index}].${field} must be a string of at most ${SAMPLING_LIMITS.maxToolTextChars} characters`;
      }
    }
    if (!isObject(inputSchema)) return `tools[${index}].inputSchema must be an object`;
    for (const [field, schema] of [['inputSchema', inputSchema], ['outputSchema', outputSchema]] as const) {
      if (schema !== undefined && !(isObject(schema) && jsonLength(schema) <= SAMPLING_LIMITS.maxSchemaChars)) {
        return `tools[${index}].${field} must be a JSON object of at most ${SAMPLING_LIMITS.maxSchemaChars} characters`;
      }
    }
  }
  return undefined;
}

function checkMessage(message: unknown, index: number): string | undefined {
  if (!isObject(message)) return `messages[${index}] must be an object`;
  if (message.role !== 'user' && message.role !== 'assistant') return `messages[${index}].role must be user or assistant`;
  const blocks = blocksOf(message);
  if (blocks.length > SAMPLING_LIMITS.maxBlocks) return `messages[${index}] holds too many content blocks`;
  for (const block of blocks) {
    if (!isObject(block)) return `messages[${index}] holds a content block that is not an object`;
    const problem = checkBlock(block, `messages[${index}]`);
    if (problem) return problem;
    if (block.type === 'tool_use' && message.role !== 'assistant') return `messages[${index}]: only the assistant uses tools`;
    if (block.type === 'tool_result' && message.role !== 'user') return `messages[${index}]: only the user gives tool results`;
  }
  // 2025-11-25 client/sampling, "Error Handling": "Tool results mixed with other content".
  if (blocks.some((block) => isObject(block) && block.type === 'tool_result') && !blocks.every((block) => isObject(block) && block.type === 'tool_result')) {
    return `Tool results mixed with other content (messages[${index}])`;
  }
  return undefined;
}

function checkBlock(block: Record<string, unknown>, where: string): string | undefined {
  const { type } = block;
  if (typeof type !== 'string' || !BLOCK_TYPES.has(type)) return `${where} holds content of an unknown type ${quote(type)}`;
  if (type === 'text' && typeof block.text !== 'string') return `${where}: text content needs text`;
  if ((type === 'image' || type === 'audio') && (typeof block.data !== 'string' || typeof block.mimeType !== 'string')) {
    return `${where}: ${type} content needs data and mimeType`;
  }
  if (type === 'tool_use') {
    if (typeof block.id !== 'string' || block.id.length === 0 || block.id.length > SAMPLING_LIMITS.maxIdChars) return `${where}: a tool use needs an id`;
    if (typeof block.name !== 'string' || block.name.length > SAMPLING_LIMITS.maxToolNameChars) return `${where}: a tool use needs a tool name`;
    if (!isObject(block.input)) return `${where}: a tool use's input must be an object`;
  }
  if (type === 'tool_result') {
    if (typeof block.toolUseId !== 'string') return `${where}: a tool result needs a toolUseId`;
    const inner = block.content;
    if (!Array.isArray(inner) || inner.length > SAMPLING_LIMITS.maxBlocks || !inner.every((item) => isObject(item) && typeof item.type === 'string')) {
      return `${where}: a tool result's content must be an array of content blocks`;
    }
  }
  return undefined;
}

// Every assistant message that uses tools is followed at once by a user
// message answering each of its uses, and every tool result answers a use
// of the message before it ("Tool Use and Result Balance").
function checkPairing(messages: Array<Record<string, unknown>>): string | undefined {
  const ids = (message: Record<string, unknown> | undefined, type: 'tool_use' | 'tool_result'): string[] =>
    blocksOf(message)
      .filter((block): block is Record<string, unknown> => isObject(block) && block.type === type)
      .map((block) => String(type === 'tool_use' ? block.id : block.toolUseId));
  for (const [index, message] of messages.entries()) {
    const results = ids(message, 'tool_result');
    if (results.length > 0) {
      const uses = new Set(ids(messages[index - 1], 'tool_use'));
      if (!results.every((id) => uses.has(id))) return `messages[${index}] answers a tool use the message before it did not make`;
    }
    const uses = ids(message, 'tool_use');
    if (uses.length === 0) continue;
    const answered = new Set(ids(messages[index + 1], 'tool_result'));
    // 2025-11-25 client/sampling, "Error Handling": "Tool result missing in request".
    if (!uses.every((id) => answered.has(id))) return `Tool result missing in request (after messages[${index}])`;
  }
  return undefined;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
