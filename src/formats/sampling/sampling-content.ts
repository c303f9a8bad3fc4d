// What every vendor translation of a sampling request shares: reading a
// message's blocks, the text of a tool result, data URLs, and reading the
// arguments a model wrote as JSON text. The vendor's answer is untrusted (a
// model wrote it): only own keys are read and a malformed tool call throws,
// which declines the sampling rather than running a tool on a guess.
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { CreateMessageContent, SamplingContent, SamplingMessage, ToolResultContent, ToolUseContent } from '../../protocol/sampling.js';
import { isObject } from '../../util/values.js';

/** A message's content as a list, whether it came as one block or many. */
export function blocksOf(message: SamplingMessage): SamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** `data:` URL of an image or audio block, as the OpenAI APIs take images. */
export function dataUrl(block: { data: string; mimeType: string }): string {
  return `data:${block.mimeType};base64,${block.data}`;
}

/**
 * A tool result as text, for vendors whose tool answers are text only:
 * its text blocks, a line for anything else, or its `structuredContent`
 * as JSON when it has no content at all.
 */
export function toolResultText(result: ToolResultContent): string {
  const lines = result.content.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    if (block.type === 'resource_link' && typeof block.uri === 'string') return `[resource ${block.uri}]`;
    if (block.type === 'resource' && isObject(block.resource) && typeof block.resource.text === 'string') return block.resource.text;
    return `[${block.type}${typeof block.mimeType === 'string' ? ` ${block.mimeType}` : ''}]`;
  });
  if (lines.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return lines.join('\n');
}

/** A line standing for a block a vendor cannot take (audio where only images go, say). */
export function placeholder(block: { type: string; mimeType?: string }): string {
  return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''} left out: this model API does not take it here]`;
}

/**
 * The arguments of a model's tool call, written as JSON text.
 *
 * @throws McpClientError when they are not a JSON object.
 */
export function parseArguments(text: unknown, name: string): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    throw new McpClientError(`the model called ${JSON.stringify(name.slice(0, 128))} with arguments that are not JSON`);
  }
  if (!isObject(value)) throw new McpClientError(`the model called ${JSON.stringify(name.slice(0, 128))} with arguments that are not a JSON object`);
  return value;
}

/** A tool use block, checked as far as the answer check will check it. */
export function toolUse(id: unknown, name: unknown, input: Record<string, unknown>): ToolUseContent {
  if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') {
    throw new McpClientError('the model made a tool call without an id or a name');
  }
  return { type: 'tool_use', id, name, input };
}

/** The content of a result: one block alone, several as a list, an empty text when the model said nothing. */
export function contentOf(blocks: CreateMessageContent[]): CreateMessageContent | CreateMessageContent[] {
  if (blocks.length === 0) return { type: 'text', text: '' };
  return blocks.length === 1 ? (blocks[0] as CreateMessageContent) : blocks;
}

/** An own member of a vendor's JSON, whatever its prototype says. */
export function member(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The vendor's answer must be an object. */
export function checkResponse(response: unknown, vendor: string): Record<string, unknown> {
  if (!isObject(response)) throw new McpClientError(`the ${vendor} response is not an object`);
  return response;
}

/**
 * A vendor's stop reason in MCP's words, by a table of the ones MCP names;
 * any other string is kept as it came (the spec leaves `stopReason` open),
 * cut to 128 characters.
 */
export function reasonOf(table: Readonly<Record<string, string>>, reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  return Object.hasOwn(table, reason) ? table[reason] : reason.slice(0, 128);
}
