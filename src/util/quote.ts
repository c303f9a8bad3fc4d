/** How much of a string an error message quotes. */
const QUOTED_CHARS = 200;

/**
 * A value a server or model sent, quoted for a message: JSON for a primitive
 * (a long string cut short, with `…`), and only its kind for an object or an
 * array, which could be huge or nested too deep for `JSON.stringify`.
 */
export function quote(value: unknown): string {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  if (typeof value === 'string' && value.length > QUOTED_CHARS) return `${JSON.stringify(value.slice(0, QUOTED_CHARS))}…`;
  return JSON.stringify(value) ?? String(value);
}
