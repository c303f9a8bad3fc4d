// JSON.parse says where JSON breaks in words that change with the V8
// version (Node 20 quotes the whole input and gives no position for a text
// that ends early; Node 22 gives both), so the command line finds the place
// itself: a scan that follows the JSON grammar without recursion (a deep
// text is a loop, not a deep stack) and stops at the first character that
// cannot come next.

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]{4}$/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Where a text stops being JSON, and what could have come there. */
interface Break {
  at: number;
  expected: string;
}

// What the scan waits for next: a value (in an array after a comma, or at
// the top), a value or `]` (just after `[`), a key or `}` (just after `{`),
// a key (after a comma in an object), a colon, or what follows a value.
type Want = 'value' | 'value-or-close' | 'key-or-close' | 'key' | 'colon' | 'after';

/**
 * Where `text` stops being JSON, as one phrase for a message: `at line 1,
 * column 6 (character 6): expected a value, found the end of the text`.
 * Lines and columns count from 1, characters in UTF-16 units from 1.
 * `undefined` when the text is JSON.
 */
export function jsonSyntaxError(text: string): string | undefined {
  const found = breakIn(text);
  if (found === undefined) return undefined;
  const before = text.slice(0, found.at);
  const line = before.split('\n').length;
  const column = found.at - before.lastIndexOf('\n');
  return `at line ${line}, column ${column} (character ${found.at + 1}): expected ${found.expected}, found ${shown(text, found.at)}`;
}

function shown(text: string, at: number): string {
  if (at >= text.length) return 'the end of the text';
  const character = String.fromCodePoint(text.codePointAt(at) as number);
  return JSON.stringify(character);
}

function breakIn(text: string): Break | undefined {
  // The containers open around the scan: true for an object, false for an array.
  const open: boolean[] = [];
  let want: Want = 'value';
  let i = 0;
  for (;;) {
    while (i < text.length && WHITESPACE.has(text.charAt(i))) i++;
    const c = text.charAt(i);
    const inObject = open[open.length - 1] === true;
    if (want === 'after') {
      if (open.length === 0) return i < text.length ? { at: i, expected: 'the end of the JSON' } : undefined;
      if (c === ',') {
        want = inObject ? 'key' : 'value';
        i++;
      } else if (c === (inObject ? '}' : ']')) {
        open.pop();
        i++;
      } else {
        return { at: i, expected: inObject ? '"," or "}"' : '"," or "]"' };
      }
      continue;
    }
    if (want === 'colon') {
      if (c !== ':') return { at: i, expected: '":"' };
      want = 'value';
      i++;
      continue;
    }
    if (want === 'key' || want === 'key-or-close') {
      if (c === '}' && want === 'key-or-close') {
        open.pop();
        want = 'after';
        i++;
        continue;
      }
      if (c !== '"') return { at: i, expected: want === 'key' ? 'a key in double quotes' : 'a key in double quotes or "}"' };
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      want = 'colon';
      continue;
    }
    // A value (or, just after "[", the "]" of an empty array).
    if (c === ']' && want === 'value-or-close') {
      open.pop();
      want = 'after';
      i++;
      continue;
    }
    const expected = want === 'value-or-close' ? 'a value or "]"' : 'a value';
    if (c === '{' || c === '[') {
      open.push(c === '{');
      want = c === '{' ? 'key-or-close' : 'value-or-close';
      i++;
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text);
      if (number === null) return { at: i + 1, expected: 'a digit' };
      i += number[0].length;
      // "1." or "1e" stops at the part that wants its digits.
      const next = text.charAt(i);
      if (next === '.' || next === 'e' || next === 'E') return { at: i + 1 + (/[+-]/.test(text.charAt(i + 1)) ? 1 : 0), expected: 'a digit' };
    } else {
      const word = ['true', 'false', 'null'].find((literal) => literal.startsWith(c) && c !== '');
      if (word === undefined) return { at: i, expected };
      for (let k = 0; k < word.length; k++) if (text.charAt(i + k) !== word.charAt(k)) return { at: i + k, expected: `${JSON.stringify(word)}` };
      i += word.length;
    }
    want = 'after';
  }
}

// Just past the string that opens at `start`, or where it breaks.
function stringEnd(text: string, start: number): number | Break {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return { at: i, expected: 'a closing \'"\'' };
    const c = text.charAt(i);
    if (c === '"') return i + 1;
    if (c < ' ') return { at: i, expected: 'a character that is not a control character (a newline or tab in a string is written \\n or \\t)' };
    if (c === '\\') {
      const escaped = text.charAt(i + 1);
      if (escaped === 'u') {
        if (!HEX.test(text.slice(i + 2, i + 6))) return { at: i + 2, expected: 'four hexadecimal digits after \\u' };
        i += 6;
        continue;
      }
      if (!ESCAPES.has(escaped)) return { at: i + 1, expected: 'an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u)' };
      i += 2;
      continue;
    }
    i++;
  }
}
