import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { sourcesOf } from '../support/built-sources.js';

const root = join(__dirname, '..', '..');
const NODE_ONLY = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: Array<{ path: string; kind: string }> }>;
}

describe('the browser bundle of the web demo', () => {
  it('contains no node-only module: they stay dynamic imports a browser never runs', () => {
    const script = "import('./demos/web/serve.mjs').then((m) => m.bundlePage()).then((r) => process.stdout.write(JSON.stringify(r.metafile)))";
    const metafile = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as Metafile;
    const bundled = Object.keys(metafile.inputs);
    expect(sourcesOf(bundled)).toContain('src/client/mcp-client.ts');
    // The HTTP+SSE reader is in the page too: a browser reaches such servers with its own fetch.
    expect(sourcesOf(bundled)).toContain('src/transport/http-sse.ts');
    expect(bundled.filter((input) => NODE_ONLY.has(input) || /node_modules\/(node-fetch|whatwg-url)\//.test(input))).toEqual([]);
    const nodeOnly = Object.values(metafile.outputs)
      .flatMap((output) => output.imports)
      .filter((entry) => NODE_ONLY.has(entry.path));
    expect(nodeOnly.map((entry) => entry.path).sort()).toEqual(['node:child_process', 'node:http', 'node:https', 'node:url', 'node:zlib']);
    expect(nodeOnly.every((entry) => entry.kind === 'dynamic-import')).toBe(true);
  });
});

describe('the browser bundle of rxmcp/browser', () => {
  it('bundles for the browser from the built entry with no node-only module at all, not even on demand', async () => {
    const result = await build({
      stdin: { contents: "export { popupSignIn, redirectSignIn, finishSignIn, BrowserTokenStore } from './dist/esm/browser/index.js';", resolveDir: root, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    const bundled = Object.keys(result.metafile.inputs);
    expect(sourcesOf(bundled)).toContain('src/browser/popup-sign-in.ts');
    expect(bundled.filter((input) => NODE_ONLY.has(input))).toEqual([]);
    expect([...sourcesOf(bundled)].filter((source) => source.startsWith('src/transport/') || source.startsWith('src/client/'))).toEqual([]);
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
    expect(imports.map((entry) => entry.path)).toEqual([]);
  });
});

describe('the browser bundle of the root entry', () => {
  it('leaves the OAuth code out of what a page loads on import: it comes with the first request of a client given auth', async () => {
    const result = await build({
      entryPoints: { index: join(root, 'dist', 'esm', 'index.js') },
      bundle: true,
      splitting: true,
      outdir: join(root, 'test-artifacts', 'root-bundle'),
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      external: ['node:*', 'rxjs', 'zod', 'eventsource-parser', '@cfworker/json-schema', 'smol-toml', 'jose'],
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs).filter(([name]) => name.endsWith('.js'));
    const entry = outputs.find(([name]) => name.endsWith('/index.js'))?.[1] as { inputs: Record<string, unknown> };
    const loaded = [...sourcesOf(Object.keys(entry.inputs))];
    expect(loaded).toContain('src/client/mcp-client.ts');
    expect(loaded).toContain('src/transport/http-wire.ts');
    expect(loaded.filter((source) => /^src\/auth\/(authorized-fetch|oauth-session|discovery|token-request|client-identity)\.ts$/.test(source))).toEqual([]);
    const everything = outputs.flatMap(([, output]) => Object.keys((output as { inputs: Record<string, unknown> }).inputs));
    expect(sourcesOf(everything)).toContain('src/auth/oauth-session.ts');
  });
});
