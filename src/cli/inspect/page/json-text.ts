/** The longest JSON text the page writes for one value, unless told otherwise. */
export const MAX_JSON_CHARS = 100_000;

type Step = string | { value: unknown; depth: number };

/**
 * `value` as indented JSON, keys in the order they came, cut after
 * `maxChars` characters with a line saying so. Walked with a stack of its
 * own, so a document nested 100,000 deep costs memory, never the page's
 * call stack (where JSON.stringify would throw).
 */
export function jsonText(value: unknown, maxChars = MAX_JSON_CHARS): string {
  const parts: string[] = [];
  let length = 0;
  const stack: Step[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const text = expand(stack.pop() as Step, stack);
    if (length + text.length > maxChars) {
      parts.push(text.slice(0, maxChars - length), `\n… cut at ${maxChars.toLocaleString('en')} characters`);
      break;
    }
    parts.push(text);
    length += text.length;
  }
  return parts.join('');
}

// The text a step writes now; an object or array pushes its members, to be written next.
function expand(step: Step, stack: Step[]): string {
  if (typeof step === 'string') return step;
  const { value, depth } = step;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const array = Array.isArray(value);
  const entries: Array<[string | undefined, unknown]> = array
    ? (value as unknown[]).map((item) => [undefined, item])
    : Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
  if (entries.length === 0) return array ? '[]' : '{}';
  const pad = `\n${'  '.repeat(depth + 1)}`;
  stack.push(`\n${'  '.repeat(depth)}${array ? ']' : '}'}`);
  for (let index = entries.length - 1; index >= 0; index--) {
    const [key, item] = entries[index] as [string | undefined, unknown];
    stack.push({ value: item, depth: depth + 1 });
    stack.push(`${index > 0 ? ',' : ''}${pad}${key === undefined ? '' : `${JSON.stringify(key)}: `}`);
  }
  return array ? '[' : '{';
}
