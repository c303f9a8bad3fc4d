import { McpClientError } from '../errors/mcp-client-error.js';

// JSON.stringify escapes C0 only; DEL, C1 and format characters (bidi
// overrides, zero-width characters, tag characters) and U+2028/9 would reach
// a terminal raw from `--json` output, so they are written as \u escapes too.
// (Lone surrogates JSON.stringify already escapes.)
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/gu;

// Past this depth a branch is written on one line: indenting it would cost
// output quadratic in the depth (100,000 levels, 2 spaces each, is 10^10
// characters), and nobody reads JSON that deep by eye.
const PRETTY_DEPTH = 64;

function unitEscape(character: string): string {
  let escaped = '';
  for (let i = 0; i < character.length; i++) escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
}

function quote(text: string): string {
  const json = JSON.stringify(text);
  return UNSAFE.test(json) ? json.replace(UNSAFE_ALL, unitEscape) : json;
}

// A step of the writer: text to write as it is, a value to write, or the end
// of a container (which leaves the ancestor set).
type Step = { text: string } | { value: unknown; depth: number } | { leave: object };

/**
 * Writes plain data (what `JSON.parse` yields, plus `undefined` members,
 * which are left out as `JSON.stringify` leaves them) as JSON, without
 * recursion: a value nested 100,000 levels deep is written whole, where
 * `JSON.stringify` throws a `RangeError`. The text parses back to the same
 * value; it is `JSON.stringify(value, null, indent)` except that DEL, C1,
 * format characters (Unicode Cf) and U+2028/9 are `\u` escapes too, and
 * that branches deeper than 64 levels are written on one line.
 *
 * @param indent spaces per level; 0 writes everything on one line.
 * @throws McpClientError on a cyclic value (never the case for parsed JSON).
 */
export function jsonText(value: unknown, indent = 2): string {
  const parts: string[] = [];
  const ancestors = new Set<object>();
  const steps: Step[] = [{ value, depth: 0 }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      parts.push(step.text);
      continue;
    }
    if ('leave' in step) {
      ancestors.delete(step.leave);
      continue;
    }
    const { value: current, depth } = step;
    if (typeof current === 'string') {
      parts.push(quote(current));
      continue;
    }
    if (typeof current !== 'object' || current === null) {
      // Numbers (NaN and infinities become null), booleans, null; what JSON
      // cannot hold (undefined, functions, symbols) is null here as in arrays.
      parts.push(typeof current === 'number' || typeof current === 'boolean' ? String(JSON.stringify(current)) : 'null');
      continue;
    }
    if (ancestors.has(current)) throw new McpClientError('cannot write a cyclic value as JSON');
    const array = Array.isArray(current);
    const entries: Array<[string | undefined, unknown]> = array
      ? Array.from(current as unknown[], (item) => [undefined, item])
      : Object.keys(current)
          .map((key): [string, unknown] => [key, (current as Record<string, unknown>)[key]])
          .filter(([, member]) => member !== undefined && typeof member !== 'function' && typeof member !== 'symbol');
    const [open, close] = array ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      parts.push(open + close);
      continue;
    }
    const pretty = indent > 0 && depth < PRETTY_DEPTH;
    const inner = pretty ? `\n${' '.repeat(indent * (depth + 1))}` : '';
    const colon = pretty ? ': ' : ':';
    ancestors.add(current);
    parts.push(open);
    steps.push({ leave: current }, { text: (pretty ? `\n${' '.repeat(indent * depth)}` : '') + close });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member] = entries[i] as [string | undefined, unknown];
      steps.push({ value: member, depth: depth + 1 }, { text: (i === 0 ? '' : ',') + inner + (key === undefined ? '' : quote(key) + colon) });
    }
  }
  return parts.join('');
}
