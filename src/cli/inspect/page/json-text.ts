/**
 * A value as indented JSON text, at most `maxChars` long (cut short with a
 * note of how it was cut). Walked with a stack of its own, not by recursion,
 * and never through `JSON.stringify` of a container: a server's value may
 * nest deeper than the call stack reaches. What JSON cannot carry (a bigint,
 * a function) is written as `null`, as JSON would.
 */
export function jsonText(value: unknown, maxChars = 20_000): string {
  const parts: string[] = [];
  let length = 0;
  // Each entry is either text to write or a value to open at a depth.
  const stack: Array<string | { value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    if (length > maxChars) return `${parts.join('').slice(0, maxChars)}\n… (cut at ${maxChars.toLocaleString('en')} characters)`;
    const next = stack.pop() as string | { value: unknown; depth: number };
    if (typeof next === 'string') {
      parts.push(next);
      length += next.length;
      continue;
    }
    const { value: item, depth } = next;
    const text = scalar(item);
    if (text !== undefined) {
      parts.push(text);
      length += text.length;
      continue;
    }
    const pad = '\n' + '  '.repeat(Math.min(depth + 1, 40));
    const close = '\n' + '  '.repeat(Math.min(depth, 40));
    const array = Array.isArray(item);
    const entries: Array<[string | undefined, unknown]> = array ? (item as unknown[]).map((inner) => [undefined, inner]) : Object.entries(item as object);
    if (entries.length === 0) {
      parts.push(array ? '[]' : '{}');
      length += 2;
      continue;
    }
    // Pushed in reverse, so they come off the stack in order.
    stack.push(close + (array ? ']' : '}'));
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string | undefined, unknown];
      stack.push({ value: inner, depth: depth + 1 });
      stack.push(`${i === 0 ? '' : ','}${pad}${key === undefined ? '' : `${JSON.stringify(key)}: `}`);
    }
    parts.push(array ? '[' : '{');
    length += 1;
  }
  const whole = parts.join('');
  return whole.length > maxChars ? `${whole.slice(0, maxChars)}\n… (cut at ${maxChars.toLocaleString('en')} characters)` : whole;
}

// The text of a value that holds no other, or undefined for an array or object.
function scalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return String(value);
    case 'object':
      return undefined;
    default:
      return 'null';
  }
}
