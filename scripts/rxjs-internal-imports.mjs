// Rewrites the built files' imports from 'rxjs' into imports of the rxjs
// modules that define each name ('rxjs/internal/Observable',
// 'rxjs/internal/operators/map', ...), so a program that loads rxmcp loads
// the hundred-odd rxjs files rxmcp uses, not all 223 that rxjs's index
// requires on Node (its `node` condition is the CommonJS build, which
// cannot be tree-shaken). src/ and the declarations keep `from 'rxjs'`.
// The ESM build then reaches those modules through one module of its own,
// '#rxjs' (shareRxjsImports, below, says why).
//
// Why this is safe: rxjs 7's package.json exports `./internal/*` beside `.`,
// and under every condition both point into the same build (node and require
// to dist/cjs, es2015 to dist/esm, default to dist/esm5), whose index
// re-exports each name from the very internal module named here. So the
// class rxmcp imports from 'rxjs/internal/Observable' is the one a user
// imports from 'rxjs', in Node and in bundlers alike, and so is `config`.
// The layout is the same in 7.8.0, 7.8.1 and 7.8.2 (same exports map, same
// index files, same file list), which is the peer range (>=7.8 <8).
//
// What would break it: rxjs 8 reorganises its package (the internal paths
// are no promise of rxjs's), and a 7.x release could move a name. So the
// build checks the installed rxjs and stops with an error if the exports
// map, the index files or any name rxmcp uses differ from what this relies
// on: a changed layout fails rxmcp's build, never a user's program.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** Stops the build with what was expected of rxjs and what was found. */
function fail(message) {
  throw new Error(`rxjs-internal-imports: ${message}; the build imports rxjs's internal modules and checks their layout first (scripts/rxjs-internal-imports.mjs)`);
}

/** rxjs's folder and package.json, as installed for this build. */
function installedRxjs() {
  const manifestPath = require.resolve('rxjs/package.json');
  return { folder: dirname(manifestPath), manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) };
}

/**
 * The builds `.` and `./internal/*` lead to, condition by condition, checked
 * to be the same build for both (else the two specifiers could load two
 * copies of Observable in some resolver).
 */
function flavours(manifest) {
  const index = manifest.exports?.['.'];
  const internal = manifest.exports?.['./internal/*'];
  if (typeof index !== 'object' || typeof internal !== 'object') fail(`rxjs ${manifest.version} does not export both "." and "./internal/*"`);
  const conditions = Object.keys(index);
  if (JSON.stringify(conditions) !== JSON.stringify(Object.keys(internal))) {
    fail(`rxjs ${manifest.version} exports "." and "./internal/*" under different conditions (${conditions} against ${Object.keys(internal)})`);
  }
  const folders = new Set();
  for (const condition of conditions.filter((name) => name !== 'types')) {
    const folder = /^\.\/dist\/([a-z0-9]+)\/index\.js$/.exec(index[condition])?.[1];
    if (folder === undefined || internal[condition] !== `./dist/${folder}/internal/*.js`) {
      fail(`rxjs ${manifest.version} sends condition ${condition} to ${index[condition]} for "." but to ${internal[condition]} for "./internal/*"`);
    }
    folders.add(folder);
  }
  return [...folders];
}

/** Name → internal path ('internal/operators/map'), read from one ESM index of rxjs's. */
function namesOf(file) {
  const names = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('//# sourceMappingURL=')) continue;
    // Types only: nothing at run time comes from it.
    if (line === "export * from './internal/types';") continue;
    const match = /^export \{ ([\w$, ]+) \} from '\.\/(internal\/[\w/]+)';$/.exec(line);
    if (match === null) fail(`${file} has a line this build does not know: ${JSON.stringify(line)}`);
    for (const name of match[1].split(', ')) names.set(name, match[2]);
  }
  return names;
}

/**
 * Where each name of rxjs's index is defined, as a specifier
 * ('rxjs/internal/operators/map'), derived from rxjs's own ESM indexes
 * (dist/esm and dist/esm5, which must agree), after checking the exports
 * map sends every condition of both specifiers to the same build.
 */
export function rxjsInternalModules() {
  const { folder, manifest } = installedRxjs();
  const builds = flavours(manifest);
  const esm = namesOf(join(folder, 'dist/esm/index.js'));
  const esm5 = namesOf(join(folder, 'dist/esm5/index.js'));
  if (JSON.stringify([...esm]) !== JSON.stringify([...esm5])) fail(`rxjs ${manifest.version}'s dist/esm and dist/esm5 indexes export different names or from different modules`);
  return { version: manifest.version, folder, builds, modules: new Map([...esm].map(([name, path]) => [name, `rxjs/${path}`])) };
}

/**
 * Checks that each name, imported from its internal module, is the very
 * value rxjs's index gives, through require and through import (the latter
 * also proves Node finds the name in the CommonJS file), and that every
 * build the exports map names has the module.
 */
async function checkIdentity(rxjs, uses) {
  const index = require('rxjs');
  const indexEsm = await import('rxjs');
  for (const [name, specifier] of uses) {
    const path = specifier.slice('rxjs/'.length);
    for (const build of rxjs.builds) {
      if (!existsSync(join(rxjs.folder, 'dist', build, `${path}.js`))) fail(`rxjs ${rxjs.version} has no dist/${build}/${path}.js for ${name}`);
    }
    if (require(specifier)[name] !== index[name] || index[name] === undefined) fail(`require('${specifier}').${name} is not rxjs's own ${name} in rxjs ${rxjs.version}`);
    if ((await import(specifier))[name] !== indexEsm[name]) fail(`import('${specifier}').${name} is not rxjs's own ${name} in rxjs ${rxjs.version}`);
  }
}

