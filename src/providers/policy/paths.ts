import type { Tri } from './tri.js';

/** The argument names that hold locations, by convention. */
export const DEFAULT_LOCATION_KEYS: readonly string[] = ['path', 'paths', 'from', 'to', 'source', 'destination'];

/**
 * A path as absolute POSIX segments, resolved against `root` when relative;
 * `undefined` when it cannot be read to a conclusion: not a string, a NUL
 * byte, a backslash, a `..` segment, or a relative path with no root.
 * Purely lexical: the filesystem is the server's, and never touched here.
 */
export function segments(path: unknown, root: string | undefined): string[] | undefined {
  if (typeof path !== 'string' || path === '' || path.includes('\0') || path.includes('\\')) return undefined;
  let full = path;
  if (!path.startsWith('/')) {
    if (root === undefined || !root.startsWith('/')) return undefined;
    full = `${root}/${path}`;
  }
  const parts = full.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return undefined;
  return parts;
}

/** Whether `path` lies inside (or is) `dir`, segment by segment: `/tmp/root2` is not inside `/tmp/root`. */
export function inside(path: unknown, dir: unknown, root: string | undefined): Tri {
  const child = segments(path, root);
  const parent = segments(dir, root);
  if (!child || !parent) return 'unknown';
  if (child.length < parent.length) return 'no';
  return parent.every((part, i) => child[i] === part) ? 'yes' : 'no';
}

/**
 * The locations a call names: every string under the location keys (a
 * string or a list of strings). A key holding anything else counts as one
 * unreadable location.
 */
export function locationsOf(args: Record<string, unknown>, keys: readonly string[]): unknown[] {
  const found: unknown[] = [];
  for (const key of keys) {
    if (!(key in args)) continue;
    const value = args[key];
    if (Array.isArray(value)) found.push(...(value.length > 0 ? value : [undefined]));
    else found.push(value);
  }
  return found;
}

/** The deepest directory containing every location (each file counts as its directory), or `undefined`. */
export function commonDirectory(locations: readonly unknown[], root: string | undefined): string | undefined {
  let common: string[] | undefined;
  for (const location of locations) {
    const parts = segments(location, root);
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
