/**
 * JSON with comments and trailing commas, as VS Code and Cursor let people
 * write their `mcp.json`, turned into plain JSON: comments become blanks (so
 * positions in parse errors still match) and a comma before `}` or `]` is
 * dropped. Strings are copied untouched; plain JSON passes unchanged. Two
 * linear passes, no recursion.
 */
export function stripJsonComments(text: string): string {
  return dropTrailingCommas(blankComments(text));
}

function blankComments(text: string): string {
  const out: string[] = [];
  let start = 0;
  let n = 0;
  while (n < text.length) {
    const c = text[n];
    if (c === '"') {
      n = afterString(text, n);
    } else if (c === '/' && (text[n + 1] === '/' || text[n + 1] === '*')) {
      const line = text[n + 1] === '/';
      const end = line ? text.indexOf('\n', n) : text.indexOf('*/', n + 2);
      const stop = end === -1 ? text.length : line ? end : end + 2;
      out.push(text.slice(start, n), text.slice(n, stop).replace(/[^\n]/g, ' '));
      start = n = stop;
    } else {
      n++;
    }
  }
  out.push(text.slice(start));
  return out.join('');
}

function dropTrailingCommas(text: string): string {
  const out: string[] = [];
  let start = 0;
  let comma = -1;
  let n = 0;
  while (n < text.length) {
    const c = text[n] as string;
    if (c === '"') {
      comma = -1;
      n = afterString(text, n);
      continue;
    }
    if (c === ',') comma = n;
    else if ((c === '}' || c === ']') && comma !== -1) {
      out.push(text.slice(start, comma), ' ');
      start = comma + 1;
      comma = -1;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') comma = -1;
    n++;
  }
  out.push(text.slice(start));
  return out.join('');
}

/** The index just past the string that opens at `n`. */
function afterString(text: string, n: number): number {
  let i = n + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
