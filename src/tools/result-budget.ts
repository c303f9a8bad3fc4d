import { McpClientError } from '../errors/mcp-client-error.js';

/**
 * How many characters of one tool result a model reads by default: 100,000
 * (about 25,000 tokens). Ordinary results (a file, a page of search hits, a
 * JSON answer) stay whole well under it, while a 2 MB log or a dump cannot
 * fill a context window or pass a vendor's request limit. It is also where
 * coding agents already draw the line (Claude Code caps an MCP result at
 * 25,000 tokens).
 */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** The smallest budget there can be: room for the line saying what was cut, and some text either side of it. */
export const MIN_RESULT_CHARS = 100;

/**
 * The budget `options.maxResultChars` asks for, or the default.
 *
 * @throws McpClientError for anything but a whole number of at least {@link MIN_RESULT_CHARS}, or `Infinity`.
 */
export function resultBudgetOf(options: { maxResultChars?: unknown }): number {
  const value = options.maxResultChars;
  if (value === undefined) return DEFAULT_MAX_RESULT_CHARS;
  if (value === Infinity || (typeof value === 'number' && Number.isInteger(value) && value >= MIN_RESULT_CHARS)) return value;
  throw new McpClientError(
    `option maxResultChars must be a whole number of characters, ${MIN_RESULT_CHARS} or more, or Infinity; got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`,
  );
}

/** A text of at most `maxChars` characters: itself when it fits, else its head and tail around a line saying how much was left out. */
export function boundText(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : cutLines([text], text.length, maxChars);
}

/**
 * The lines, as if joined by `\n` (`total` characters in all, more than
 * `maxChars`), cut to their head and tail with a line between saying how
 * many characters were left out. The answer is never longer than
 * `maxChars`; only the lines it keeps are copied, so a huge result is never
 * joined first; a cut never splits a surrogate pair.
 */
export function cutLines(lines: readonly string[], total: number, maxChars: number): string {
  // The note is sized for the most it could say, so the answer fits whatever the head and tail turn out to be.
  const room = Math.max(0, maxChars - note(total, total).length);
  const head = headOf(lines, Math.ceil(room / 2));
  const tail = tailOf(lines, Math.floor(room / 2));
  return head + note(total - head.length - tail.length, total) + tail;
}

function note(omitted: number, total: number): string {
  return `\n[${omitted} of ${total} characters left out]\n`;
}

function headOf(lines: readonly string[], room: number): string {
  const kept: string[] = [];
  let left = room;
  for (const line of lines) {
    if (kept.length > 0) {
      if (left === 0) break;
      kept.push('\n');
      left -= 1;
    }
    if (line.length > left) {
      // A high surrogate at the end would lose its partner.
      const end = left > 0 && isHighSurrogate(line.charCodeAt(left - 1)) ? left - 1 : left;
      kept.push(line.slice(0, end));
      break;
    }
    kept.push(line);
    left -= line.length;
  }
  return kept.join('');
}

function tailOf(lines: readonly string[], room: number): string {
  const kept: string[] = [];
  let left = room;
  for (let n = lines.length - 1; n >= 0; n--) {
    const line = lines[n] as string;
    if (kept.length > 0) {
      if (left === 0) break;
      kept.push('\n');
      left -= 1;
    }
    if (line.length > left) {
      // A low surrogate at the start would have lost its partner.
      const start = line.length - left;
      kept.push(line.slice(start < line.length && isLowSurrogate(line.charCodeAt(start)) ? start + 1 : start));
      break;
    }
    kept.push(line);
    left -= line.length;
  }
  return kept.reverse().join('');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
