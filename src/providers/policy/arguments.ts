// How many values a walk over one call's arguments visits before it gives
// up: the model writes the arguments, so their size is not ours to trust.
const WALK_LIMIT = 10_000;

// How much of a key's end is read for the words it names: a key is the
// model's, and a longer one names nothing more.
const KEY_TAIL = 64;

/**
 * Whether an argument's key names one of `words`: the whole key, or a tail
 * of it that starts after `_`, `-`, `.` or a space, or holds a capital
 * (`oldPath`, `source_dir`, `baseURL`, `my_file_name`), lowercased with
 * those separators and any number at its end taken out (`file2`); `profile`
 * names no `file`. Servers written in Go or .NET match keys ignoring case,
 * so `filePaTH` and `sourcedIR` name a path and a dir there, and so do `ſ`
 * and the Kelvin sign, which their case folding reads as `s` and `k`. Only
 * the last `KEY_TAIL` characters count.
 */
export function keyNames(key: string, words: ReadonlySet<string>): boolean {
  const tail = key.length > KEY_TAIL ? key.slice(-KEY_TAIL) : key;
  let cased = false;
  for (let i = tail.length - 1; i >= 0; i--) {
    cased ||= CASED.test(tail[i] as string);
    if (i > 0 && !cased && !SEPARATOR.test(tail[i - 1] as string)) continue;
    if (words.has(tail.slice(i).toLowerCase().replace(/\u017f/g, 's').replace(/[-_.\s]|[0-9]+$/g, ''))) return true;
  }
  return false;
}

const CASED = /[\p{Lu}\u017f]/u;
const SEPARATOR = /[-_.\s]/;

/**
 * The values a call's arguments hold under keys naming `words`, at any depth,
 * plus every string elsewhere that `also` picks out. Under a named key, a
 * string is one value; a list counts item by item (an empty one as one
 * unreadable value); an object is walked for its own keys, and counts as one
 * unreadable value when none of them is named; a number, boolean or null is
 * one unreadable value. Walked iteratively, in order; a list or object
 * that would take the walk past `WALK_LIMIT` values is not opened, and it
 * and the rest count as one unreadable value (`undefined`).
 */
export function valuesUnder(args: Record<string, unknown>, words: ReadonlySet<string>, also: (value: string) => boolean): unknown[] {
  const found: unknown[] = [];
  const stack: Array<[value: unknown, named: boolean]> = [[args, false]];
  // Checked before a list or an object is opened, so a huge one costs no
  // more than one just past the limit.
  const tooMany = (visited: number, more: number): boolean => {
    if (visited + stack.length + more < WALK_LIMIT) return false;
    found.push(undefined);
    return true;
  };
  for (let visited = 0; stack.length > 0; visited++) {
    const [value, named] = stack.pop() as [unknown, boolean];
    if (typeof value === 'string') {
      if (named || also(value)) found.push(value);
    } else if (Array.isArray(value)) {
      if (tooMany(visited, value.length)) break;
      if (named && value.length === 0) found.push(undefined);
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], named]);
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      if (tooMany(visited, keys.length)) break;
      const inner = keys.map((key) => keyNames(key, words));
      if (named && !inner.includes(true)) found.push(undefined);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([(value as Record<string, unknown>)[keys[i] as string], inner[i] as boolean]);
    } else if (named) {
      found.push(value);
    }
  }
  return found;
}
