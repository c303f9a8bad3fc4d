// How many values a walk over one call's arguments visits before it gives
// up: the model writes the arguments, so their size is not ours to trust.
const WALK_LIMIT = 10_000;

/**
 * Whether an argument's key names one of `words`: the whole key, lowercased
 * with `_`, `-`, `.` and spaces taken out (`file_path` is `filepath`), or its
 * last word (`oldPath`, `source_dir`, `baseURL`), lowercased.
 */
export function keyNames(key: string, words: ReadonlySet<string>): boolean {
  if (words.has(key.toLowerCase().replace(/[-_.\s]/g, ''))) return true;
  const last = /(?:[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+)$/.exec(key);
  return last !== null && words.has(last[0].toLowerCase());
}

/**
 * The values a call's arguments hold under keys naming `words`, at any depth,
 * plus every string elsewhere that `also` picks out. Under a named key, a
 * string is one value; a list counts item by item (an empty one as one
 * unreadable value); an object is walked for its own keys, and counts as one
 * unreadable value when none of them is named; a number, boolean or null is
 * one unreadable value. Walked iteratively, in order; past `WALK_LIMIT`
 * values the rest counts as one unreadable value (`undefined`).
 */
export function valuesUnder(args: Record<string, unknown>, words: ReadonlySet<string>, also: (value: string) => boolean): unknown[] {
  const found: unknown[] = [];
  const stack: Array<[value: unknown, named: boolean]> = [[args, false]];
  for (let visited = 0; stack.length > 0; visited++) {
    if (visited >= WALK_LIMIT) {
      found.push(undefined);
      break;
    }
    const [value, named] = stack.pop() as [unknown, boolean];
    if (typeof value === 'string') {
      if (named || also(value)) found.push(value);
    } else if (Array.isArray(value)) {
      if (named && value.length === 0) found.push(undefined);
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], named]);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      const inner = entries.map(([key]) => keyNames(key, words));
      if (named && !inner.includes(true)) found.push(undefined);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([(entries[i] as [string, unknown])[1], inner[i] as boolean]);
    } else if (named) {
      found.push(value);
    }
  }
  return found;
}
