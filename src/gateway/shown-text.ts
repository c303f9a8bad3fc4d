// What may not reach a person's view of a question as it is: controls (C0 but newline, tab and the CR of a
// CRLF; DEL; C1), format characters (bidi overrides and isolates, zero-width characters, tags), line and
// paragraph separators and lone surrogates. A terminal or a bidi-aware view would let them move the cursor
// over, reorder or hide the text around them: the line saying who asks, the locations a call touches.
const UNSAFE = /(?!\r\n|\n|\t)[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u{e0000}-\u{e007f}]/gu;

/**
 * Text for a question a host shows its person (a message, a choice's
 * label), with each character that could move, reorder or hide what is
 * shown written as the escape that names it (`\r`, `\x1b`, `\u202e`,
 * `\u{e0041}`); newline, tab and CRLF stay.
 */
export function spelledOut(text: string): string {
  return text.replace(UNSAFE, visible);
}

function visible(character: string): string {
  if (character === '\r') return '\\r';
  const code = character.codePointAt(0) as number;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}
