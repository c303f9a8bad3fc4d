// A small line diff for a human deciding whether a changed tool may be used:
// the changed lines of two canonical definitions, with a little context,
// bounded in size. Characters that show as nothing or as something else
// (format characters, combining marks, unusual spaces) are written as
// \u{…}, so that "é" composed and "é" decomposed, or a hidden bidi
// override, do not look alike in a diff that says they differ.

/** The most lines a diff shows; the rest are counted. */
const MAX_LINES = 200;
/** Longer lines are compared and shown in pieces of this many characters, so that a change deep in a long description shows. */
const PIECE_CHARS = 160;
/** Lines of context around each change. */
const CONTEXT = 2;
/** Above this many cells, the middle is shown as all removed then all added rather than aligned. */
const MAX_CELLS = 1_000_000;

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{M}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;

type Op = [' ' | '-' | '+', string];

/**
 * The lines of `after` against `before`: `- ` removed, `+ ` added, `  `
 * context, `…` for lines left out. Empty when the texts are equal.
 */
export function lineDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = pieces(before);
  const b = pieces(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push([' ', a[i] as string]);
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  for (let i = endA; i < a.length; i++) ops.push([' ', a[i] as string]);
  return render(ops);
}

// Aligns the changed middle by longest common subsequence, when small enough.
function middle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS) return [...a.map((line): Op => ['-', line]), ...b.map((line): Op => ['+', line])];
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? (table[(i + 1) * width + j + 1] as number) + 1 : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push([' ', a[i++] as string]);
      j++;
    } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) {
      ops.push(['-', a[i++] as string]);
    } else {
      ops.push(['+', b[j++] as string]);
    }
  }
  while (i < a.length) ops.push(['-', a[i++] as string]);
  while (j < b.length) ops.push(['+', b[j++] as string]);
  return ops;
}

// Keeps changed lines and their context, folding the rest into one line each.
function render(ops: Op[]): string {
  const keep = new Uint8Array(ops.length);
  ops.forEach(([kind], n) => {
    if (kind === ' ') return;
    for (let k = Math.max(0, n - CONTEXT); k <= Math.min(ops.length - 1, n + CONTEXT); k++) keep[k] = 1;
  });
  const lines: string[] = [];
  let shown = 0;
  let skipped = 0;
  for (const [n, [kind, line]] of ops.entries()) {
    if (!keep[n]) {
      skipped++;
      continue;
    }
    if (skipped > 0) lines.push(`… ${skipped} unchanged line${skipped === 1 ? '' : 's'}`);
    skipped = 0;
    if (shown === MAX_LINES) {
      const left = ops.length - n;
      lines.push(`… ${left} more line${left === 1 ? '' : 's'} not shown`);
      return lines.join('\n');
    }
    lines.push(`${kind} ${visible(line)}`);
    shown++;
  }
  if (skipped > 0) lines.push(`… ${skipped} unchanged line${skipped === 1 ? '' : 's'}`);
  return lines.join('\n');
}

// The text's lines, each long one cut into pieces (never inside a surrogate pair); a piece that goes on starts with ↪.
function pieces(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let at = 0;
    do {
      let end = Math.min(line.length, at + PIECE_CHARS);
      if (end < line.length && /[\ud800-\udbff]/.test(line[end - 1] as string)) end--;
      out.push(`${at > 0 ? '↪ ' : ''}${line.slice(at, end)}`);
      at = end;
    } while (at < line.length);
  }
  return out;
}

function visible(line: string): string {
  return line.replace(HIDDEN, (char) => `\\u{${(char.codePointAt(0) as number).toString(16)}}`);
}
