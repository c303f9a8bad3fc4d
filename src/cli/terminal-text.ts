// What a server or a model wrote must not drive the terminal that shows it.
// C0 controls and DEL carry ESC sequences (OSC 52 writes the clipboard, OSC 0
// the window title, OSC 8 makes links, CSI moves the cursor over text already
// shown); C1 controls are the same commands in one character (U+009B is CSI);
// format characters (Cf: bidi overrides and isolates, zero-width spaces and
// joiners, BOM, tag characters, and the whole tag block, its unassigned
// U+E0000 too) reorder or hide what is read; the line and paragraph
// separators break lines where none is seen; a lone surrogate cannot be
// encoded and turns into U+FFFD, hiding what it was.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u{e0000}-\u{e007f}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u{e0000}-\u{e007f}]/gu;
// The same, but newline, tab and a CR that ends a line (CRLF) go through.
const UNSAFE_IN_BLOCK = /(?!\r\n|\n|\t)[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u{e0000}-\u{e007f}]/u;
const UNSAFE_IN_BLOCK_ALL = /(?!\r\n|\n|\t)[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u{e0000}-\u{e007f}]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The visible spelling of one unsafe character: `\n`, `\x1b`, `\u202e`, `\u{e0041}`. */
function visible(character: string): string {
  const short = SHORT[character];
  if (short !== undefined) return short;
  const code = character.codePointAt(0) as number;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * Text from a server or a model, made safe to show in a terminal as a block:
 * every control character (C0 but newline, tab and the CR of a CRLF; DEL;
 * C1), every format character (Unicode category Cf: bidi controls, zero-width
 * characters, BOM, tag characters), U+2028/U+2029 and every lone surrogate is
 * written as a visible escape such as `\x1b` or `\u202e`. Backslashes are
 * left alone, so `\x1b` typed by the server reads the same as an escaped ESC:
 * what matters is that neither reaches the terminal as a command.
 */
export function terminalText(text: string): string {
  return UNSAFE_IN_BLOCK.test(text) ? text.replace(UNSAFE_IN_BLOCK_ALL, visible) : text;
}

/**
 * Like {@link terminalText}, for text that must stay on one line (a name, a
 * status, a column of a listing): newline, CR and tab are escaped too.
 */
export function terminalLine(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, visible) : text;
}


// How much of an error message the CLI shows: a server chooses the words of
// its errors, and a line of a megabyte scrolls everything else away.
const MESSAGE_CHARS = 2000;

/**
 * An error message for the terminal: {@link terminalText}, cut after 2,000
 * characters with a note of how many were left out.
 */
export function terminalMessage(text: string): string {
  if (text.length <= MESSAGE_CHARS) return terminalText(text);
  // Never between the halves of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text.charAt(MESSAGE_CHARS - 1)) ? MESSAGE_CHARS - 1 : MESSAGE_CHARS;
  return `${terminalText(text.slice(0, end))}… (${text.length - end} more characters)`;
}
