import { classify, type JsonRpcMessage } from '../protocol/jsonrpc.js';

/** How much of a posted message the host reads. */
export interface PostedMessageLimits {
  /** The most characters the message may take as JSON text. */
  maxChars: number;
  /** The deepest nesting of objects and arrays. */
  maxDepth: number;
}

/** The limits `renderApp` reads a view's messages under: 4 MiB of JSON text, nesting 64 deep. */
export const DEFAULT_POSTED_LIMITS: PostedMessageLimits = { maxChars: 4 * 1024 * 1024, maxDepth: 64 };

/** A posted message read as JSON-RPC, or why it was not. */
export type PostedMessage = { ok: true; message: JsonRpcMessage } | { ok: false; reason: string };

/**
 * Reads what a view posted. `postMessage` carries a structured clone, not
 * text: it may hold cycles, shared subtrees, Maps, Dates or typed arrays, and
 * own `__proto__` keys. So the value is walked first, without recursion,
 * accepting only plain objects, arrays, strings, finite numbers, booleans and
 * null, within the limits, each object once (no cycle, no shared part), and
 * no `__proto__` key; then it is copied through
 * JSON (which also takes its measure) and classified as JSON-RPC.
 */
export function readPostedMessage(data: unknown, limits: PostedMessageLimits): PostedMessage {
  const problem = walk(data, limits);
  if (problem !== undefined) return { ok: false, reason: problem };
  const text = JSON.stringify(data);
  if (text.length > limits.maxChars) return { ok: false, reason: `larger than ${limits.maxChars} characters` };
  const classified = classify(JSON.parse(text));
  return classified.kind === 'invalid' ? { ok: false, reason: classified.reason } : { ok: true, message: classified.message };
}

// An object met twice (a cycle, or a subtree shared by two parents) is
// refused at once: JSON has no shared parts, and a clone of a few bytes (a
// chain of objects each holding the next twice) would otherwise cost the
// host the whole budget to walk, message after message.
function walk(root: unknown, limits: PostedMessageLimits): string | undefined {
  const stack: Array<[unknown, number]> = [[root, 0]];
  const seen = new Set<object>();
  let budget = limits.maxChars;
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    budget -= 1;
    if (typeof value === 'string') budget -= value.length;
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'holds a number JSON cannot carry';
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= limits.maxDepth) return `nested deeper than ${limits.maxDepth}`;
      if (seen.has(value)) return 'holds the same object twice (a cycle or a shared part, which JSON cannot carry)';
      seen.add(value);
      const proto = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value)) {
        if (proto !== Array.prototype) return 'holds an array from another realm';
        // Each element costs at least one: a sparse array (cloned in a few
        // bytes, whatever its length) is refused before its holes are walked.
        if (value.length > budget) return `larger than ${limits.maxChars} characters`;
        for (let i = 0; i < value.length; i++) stack.push([value[i], depth + 1]);
      } else if (proto === Object.prototype || proto === null) {
        const keys = Object.keys(value);
        if (keys.length > budget) return `larger than ${limits.maxChars} characters`;
        for (const key of keys) {
          if (key === '__proto__') return 'it holds a "__proto__" key';
          budget -= key.length;
          stack.push([(value as Record<string, unknown>)[key], depth + 1]);
        }
      } else {
        return 'holds something other than JSON (a Map, a Date, a typed array…)';
      }
    } else if (typeof value !== 'boolean' && value !== null && value !== undefined) {
      return `holds a ${typeof value}`;
    }
    if (budget < 0) return `larger than ${limits.maxChars} characters`;
  }
  return undefined;
}