// esbuild writes an external's named imports as one statement, the names
// separated by commas, each `name` or `name as local`.
const NAMED_IMPORT = /^import\s*\{([^}]*)\}\s*from\s*"rxjs";$/gm;
// Any other way of reaching rxjs (a namespace, a re-export, import(),
// require, a subpath other than internal/) would load the whole index again.
const OTHER_USE = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']rxjs(?:\/(?!internal\/)[^"']*)?["']/;

/**
 * Rewrites the imports from 'rxjs' of each built ESM file (paths given) in
 * place, checking the installed rxjs first; stops the build when a name has
 * no internal module or a file reaches rxjs some other way.
 * @returns the names rewritten, with the module of each.
 */
export async function rewriteRxjsImports(files) {
  const rxjs = rxjsInternalModules();
  const uses = new Map();
  const changed = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const rewritten = source.replace(NAMED_IMPORT, (_, list) => {
      const byModule = new Map();
      for (const binding of list.split(',').map((part) => part.trim()).filter(Boolean)) {
        const name = binding.split(/\s+as\s+/)[0];
        const specifier = rxjs.modules.get(name);
        if (specifier === undefined) fail(`${file} imports ${name} from rxjs, which rxjs ${rxjs.version}'s index does not export from an internal module`);
        uses.set(name, specifier);
        byModule.set(specifier, [...(byModule.get(specifier) ?? []), binding]);
      }
      return [...byModule].map(([specifier, bindings]) => `import { ${bindings.join(', ')} } from "${specifier}";`).join('\n');
    });
    const other = OTHER_USE.exec(rewritten);
    if (other !== null) fail(`${file} reaches rxjs in a way this build does not rewrite: ${JSON.stringify(other[0])}`);
    if (rewritten !== source) changed.push([file, rewritten]);
  }
  await checkIdentity(rxjs, uses);
  for (const [file, rewritten] of changed) writeFileSync(file, rewritten);
  return uses;
}

// The ESM build's imports of rxjs's modules, as rewriteRxjsImports writes them.
const INTERNAL_IMPORT = /^import \{ ([^}]*) \} from "(rxjs\/internal\/[\w/]+)";\n/gm;

/**
 * Gathers the ESM build's imports of rxjs's modules into one module of its
 * own, '#rxjs' (package.json `imports` of the ESM folder): on Node (the
 * `node` condition) a CommonJS file that requires each rxjs module, anywhere
 * else an ES module that re-exports them. Node pays for each CommonJS file
 * an ES module imports (it reads the file for its export names, wraps it
 * as a module): importing three dozen of rxjs's files one by one costs as
 * much as rxjs's whole index, and one file that requires them costs a
 * third of that. Identity still holds: where `node` is a condition, rxjs
 * sends `rxjs` and `rxjs/internal/*` to its CommonJS build alike (and
 * `require` from the .cjs file meets `node` first too); where it is not,
 * the .mjs file imports under the same conditions as the user's `rxjs`.
 * The CommonJS build keeps its own requires of each module, which cost
 * nothing more. Writes the two files into `folder` and returns the
 * `imports` entry for its package.json.
 */
export async function shareRxjsImports(folder, files, uses) {
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const bindings = [];
    // The first import makes room for the gathered one; the others go.
    const gathered = source.replace(INTERNAL_IMPORT, (_, list) => {
      const room = bindings.length === 0 ? '\u0000' : '';
      bindings.push(...list.split(', '));
      return room;
    });
    if (bindings.length > 0) writeFileSync(file, gathered.replace('\u0000', `import { ${bindings.join(', ')} } from "#rxjs";\n`));
  }
  const names = [...uses].sort(([a], [b]) => (a < b ? -1 : 1));
  const header = '// What rxmcp uses of rxjs, each from the rxjs module that defines it (scripts/rxjs-internal-imports.mjs).\n';
  writeFileSync(join(folder, 'rxjs.cjs'), header + '"use strict";\n' + names.map(([name, specifier]) => `exports.${name} = require("${specifier}").${name};\n`).join(''));
  writeFileSync(join(folder, 'rxjs.mjs'), header + names.map(([name, specifier]) => `export { ${name} } from "${specifier}";\n`).join(''));
  // Node finds each name in the CommonJS file, and it is rxjs's own.
  const shared = await import(pathToFileURL(join(folder, 'rxjs.cjs')).href);
  const index = await import('rxjs');
  for (const [name] of names) {
    if (shared[name] !== index[name]) fail(`${join(folder, 'rxjs.cjs')} does not give rxjs's own ${name} to an ES module`);
  }
  // `module` first: Node never sets it, bundlers do (esbuild, webpack), and a bundle of ES modules that leaves rxjs
  // outside cannot run the .cjs file's requires (esbuild's output throws at the first one).
  return { '#rxjs': { module: './rxjs.mjs', node: './rxjs.cjs', default: './rxjs.mjs' } };
}
