// Builds dist/: type declarations by tsc; the JavaScript by esbuild, one
// bundle per public entry (package.json `exports`, and the command line's
// entry), with the code two entries share in shared chunks, so each class
// and each module-level table exists once however many entries a program
// imports. Every package (dependencies and optional peers) stays outside,
// and every import() stays an import(): what an entry loads on demand is a
// chunk of its own, so the root entry still never loads node-only code.
// The CommonJS build is the ESM build's files, each turned into CommonJS:
// the same chunks under the same names, so it shares classes the same way.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { rewriteRxjsImports, shareRxjsImports } from './rxjs-internal-imports.mjs';

// npm runs this as `prepare` for a git or folder install too. A folder whose
// development dependencies were never installed cannot build: say so, and
// what works instead, rather than fail on the first import.
const require = createRequire(import.meta.url);
for (const tool of ['esbuild', 'typescript']) {
  try {
    require.resolve(tool);
  } catch {
    console.error(`rxmcp's build needs ${tool}, a development dependency: run npm install in ${process.cwd()} first, or install rxmcp from git+file:// or from a tarball made by npm pack (docs/install.md)`);
    process.exit(1);
  }
}
const { build } = await import('esbuild');

const dist = 'dist';
const esm = join(dist, 'esm');
const cjs = join(dist, 'cjs');
rmSync(dist, { recursive: true, force: true });

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--emitDeclarationOnly'], { stdio: 'inherit' });

// Each public entry's source, read from where package.json sends `import`
// (./dist/esm/X.js is built from src/X.ts), and the command line's.
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const entries = Object.values(manifest.exports)
  .filter((target) => typeof target === 'object')
  .map((target) => target.import.default.replace(/^\.\/dist\/esm\//, 'src/').replace(/\.js$/, '.ts'));
entries.push(join('src', 'cli', 'main.ts'));

const built = await build({
  entryPoints: entries,
  outdir: esm,
  outbase: 'src',
  // Chunks sit one folder down, as deep as cli/main.js: the inspector finds
  // its page from import.meta.url (src/cli/inspect-command.ts), wherever
  // the bundler put that code.
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  packages: 'external',
  external: ['node:*'],
  target: 'es2022',
  // No keepNames: it wraps every named closure in a call that defines its
  // name each time the closure is made, a fifth of a stdio call's client CPU
  // (PERFORMANCE.md, "keepNames"). The exported classes keep their names
  // (McpClient.name) because their bodies never mention them; a class that
  // did would be named _McpClient (spec/package/built-package.spec.ts).
  keepNames: false,
  metafile: true,
  logLevel: 'warning',
});

// Each name imported from 'rxjs' is imported from the rxjs module that
// defines it, which Node loads alone, not all of rxjs (why this is safe, and
// the checks that keep it so: scripts/rxjs-internal-imports.mjs). Done
// before the CommonJS build, which is made of these same files.
const esmFiles = Object.keys(built.metafile.outputs).filter((file) => file.endsWith('.js'));
const rxjsUses = await rewriteRxjsImports(esmFiles);

await build({
  entryPoints: esmFiles,
  outdir: cjs,
  outbase: esm,
  format: 'cjs',
  // 'node' makes esbuild write each file's export names where Node looks for
  // them: the CommonJS build loads some of its own files with import()
  // (sign-in, the node:http sender), which sees only `default` without them.
  platform: 'node',
  target: 'es2022',
  bundle: false,
  logLevel: 'warning',
  // The command line finds the inspector's page by import.meta.url; it runs as ESM alone (bin/rxmcp.mjs).
  logOverride: { 'empty-import-meta': 'silent' },
});

// The declarations serve both builds; each folder says which module kind it holds.
for (const entry of readdirSync(esm, { recursive: true })) {
  if (String(entry).endsWith('.d.ts')) cpSync(join(esm, String(entry)), join(cjs, String(entry)));
}
mkdirSync(cjs, { recursive: true });
// The ESM build then imports those rxjs modules through one module, '#rxjs',
// which Node loads as one CommonJS file (why: scripts/rxjs-internal-imports.mjs).
const imports = await shareRxjsImports(esm, esmFiles, rxjsUses);
writeFileSync(join(esm, 'package.json'), JSON.stringify({ type: 'module', imports }) + '\n');
writeFileSync(join(cjs, 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');

// The page of rxmcp inspect, for browsers: bundled from the built root entry
// (browser-safe: node-only code is loaded on demand, and never here) into
// dist/inspect/, which the package ships.
// signed-in.js is the sign-in window's redirect page's script (rxmcp/browser's finishSignIn).
const PAGE = join('src', 'cli', 'inspect', 'page');
await build({
  entryPoints: { page: join(PAGE, 'inspect-page.ts'), 'signed-in': join(PAGE, 'signed-in.ts') },
  outdir: join(dist, 'inspect'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  alias: { rxmcp: './dist/esm/index.js', 'rxmcp/apps': './dist/esm/apps/index.js', 'rxmcp/browser': './dist/esm/browser/index.js', 'rxmcp/sampling': './dist/esm/formats/sampling/index.js' },
  external: ['node:*'],
  logLevel: 'warning',
});
cpSync(join(PAGE, 'index.html'), join(dist, 'inspect', 'index.html'));
