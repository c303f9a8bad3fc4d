// The size of the root entry as a browser bundler ships it: dist/esm/index.js
// and everything it imports from rxmcp, minified, with the runtime
// dependencies and Node built-ins left out (they are the page's own or never
// loaded there). Run after `npm run build`:
//   node scripts/root-bundle-size.mjs [folder holding dist/, default .]
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(process.argv[2] ?? '.');
const result = await build({
  entryPoints: [join(root, 'dist', 'esm', 'index.js')],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  write: false,
  external: ['node:*', 'rxjs', 'zod', 'cross-fetch', 'eventsource-parser', '@cfworker/json-schema', 'smol-toml'],
  logLevel: 'silent',
});
const bytes = result.outputFiles[0].contents;
console.log(`root entry: ${bytes.length} bytes minified, ${gzipSync(bytes).length} gzipped (rxmcp's own code)`);
