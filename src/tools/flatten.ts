import type { ContentBlock } from '../protocol/types.js';
import { cutLines } from './result-budget.js';

/**
 * The text a model reads for a tool's content blocks, one block per line.
 * Binary payloads (images, audio, blobs) are named with their type and size,
 * never inlined: base64 in a transcript costs tokens and tells a model
 * nothing it can act on. Local and remote tools go through this one function,
 * which is what keeps their bridge output identical.
 *
 * Only strings, numbers and booleans a block holds are written out: an
 * object or array a server put where a string belongs is left out, since
 * turning it into text could walk a value nested too deep for the call stack.
 *
 * With `maxChars`, text past it is cut to its head and tail around a line
 * saying how many characters were left out (characters as JavaScript counts
 * them: UTF-16 code units). A result that fits is joined as it always was.
 */
export function flattenContent(content: readonly ContentBlock[], maxChars = Infinity): string {
  const lines = content.map(flattenBlock);
  let total = Math.max(0, lines.length - 1);
  for (const line of lines) total += line.length;
  return total <= maxChars ? lines.join('\n') : cutLines(lines, total, maxChars);
}

function flattenBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio':
      return `[${block.type}: ${text(block.mimeType, 'unknown type')}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${text(block.uri, 'undefined')}${typeof block.name === 'string' ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return resource.text;
      return `[resource: ${text(resource.uri, 'undefined')}, ${text(resource.mimeType, 'unknown type')}, ${base64Bytes(resource.blob)} bytes]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

// A member as text: a string or a plain number or boolean as it reads; anything else is `otherwise`.
function text(value: unknown, otherwise: string): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : otherwise;
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
