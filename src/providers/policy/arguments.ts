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

/** How a walk reads strings outside the named keys, and how far it goes. */
export interface WalkOptions {
  /** Open string values that hold JSON text and walk what they hold, as if it were part of the arguments. */
  json?: boolean;
  /** Read objects' keys with `also` too, as values (a map from paths to contents names the paths). */
  keys?: boolean;
  /** How many values the walk visits before it gives up. Default `WALK_LIMIT`. */
  limit?: number;
}

// How much JSON text, in all, one walk parses out of string values; past
// it, a string that holds JSON is one unreadable value. Bounds the time a
// call's arguments can cost, however they nest JSON inside JSON.
const JSON_TEXT_LIMIT = 1 << 20;
// How deeply a JSON text may nest before it is one unreadable value: the
// parser is not ours, and its time grows with depth.
const JSON_DEPTH_LIMIT = 128;

/**
 * The values a call's arguments hold under keys naming `words`, at any depth,
 * plus what `also` picks out of every string elsewhere (and, with `keys`,
 * out of every key). Under a named key, a
 * string is one value; a list counts item by item (an empty one as one
 * unreadable value); an object is walked for its own keys, and counts as one
 * unreadable value when none of them is named; a number, boolean or null is
 * one unreadable value. With `json`, a string elsewhere that holds a JSON
 * object, list or string is parsed and walked as part of the arguments, however
 * deep JSON nests in JSON; one too long or too deep to parse within the
 * bounds counts as one unreadable value. Walked iteratively, in order; a list
 * or object that would take the walk past the limit is not opened, and it
 * and the rest count as one unreadable value (`undefined`).
 */
export function valuesUnder(
  args: Record<string, unknown>,
  words: ReadonlySet<string>,
  also: (value: string) => string | undefined,
  { json = false, keys: readKeys = false, limit = WALK_LIMIT }: WalkOptions = {},
): unknown[] {
  const found: unknown[] = [];
  const stack: Array<[value: unknown, named: boolean]> = [[args, false]];
  let jsonLeft = JSON_TEXT_LIMIT;
  // Checked before a list or an object is opened, so a huge one costs no
  // more than one just past the limit.
  const tooMany = (visited: number, more: number): boolean => {
    if (visited + stack.length + more < limit) return false;
    found.push(undefined);
    return true;
  };
  const pickFrom = (text: string): void => {
    const picked = also(text);
    if (picked !== undefined) found.push(picked);
  };
  for (let visited = 0; stack.length > 0; visited++) {
    const [value, named] = stack.pop() as [unknown, boolean];
    if (typeof value === 'string') {
      if (named) {
        found.push(value);
        continue;
      }
      if (json && holdsJson(value)) {
        if (value.length > jsonLeft || nesting(value) > JSON_DEPTH_LIMIT) {
          found.push(undefined);
          continue;
        }
        jsonLeft -= value.length;
        const parsed = parseJson(value);
        if (parsed !== NOT_JSON) {
          stack.push([parsed, false]);
          continue;
        }
        // Not JSON to this parser, and JSON to a lenient one (a trailing
        // comma, single quotes, comments, a byte-order mark): its quoted
        // strings are read as the values a lenient parser would find.
        for (const quoted of quotedIn(value)) pickFrom(quoted);
      }
      pickFrom(value);
    } else if (Array.isArray(value)) {
      if (tooMany(visited, value.length)) break;
      if (named && value.length === 0) found.push(undefined);
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], named]);
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      if (tooMany(visited, keys.length)) break;
      if (readKeys) for (const key of keys) pickFrom(key);
      const inner = keys.map((key) => keyNames(key, words));
      if (named && !inner.includes(true)) found.push(undefined);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([(value as Record<string, unknown>)[keys[i] as string], inner[i] as boolean]);
    } else if (named) {
      found.push(value);
    }
  }
  return found;
}

// A string a server might parse as JSON: an object, a list, or a string
// (JSON encoded twice), once the whitespace JSON allows (or a lenient
// parser does: a byte-order mark, no-break spaces) is gone.
function holdsJson(text: string): boolean {
  let first = 0;
  let last = text.length - 1;
  while (first <= last && JSON_SPACE.test(text[first] as string)) first++;
  while (last > first && JSON_SPACE.test(text[last] as string)) last--;
  const ends = `${text[first]}${text[last]}`;
  return last > first && (ends === '{}' || ends === '[]' || ends === '""');
}
const JSON_SPACE = /\s/;

// The contents of the quoted strings in a text, double or single quoted,
// escapes read as JSON reads them where it can. One pass: a quote left
// open ends the reading, so no text costs more than its length.
function quotedIn(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const quote = text[i];
    if (quote !== '"' && quote !== "'") continue;
    let end = i + 1;
    while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length) break;
    const inner = text.slice(i + 1, end);
    const read = parseJson(`"${quote === '"' ? inner : inner.replace(/(^|[^\\])"/g, '$1\\"')}"`);
    found.push(typeof read === 'string' ? read : inner);
    i = end;
  }
  return found;
}

const NOT_JSON = Symbol('not JSON');
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

// How deeply a JSON text nests its objects and lists, read in one pass
// before it is parsed (brackets inside strings do not count).
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 0x5c) i++;
      else if (c === 0x22) quoted = false;
    } else if (c === 0x22) quoted = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
