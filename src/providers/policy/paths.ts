import { valuesUnder } from './arguments.js';
import { commandSources } from './commands/command-arguments.js';
import { effectiveCommands } from './commands/effective-command.js';
import { parseShellLine, type Word } from './commands/shell-line.js';
import type { Tri } from './tri.js';

/**
 * The words that name a location in an argument's key: the whole key or a
 * word at its end (see `keyNames`), so `path`, `filePath`, `source_dir` and
 * `configFile` all hold locations.
 */
export const DEFAULT_LOCATION_KEYS: readonly string[] = [
  'path', 'paths', 'filepath', 'filepaths', 'file', 'files', 'filename', 'filenames',
  'dir', 'dirs', 'directory', 'directories', 'folder', 'folders', 'cwd', 'workdir', 'root',
  'from', 'to', 'source', 'sources', 'src', 'destination', 'destinations', 'dest', 'target', 'targets',
  'location', 'locations', 'output', 'outputs', 'outfile', 'outdir', 'fullpath', 'pathname', 'pathnames',
];

// A string that some server reads as something other than the literal path
// it spells: control characters; `\` (a separator on Windows); `~` (home
// expansion at the start, 8.3 short names such as `PROGRA~1` elsewhere);
// `$VAR`, `${VAR}`, `%VAR%` and percent-encoding; `:` (URIs such as `file:`,
// drive letters, Windows alternate streams), the other characters Windows
// gives meaning to (`< > " | ? *`); and invisible characters that some
// filesystems ignore in names.
const UNREADABLE = /[\0-\x1f\x7f\\~$%:<>"|?*\p{Default_Ignorable_Code_Point}]/u;
// The characters a path's reading turns on: separators, dots, and those
// UNREADABLE names. A server that folds compatibility characters (NFKC:
// `／`, `．`, `＼`, `…`) or Windows' best-fit code pages (which also turn `¥`
// and `₩` into `\` and `∕` into `/`) reads other ones than were compared.
const SYNTAX = /[/.\\~$%:<>"|?*]/g;
const BEST_FIT = /[\u00a5\u20a9\u2215]/;
function foldsIntoSyntax(path: string): boolean {
  if (/^[\x20-\x7e]*$/.test(path)) return false;
  if (BEST_FIT.test(path)) return true;
  const syntax = (text: string) => text.match(SYNTAX)?.join('') ?? '';
  const compat = path.normalize('NFKC');
  return UNREADABLE.test(compat) || syntax(compat) !== syntax(path.normalize('NFC'));
}

/**
 * A path as absolute POSIX segments, resolved against `root` when relative;
 * `undefined` when it cannot be read to a conclusion: not a string, empty, a
 * character `UNREADABLE` names, surrounding whitespace or quotes (stripped
 * by some servers), a leading `//` (a UNC share on Windows), a `..` segment,
 * a segment ending in a dot or a space (Windows drops them), or a relative
 * path with no root, or a character some servers fold into a separator,
 * a dot or one of those characters (`／`, `．`, `¥`). Segments are
 * compared in Unicode NFC (servers match canonically equivalent names);
 * with `caseInsensitive` they are also lowercased, and a segment whose case
 * has no one-to-one fold (`ß`, `ı`, `İ`) or that compatibility folds to
 * other letters (`ＳＳＨ`, which best-fit reads as `SSH`) cannot be read.
 * Purely lexical: the filesystem is the server's, and never touched here.
 */
export function segments(path: unknown, root: string | undefined, caseInsensitive = false): string[] | undefined {
  if (typeof path !== 'string' || path === '' || UNREADABLE.test(path) || path !== path.trim() || foldsIntoSyntax(path)) return undefined;
  if (/^'|'$/.test(path) || path.startsWith('//')) return undefined;
  let full = path;
  if (!path.startsWith('/')) {
    if (root === undefined || !root.startsWith('/')) return undefined;
    full = `${root}/${path}`;
  }
  const parts: string[] = [];
  for (const part of full.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' || /[. ]$/.test(part)) return undefined;
    const key = fold(part, caseInsensitive);
    if (key === undefined) return undefined;
    parts.push(key);
  }
  return parts;
}

// A segment as it is compared, or undefined when filesystems disagree on it.
function fold(part: string, caseInsensitive: boolean): string | undefined {
  if (/^[\x20-\x7e]*$/.test(part)) return caseInsensitive ? part.toLowerCase() : part;
  const composed = part.normalize('NFC');
  if (!caseInsensitive) return composed;
  // Windows' best-fit code pages read `ＳＳＨ` as `SSH`, which its file systems match to `.ssh`.
  if (composed.normalize('NFKC') !== composed) return undefined;
  const lower = composed.toLowerCase();
  return lower.length === composed.length && lower === composed.toUpperCase().toLowerCase() ? lower : undefined;
}

/** Whether `path` lies inside (or is) `dir`, segment by segment: `/tmp/root2` is not inside `/tmp/root`. */
export function inside(path: unknown, dir: unknown, root: string | undefined, caseInsensitive = false): Tri {
  const child = segments(path, root, caseInsensitive);
  const parent = segments(dir, root, caseInsensitive);
  if (!child || !parent) return 'unknown';
  if (child.length < parent.length) return 'no';
  return parent.every((part, i) => child[i] === part) ? 'yes' : 'no';
}

// Built once per list of keys (a policy passes the same list every call).
const wordSets = new WeakMap<readonly string[], ReadonlySet<string>>();

// How many values the walk for locations visits: more than the default, as
// it also walks JSON held in strings (a written file's text may be a JSON
// document), and still bounded.
const LOCATION_WALK_LIMIT = 100_000;

// What a server may strip before it reads a path: whitespace, controls,
// quotes and invisible characters.
const LEAD = /^[\0-\x20"'`\p{White_Space}\p{Default_Ignorable_Code_Point}]+/u;
// The starts that make a string a path on some system: `/` (POSIX, and
// `//` for a share); `\` (the current drive's root on Windows, `\\` for a
// share or a `\\?\` device path); `~`, `~user`, `~+`, `~-` (a home or a
// shell's directory); `./`, `../` and `..` (either separator); a `file:`
// URI; a drive letter (`C:`, `C:\`, `C:/`), or a path relative to a
// drive's own current folder (`C:..\x`, `C:.ssh`, `C:Users\me`).
const PATH_START = /^(?:[/\\]|~[^\s/\\~]*(?:[/\\]|$)|\.\.?[/\\]|\.\.$|file:|[a-z]:(?:$|[/\\.]|[^\s:]*[/\\]))/i;
// A comment that opens a program's text (`// note`, `/* licence */`), which
// reads as a path only if it climbs out with `..`: with no `..`, it could
// name nothing but a folder under `/*` or `// ` that no system has.
const COMMENT = /^(?:\/\/\s|\/\*)/;
const CLIMB = /(?:^|[/\\])\.\.(?:[/\\]|$)/;
// An option or a setting with its value: `--out=/etc/x`, `of=/dev/sda`, a
// short option with its value joined on (`-o/etc/x`), or a file named for
// its contents as curl and others take one (`@/etc/x`).
const OPTION_VALUE = /^(?:[^\s=]{1,64}=|-[a-z](?=["']?[/\\~.])|@(?=["']?[/\\~.]))/i;

/**
 * The location a string outside the location keys names, or `undefined`
 * when it reads as no path: the string, once what a server may strip is
 * gone, begins as `PATH_START` says (or is an option or a setting whose
 * value does, `--out=/etc/x`, or a file given as `@/etc/x`). A URL (`https://host/x`) is a host's, not
 * a path; a plain word or a relative path (`notes.txt`, `a/b`) is not read
 * as one here, where it is more likely text than a location.
 */
export function pathIn(text: string): string | undefined {
  // A path spelled in compatibility characters (`／etc`, `．．／x`) is one to a server that folds them.
  if (!/^[\x20-\x7e]*$/.test(text)) {
    const compat = text.normalize('NFKC');
    if (compat !== text && readsAsPath(compat) !== undefined) return text;
  }
  return readsAsPath(text);
}

function readsAsPath(text: string): string | undefined {
  const stripped = text.replace(LEAD, '');
  // The value once its option is gone, and whatever a server may strip from it too (`--out="/etc/x"`).
  const value = stripped.replace(OPTION_VALUE, '').replace(LEAD, '');
  for (const candidate of value === stripped ? [stripped] : [stripped, value]) {
    if (!PATH_START.test(candidate) || (COMMENT.test(candidate) && !CLIMB.test(candidate))) continue;
    // The whole text, so that whatever was stripped keeps it unreadable.
    return candidate === stripped ? text : candidate;
  }
  return undefined;
}

/**
 * The locations a call names: every value under a key that names a location
 * (`keys` are words, matched as `keyNames` says), and every string under any
 * other key that reads as a path (see `pathIn`), every key that does (a map
 * from paths to contents), at any depth, in lists, and in JSON held in
 * strings; and those of the commands the call runs (see
 * `commandLocations`). A value under a location key
 * that is not a string, or a document too big or too deep to read through,
 * counts as one unreadable location (see `valuesUnder`).
 */
export function locationsOf(args: Record<string, unknown>, keys: readonly string[]): unknown[] {
  let words = wordSets.get(keys);
  if (!words) wordSets.set(keys, (words = new Set(keys.map((key) => key.toLowerCase().replace(/[-_.\s]/g, '')))));
  return [...valuesUnder(args, words, pathIn, { json: true, keys: true, limit: LOCATION_WALK_LIMIT }), ...commandLocations(args)];
}

/**
 * The locations the commands a call runs name (see `commandSources`): every
 * word of a shell line, and every argument of each program it runs (in a
 * shell's `-c` line too), that reads as a path, and every redirection's
 * target; a word the shell expands, or a line or a program that cannot be
 * read, is one unreadable location. A line's text is no path itself, so
 * without this, `cwd` inside the allowed folder hid `cat ~/.ssh/id_ed25519`.
 */
function commandLocations(args: Record<string, unknown>): unknown[] {
  const sources = commandSources(args);
  if (!sources) return [];
  const found: unknown[] = [];
  const read = (word: Word) => {
    const picked = word === undefined ? undefined : pathIn(word);
    if (word === undefined || picked !== undefined) found.push(picked);
  };
  for (const source of sources) {
    if (source === undefined || !('line' in source)) continue;
    const targets: Word[] = [];
    const commands = parseShellLine(source.line, targets);
    if (!commands) found.push(undefined);
    // `2>/dev/null` names a place nothing can be kept in or read from.
    else for (const word of [...commands.flat(), ...targets.filter((target) => target !== '/dev/null')]) read(word);
  }
  for (const command of effectiveCommands(sources)) {
    if (!command) found.push(undefined);
    else for (const word of command.argv) read(word);
  }
  return found;
}

/** The deepest directory containing every location (each file counts as its directory), or `undefined`. */
export function commonDirectory(locations: readonly unknown[], root: string | undefined, caseInsensitive = false): string | undefined {
  let common: string[] | undefined;
  for (const location of locations) {
    const parts = segments(location, root, caseInsensitive);
    if (!parts) return undefined;
    const dir = parts.slice(0, -1);
    common = common === undefined ? dir : common.slice(0, prefixLength(common, dir));
  }
  return common === undefined ? undefined : `/${common.join('/')}`;
}

function prefixLength(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
