import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

// dist/ holds bundles (scripts/build.mjs): an entry and the chunks it loads
// each hold many source files. These say which, so a spec of the built
// package can still ask "does the root entry load src/node/?".

const root = join(__dirname, '..', '..');

/**
 * The source files (`src/…`) a file of dist/ was built from, read from the
 * comment esbuild writes before each source file's code. A CommonJS file is
 * the ESM file of the same name turned into CommonJS (which drops those
 * comments), so its sources are that file's. Anything outside dist/esm and
 * dist/cjs (a package, a Node built-in) has none.
 */
export function builtSources(file: string): string[] {
  const path = relative(root, isAbsolute(file) ? file : join(root, file)).split(sep).join('/');
  const built = /^dist\/(?:esm|cjs)\/(.+\.js)$/.exec(path)?.[1];
  if (built === undefined) return [];
  const esm = join(root, 'dist', 'esm', built);
  if (!existsSync(esm)) throw new Error(`${path} has no ESM counterpart ${esm}`);
  return [...readFileSync(esm, 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1] as string);
}

/** The source files all of `files` were built from, together. */
export function sourcesOf(files: Iterable<string>): Set<string> {
  return new Set([...files].flatMap(builtSources));
}
