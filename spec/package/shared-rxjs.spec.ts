import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

// The build imports each rxjs name from the rxjs module that defines it
// (scripts/rxjs-internal-imports.mjs), not from rxjs's index. These specs
// check, on the built package as Node and a bundler load it, that a user's
// own `import ... from 'rxjs'` still meets the same rxjs: the same
// Observable class, the same config object.

const root = join(__dirname, '..', '..');
const server = JSON.stringify(join(root, 'spec/fixtures/modern-server.mjs'));

/** What the program below reports. */
interface Report {
  isUsersObservable: boolean;
  toolsListed: number;
  unhandled: string;
}

/**
 * A program using rxjs as a user does, with rxmcp from `rxmcp` (the name is
 * replaced for a bundle): it lists a real server's tools with its own
 * firstValueFrom, asks whether rxmcp's Observable is an instance of its own
 * Observable, and sets its own config.onUnhandledError, which must receive
 * the error of an rxmcp call subscribed with no error callback.
 */
function program(rxmcp: string, load: 'import' | 'require'): string {
  const imports =
    load === 'import'
      ? `import { Observable, config, firstValueFrom } from 'rxjs';\nimport { McpClient } from ${JSON.stringify(rxmcp)};`
      : `const { Observable, config, firstValueFrom } = require('rxjs');\nconst { McpClient } = require(${JSON.stringify(rxmcp)});`;
  return `${imports}
(async () => {
  const client = McpClient.connectStdio({ command: process.execPath, args: [${server}] });
  const tools$ = client.listTools();
  const tools = await firstValueFrom(tools$);
  await client.close();
  const unhandled = new Promise((resolve) => { config.onUnhandledError = resolve; });
  client.listTools({ refresh: true }).subscribe(() => undefined);
  const error = await unhandled;
  console.log(JSON.stringify({ isUsersObservable: tools$ instanceof Observable, toolsListed: tools.length, unhandled: error.name }));
})();
`;
}

async function run(args: string[]): Promise<Report> {
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(stdout) as Report;
}

