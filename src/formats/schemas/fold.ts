// A folded value longer than this is cut: the note is a hint to the model,
// not a second copy of the schema.
const MAX_NOTE_VALUE = 200;

/**
 * A description that also says what the vendor's schema cannot: each
 * keyword the normaliser had to leave out, with its value, appended as
 * `(keyword: value; …)`. Returns the description unchanged when there is
 * nothing to add.
 */
export function foldNotes(description: unknown, notes: ReadonlyArray<readonly [string, unknown]>): string | undefined {
  const own = typeof description === 'string' ? description : undefined;
  if (notes.length === 0) return own;
  const said = notes.map(([keyword, value]) => `${keyword}: ${noteValue(value)}`).join('; ');
  return own ? `${own} (${said})` : `(${said})`;
}

function noteValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Too deep to write out: the keyword alone still tells the model something.
    text = '…';
  }
  return text.length > MAX_NOTE_VALUE ? `${text.slice(0, MAX_NOTE_VALUE)}…` : text;
}
