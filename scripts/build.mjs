// Builds dist/: ESM (with type declarations) by tsc, CommonJS by esbuild from
// the same sources, file for file, so a dynamic import stays a separate load
// in both and the root entry never pulls in node-only modules.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

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
rmSync(dist, { recursive: true, force: true });

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

// The inspector's page is browser code, bundled on its own below.
const PAGE = join('src', 'cli', 'inspect', 'page');

const sources = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (path === PAGE) continue;
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.ts')) sources.push(path);
  }
})('src');

await build({
  entryPoints: sources,
  outdir: join(dist, 'cjs'),
  outbase: 'src',
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
for (const entry of readdirSync(join(dist, 'esm'), { recursive: true })) {
  if (String(entry).endsWith('.d.ts')) cpSync(join(dist, 'esm', String(entry)), join(dist, 'cjs', String(entry)));
}
mkdirSync(join(dist, 'cjs'), { recursive: true });
writeFileSync(join(dist, 'esm', 'package.json'), JSON.stringify({ type: 'module' }) + '\n');
writeFileSync(join(dist, 'cjs', 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');

// The page of rxmcp inspect, for browsers: bundled from the built root entry
// (browser-safe: node-only code is loaded on demand, and never here) into
// dist/inspect/, which the package ships.
// signed-in.js is the sign-in window's redirect page's script (rxmcp/browser's finishSignIn).
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
