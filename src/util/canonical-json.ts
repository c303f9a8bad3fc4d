import { McpClientError } from '../errors/mcp-client-error.js';

// The text a fingerprint is taken of must tell apart everything a model or a
// host could read differently, and nothing else. So it is exact: strings go
// as JSON writes them (no unicode normalisation, no whitespace folding: NFC
// and NFD, or a trailing space, are different definitions), object keys in
// code-unit order (key order carries no meaning in JSON), and the rest as
// JSON writes values once parsed (1 and 1.0 are one number to every reader).

/** Why a value has no canonical text. */
export class UncanonicalError extends McpClientError {
  override name = 'UncanonicalError' as const;
}

type Frame = { kind: 'array'; items: unknown[]; next: number; depth: number } | { kind: 'object'; keys: string[]; values: Record<string, unknown>; next: number; depth: number };

/** How `canonicalJson` writes. */
export interface CanonicalJsonOptions {
  /** The longest text it may write (default: no limit). */
  maxChars?: number;
  /** Two spaces a level and a line per member, for a diff a person reads (default: compact). */
  pretty?: boolean;
}

/**
 * A value as canonical JSON (keys sorted by UTF-16 code units, own
 * enumerable keys only, `undefined` properties left out as JSON does),
 * compact or pretty-printed. Walked without recursion, so depth costs
 * memory, never the stack; the text is bounded by `maxChars`. Pretty text
 * grows with the square of the depth: give it a `maxChars`.
 *
 * @throws UncanonicalError for a value JSON cannot carry (a bigint, a
 * symbol, a function where a value is expected, a non-finite number) or a text longer than `maxChars`.
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const { maxChars = Infinity, pretty = false } = options;
  const indent = (depth: number): string => (pretty ? `\n${'  '.repeat(depth)}` : '');
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string): void => {
    length += text.length;
    if (length > maxChars) throw new UncanonicalError(`the definition is longer than ${maxChars} characters as canonical JSON`);
    parts.push(text);
  };
  const stack: Frame[] = [];
  // Writes one value: a scalar at once, a container as a frame to walk.
  const open = (item: unknown, depth: number): void => {
    if (item === null) return emit('null');
    switch (typeof item) {
      case 'string':
        return emit(JSON.stringify(item));
      case 'boolean':
        return emit(item ? 'true' : 'false');
      case 'number':
        if (!Number.isFinite(item)) throw new UncanonicalError('the definition holds a number JSON cannot carry');
        return emit(JSON.stringify(item));
      case 'object':
        if (Array.isArray(item)) {
          if (item.length === 0) return emit('[]');
          emit('[');
          stack.push({ kind: 'array', items: item, next: 0, depth: depth + 1 });
          return;
        } else {
          const values = item as Record<string, unknown>;
          const keys = Object.keys(values)
            .filter((key) => values[key] !== undefined)
            .sort(byCodeUnits);
          if (keys.length === 0) return emit('{}');
          emit('{');
          stack.push({ kind: 'object', keys, values, next: 0, depth: depth + 1 });
          return;
        }
      default:
        throw new UncanonicalError(`the definition holds a ${typeof item}, which JSON cannot carry`);
    }
  };
  open(value, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const count = frame.kind === 'array' ? frame.items.length : frame.keys.length;
    if (frame.next === count) {
      stack.pop();
      emit(`${indent(frame.depth - 1)}${frame.kind === 'array' ? ']' : '}'}`);
      continue;
    }
    const n = frame.next++;
    emit(`${n > 0 ? ',' : ''}${indent(frame.depth)}`);
    if (frame.kind === 'array') {
      // As JSON.stringify has it: a hole or an undefined item is null.
      const item = frame.items[n];
      open(item === undefined ? null : item, frame.depth);
    } else {
      const key = frame.keys[n] as string;
      emit(`${JSON.stringify(key)}:${pretty ? ' ' : ''}`);
      open(frame.values[key], frame.depth);
    }
  }
  return parts.join('');
}

// Plain `<` compares UTF-16 code units, the same in every engine and locale.
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
