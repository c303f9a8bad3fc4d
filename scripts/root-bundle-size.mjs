// The size of the root entry as a browser bundler ships it: dist/esm/index.js
// and what it imports from rxmcp, minified, with the runtime dependencies and
// Node built-ins left out (they are the page's own, or never loaded there).
// Two numbers: the chunk a page loads when it imports rxmcp (code loaded
// with import() split off, as bundlers do), and everything including those
// lazy chunks. Run after `npm run build`:
//   node scripts/root-bundle-size.mjs [folder holding dist/, default .]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(process.argv[2] ?? '.');
const outdir = mkdtempSync(join(tmpdir(), 'rxmcp-bundle-'));
try {
  const result = await build({
    entryPoints: { index: join(root, 'dist', 'esm', 'index.js') },
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    write: false,
    metafile: true,
    external: ['node:*', 'rxjs', 'zod', 'eventsource-parser', '@cfworker/json-schema', 'smol-toml', 'jose'],
    logLevel: 'silent',
  });
  const files = result.outputFiles.filter((file) => file.path.endsWith('.js'));
  const entry = files.find((file) => file.path.endsWith('/index.js'));
  const size = (parts) => {
    const bytes = parts.reduce((sum, file) => sum + file.contents.length, 0);
    const gzipped = parts.reduce((sum, file) => sum + gzipSync(file.contents).length, 0);
    return `${bytes} bytes minified, ${gzipped} gzipped`;
  };
  console.log(`loaded on import: ${size([entry])}`);
  console.log(`with every lazy chunk (${files.length - 1}): ${size(files)}`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
