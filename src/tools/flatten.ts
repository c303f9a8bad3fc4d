import type { ContentBlock } from '../protocol/types.js';
import { cutLines } from './result-budget.js';
import { base64Bytes, type MediaLedger, type ToolMedia } from './tool-media.js';

/**
 * The text a model reads for a tool's content blocks, one block per line.
 * Binary payloads (images, audio, blobs) are named with their type and size,
 * never written out: base64 as text costs tokens and tells a model nothing
 * it can act on (`flattenResult` hands images and audio over beside the
 * text instead). Local and remote tools go through this one function,
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
  return flattenResult(content, maxChars).text;
}

/**
 * The text a model reads for a tool's content blocks and, given a ledger
 * (`media: 'inline'`), the images and audio clips to hand it beside that
 * text: each one the ledger admits is attached and named on its own line as
 * attached; each one it refuses stays a line saying why it was left out.
 */
export function flattenResult(content: readonly ContentBlock[], maxChars = Infinity, ledger?: MediaLedger): { text: string; media: ToolMedia[] } {
  const media: ToolMedia[] = [];
  const lines = content.map((block) => flattenBlock(block, ledger, media));
  let total = Math.max(0, lines.length - 1);
  for (const line of lines) total += line.length;
  return { text: total <= maxChars ? lines.join('\n') : cutLines(lines, total, maxChars), media };
}

function flattenBlock(block: ContentBlock, ledger: MediaLedger | undefined, media: ToolMedia[]): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio': {
      const named = `${block.type}: ${text(block.mimeType, 'unknown type')}, ${base64Bytes(block.data)} bytes`;
      if (!ledger) return `[${named}]`;
      if (typeof block.mimeType !== 'string' || typeof block.data !== 'string') return `[${named}; not attached: it has no MIME type or no data]`;
      const verdict = ledger.admit(block.type, block.mimeType, block.data);
      if ('refusal' in verdict) return `[${named}; not attached: ${verdict.refusal}]`;
      media.push(verdict.media);
      return `[${named}; attached]`;
    }
    case 'resource_link':
      // Everything a model needs to ask for it again (resources/read takes the URI).
      return `[resource link: ${text(block.uri, 'undefined')}${described([block.name, block.mimeType])}]`;
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return resource.text;
      return `[resource: ${text(resource.uri, 'undefined')}, ${text(resource.mimeType, 'unknown type')}, ${base64Bytes(resource.blob)} bytes]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

// The strings among `parts`, in parentheses, or nothing when there are none.
function described(parts: readonly unknown[]): string {
  const kept = parts.filter((part): part is string => typeof part === 'string' && part !== '');
  return kept.length === 0 ? '' : ` (${kept.join(', ')})`;
}

// A member as text: a string or a plain number or boolean as it reads; anything else is `otherwise`.
function text(value: unknown, otherwise: string): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : otherwise;
}