describe("the built package's rxjs", () => {
  it.each([
    ['ESM', ['--input-type=module', '-e', program('rxmcp', 'import')]],
    ['CommonJS', ['-e', program('rxmcp', 'require')]],
  ])("is the user's own rxjs in the %s build: rxmcp's Observables are instances of the user's Observable, and the user's config is the one rxmcp's subscribers read", async (_, args) => {
    const report = await run(args);
    expect(report.isUsersObservable).toBe(true);
    expect(report.toolsListed).toBeGreaterThan(0);
    expect(report.unhandled).toBe('McpTransportClosedError');
  });

  it("loads the rxjs modules rxmcp uses and not rxjs's index, which would load all of rxjs, in both builds", async () => {
    // Node keeps every CommonJS file it loads in require.cache, for import too.
    const loaded = "console.log(JSON.stringify(Object.keys(require.cache).filter((file) => file.includes('/node_modules/rxjs/'))))";
    const { stdout: esm } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `import 'rxmcp'; import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${loaded}`], { cwd: root, encoding: 'utf8' });
    const { stdout: cjs } = await promisify(execFile)(process.execPath, ['-e', `require('rxmcp'); ${loaded}`], { cwd: root, encoding: 'utf8' });
    for (const files of [JSON.parse(esm) as string[], JSON.parse(cjs) as string[]]) {
      expect(files.some((file) => file.endsWith('/rxjs/dist/cjs/internal/Observable.js'))).toBe(true);
      expect(files.filter((file) => file.endsWith('/rxjs/dist/cjs/index.js'))).toEqual([]);
    }
  });

  it.each([
    ['default', 'browser', [], 'esm5'],
    ['es2015', 'browser', ['es2015'], 'esm'],
    ['node', 'node', [], 'cjs'],
  ] as const)("is the user's own rxjs in a bundle made with the %s condition: each rxjs module is bundled once, from the build the user's rxjs comes from", async (_, platform, conditions, folder) => {
    const out = mkdtempSync(join(tmpdir(), 'rxmcp-shared-rxjs-'));
    try {
      const result = await build({
        stdin: { contents: program(join(root, 'dist/esm/index.js'), 'import'), resolveDir: root, loader: 'js' },
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        conditions: [...conditions],
        target: 'es2022',
        external: ['node:*'],
        metafile: true,
        logLevel: 'silent',
      });
      const rxjsFiles = Object.keys(result.metafile.inputs).flatMap((input) => /node_modules\/rxjs\/(.+)$/.exec(input)?.[1] ?? []);
      expect(rxjsFiles).toContain(`dist/${folder}/index.js`);
      expect(rxjsFiles).toContain(`dist/${folder}/internal/Observable.js`);
      expect(rxjsFiles.filter((file) => !file.startsWith(`dist/${folder}/`))).toEqual([]);
      const bundle = join(out, 'bundle.mjs');
      writeFileSync(bundle, result.outputFiles[0]?.text ?? '');
      const report = await run([bundle]);
      expect(report.isUsersObservable).toBe(true);
      expect(report.toolsListed).toBeGreaterThan(0);
      expect(report.unhandled).toBe('McpTransportClosedError');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("runs in a Node bundle of ES modules that leaves rxjs outside, and is the user's own rxjs there", async () => {
    // A bundler meets the build's '#rxjs' import with its own conditions: with `node` alone it would bundle rxjs.cjs,
    // whose requires of an external rxjs an ES module bundle cannot run.
    const result = await build({
      stdin: { contents: program(join(root, 'dist/esm/index.js'), 'import'), resolveDir: root, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'es2022',
      external: ['node:*', 'rxjs', 'rxjs/*'],
      logLevel: 'silent',
    });
    // Inside the repository, so the bundle's own imports of rxjs find node_modules.
    mkdirSync(join(root, 'test-artifacts'), { recursive: true });
    const bundle = join(root, 'test-artifacts', `shared-rxjs-${process.pid}.mjs`);
    writeFileSync(bundle, result.outputFiles[0]?.text ?? '');
    try {
      const report = await run([bundle]);
      expect(report.isUsersObservable).toBe(true);
      expect(report.toolsListed).toBeGreaterThan(0);
    } finally {
      rmSync(bundle, { force: true });
    }
  });
});

describe("the build's rewrite of rxjs imports", () => {
  const rewrite = async (line: string): Promise<string> => {
    const folder = mkdtempSync(join(tmpdir(), 'rxmcp-rxjs-rewrite-'));
    try {
      const file = join(folder, 'built.js');
      writeFileSync(file, `${line}\n`);
      const script = `import { rewriteRxjsImports } from './scripts/rxjs-internal-imports.mjs';
        import { readFileSync } from 'node:fs';
        try { await rewriteRxjsImports([${JSON.stringify(file)}]); console.log(readFileSync(${JSON.stringify(file)}, 'utf8').trim()); }
        catch (error) { console.log('failed: ' + error.message); }`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
      return stdout.trim();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };

  it('imports each name from the rxjs module that defines it, keeping local names', async () => {
    expect(await rewrite('import { map as map2, Observable, config } from "rxjs";')).toBe(
      ['import { map as map2 } from "rxjs/internal/operators/map";', 'import { Observable } from "rxjs/internal/Observable";', 'import { config } from "rxjs/internal/config";'].join('\n'),
    );
  });

  it("stops the build when a name is not one rxjs's index exports from an internal module", async () => {
    expect(await rewrite('import { Observer } from "rxjs";')).toMatch(/^failed: .*imports Observer from rxjs, which rxjs 7\.8\.\d+'s index does not export from an internal module/);
  });

  it('stops the build when a file reaches rxjs in a way it does not rewrite', async () => {
    expect(await rewrite('import * as rxjs from "rxjs";')).toMatch(/^failed: .*reaches rxjs in a way this build does not rewrite/);
    expect(await rewrite('const rxjs = await import("rxjs");')).toMatch(/^failed: .*reaches rxjs in a way this build does not rewrite/);
  });
});
