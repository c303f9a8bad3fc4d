import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';

// These specs read the built package in dist/ (npm test builds it first), as
// a user's bundler or Node would load it.

const root = join(__dirname, '..', '..');
const NODE_ONLY = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** The public names API.md fixes for what exists so far. */
const CONTRACT = [
  'McpClient',
  'StdioTransport',
  'HttpTransport',
  'McpClientError',
  'McpTimeoutError',
  'McpServerGoneError',
  'McpProtocolError',
  'McpUnsupportedVersionError',
  'McpSpawnFailedError',
  'McpTransportClosedError',
  'McpCancelledError',
  'McpInputLoopExceededError',
  'McpHttpError',
];

/** Every module the ESM root entry loads statically, with what each imports. */
function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/(?:from|^import)\s*['"]([^'"]+)['"]/gm)].map((match) => match[1] as string);
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
    }
  };
  visit(entry);
  return graph;
}

/**
 * Every module the root entry can ever load, on demand too: static imports,
 * dynamic `import()` and `require()`, followed through relative specifiers,
 * with package specifiers listed as they are.
 */
function everyLoad(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const pattern = /(?:\bfrom\s*|^import\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/gm;
    for (const [, specifier = ''] of source.matchAll(pattern)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else seen.add(specifier);
    }
  };
  visit(entry);
  return seen;
}

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

describe('the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/esm/index.js'))) throw new Error('dist/ is missing: run npm run build (npm test does)');
  });

  it('keeps node-only modules out of the static graph of the root entry', () => {
    const graph = staticGraph(join(root, 'dist/esm/index.js'));
    expect(graph.size).toBeGreaterThan(5);
    const nodeOnly = [...graph].flatMap(([file, specifiers]) =>
      specifiers.filter((s) => NODE_ONLY.has(s)).map((s) => `${file} imports ${s}`),
    );
    expect(nodeOnly).toEqual([]);
  });

  it('loads child_process only when a stdio server starts', () => {
    const probe = "console.log(process.moduleLoadList.some((m) => m.includes('child_process')))";
    expect(node(['--input-type=module', '-e', `import 'rxmcp'; ${probe}`]).trim()).toBe('false');
    expect(node(['-e', `require('rxmcp'); ${probe}`]).trim()).toBe('false');
  });

  it('loads cross-fetch and eventsource-parser only when HTTP is used, never for stdio', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-loads-')), 'loads.txt');
    const hooks = pathToFileURL(join(root, 'spec/support/record-loads.mjs')).href;
    const server = JSON.stringify(join(root, 'spec/fixtures/modern-server.mjs'));
    const script = `
      import { register } from 'node:module';
      import { appendFileSync } from 'node:fs';
      register(${JSON.stringify(hooks)});
      const { firstValueFrom } = await import('rxjs');
      const { McpClient } = await import('rxmcp');
      const stdio = McpClient.connectStdio({ command: process.execPath, args: [${server}] });
      await firstValueFrom(stdio.listTools());
      await stdio.close();
      appendFileSync(process.env.RXMCP_LOAD_LOG, '--- http\\n');
      const http = McpClient.connectHttp({ url: 'http://127.0.0.1:9/mcp' });
      await firstValueFrom(http.describe()).catch(() => undefined);
      await http.close();`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, RXMCP_LOAD_LOG: log } });
    const [stdioLoads = '', httpLoads = ''] = readFileSync(log, 'utf8').split('--- http\n');
    expect(stdioLoads).not.toMatch(/cross-fetch|eventsource-parser/);
    expect(httpLoads).toMatch(/cross-fetch/);
  });

  it('keeps rxmcp/testing out of the root entry, and serves it from both builds', () => {
    const graph = staticGraph(join(root, 'dist/esm/index.js'));
    expect([...graph.keys()].filter((file) => file.includes('/testing/'))).toEqual([]);
    const names = "console.log(Object.keys(m).sort().join(','))";
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp/testing'; ${names}`]).trim()).toBe('FakeTransport,InProcessTransport,ProgressKit,testKit');
    expect(node(['-e', `const m = require('rxmcp/testing'); ${names}`]).trim()).toBe('FakeTransport,InProcessTransport,ProgressKit,testKit');
  });

  it('keeps rxmcp/node out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect(loadable.filter((file) => file.includes(`${sep}node${sep}`) || file.endsWith('rxmcp/node'))).toEqual([]);
    }
  });

  it('serves rxmcp/node from both builds, with types, and its helpers work there', () => {
    for (const file of ['esm/node/index.js', 'esm/node/index.d.ts', 'cjs/node/index.js', 'cjs/node/index.d.ts']) {
      expect(existsSync(join(root, 'dist', file))).toBe(true);
    }
    const directory = mkdtempSync(join(tmpdir(), 'rxmcp-node-'));
    const use = (load: string) => `
      ${load}
      (async () => {
        const store = new m.FileTokenStore({ directory: ${JSON.stringify(directory)} });
        await store.set('https://tools.example/mcp', { accessToken: 'a', issuer: 'https://as.example', clientId: 'c' });
        const kept = (await store.get('https://tools.example/mcp')).accessToken;
        await store.clear('https://tools.example/mcp');
        const signIn = await m.loopbackSignIn({ open: false, print: () => undefined });
        await signIn.close();
        console.log(Object.keys(m).sort().join(','), kept, signIn.redirectUrl.replace(/:\\d+/, ':PORT'));
      })();`;
    const expected = 'FileTokenStore,loopbackSignIn a http://127.0.0.1:PORT/callback';
    expect(node(['--input-type=module', '-e', use("import * as m from 'rxmcp/node';")]).trim()).toBe(expected);
    expect(node(['-e', use("const m = require('rxmcp/node');")]).trim()).toBe(expected);
  });

  it('exports the same names from ESM and CommonJS, the contract among them', () => {
    const esm = JSON.parse(node(['--input-type=module', '-e', "import * as m from 'rxmcp'; console.log(JSON.stringify(Object.keys(m).sort()))"]));
    const cjs = JSON.parse(node(['-e', "console.log(JSON.stringify(Object.keys(require('rxmcp')).sort()))"]));
    expect(cjs).toEqual(esm);
    expect(esm).toEqual(expect.arrayContaining(CONTRACT));
  });

  it('recognises its errors across the two builds', () => {
    const script = `
      const cjs = require('rxmcp');
      import('rxmcp').then((esm) => {
        const error = new cjs.McpTimeoutError('tools/call', 5);
        console.log(error instanceof esm.McpClientError, error.name, error.method, error.timeoutMs);
      });`;
    expect(node(['-e', script]).trim()).toBe('true McpTimeoutError tools/call 5');
  });
});
