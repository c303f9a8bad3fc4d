import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// zod is a third of the files a load of the root entry used to cost
// (PERFORMANCE.md, "Fourth pass"): what the root entry reads from servers
// and hooks is checked by hand (src/protocol/shapes.ts). These run the built
// package in a child process and list every file it loaded, through the ESM
// loader (a hook) and through require (Module._cache).

const root = join(__dirname, '..', '..');
const hooks = JSON.stringify(pathToFileURL(join(root, 'spec/support/record-files.mjs')).href);
const server = JSON.stringify(join(root, 'spec/fixtures/modern-server.mjs'));

/** The files a child loaded running `body` after `rxmcp` (and rxjs) are loaded, in one build. */
function filesLoaded(build: 'esm' | 'cjs', body: string): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-files-')), 'files.txt');
  const report = `appendFileSync(process.env.RXMCP_LOAD_LOG, Object.keys(Module._cache).join('\\n') + '\\n');`;
  const script =
    build === 'esm'
      ? `import Module, { register } from 'node:module';
         import { appendFileSync } from 'node:fs';
         register(${hooks});
         const { McpClient } = await import('rxmcp');
         const { firstValueFrom } = await import('rxjs');
         ${body}
         ${report}`
      : `const Module = require('node:module');
         const { register } = Module;
         const { appendFileSync } = require('node:fs');
         register(${hooks});
         const { McpClient } = require('rxmcp');
         const { firstValueFrom } = require('rxjs');
         (async () => { ${body} ${report} })();`;
  execFileSync(process.execPath, build === 'esm' ? ['--input-type=module', '-e', script] : ['-e', script], {
    cwd: root,
    env: { ...process.env, RXMCP_LOAD_LOG: log },
    timeout: 30_000,
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const ofZod = (files: string[]): string[] => files.filter((file) => /[\\/]node_modules[\\/]zod[\\/]/.test(file));

describe('the root entry and zod', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/esm/index.js'))) throw new Error('dist/ is missing: run npm run build (npm test does)');
  });

  it.each(['esm', 'cjs'] as const)('loads no zod module when it is imported (%s)', (build) => {
    const files = filesLoaded(build, '');
    expect(files.some((file) => /[\\/]dist[\\/](esm|cjs)[\\/]index\.js$/.test(file))).toBe(true);
    expect(ofZod(files)).toEqual([]);
  });

  it.each(['esm', 'cjs'] as const)('loads none either while it talks to a server in both eras, checking every result it reads (%s)', (build) => {
    const body = `
      for (const era of ['modern', 'legacy']) {
        const mcp = McpClient.connectStdio({ command: process.execPath, args: [${server}], era });
        const description = await firstValueFrom(mcp.describe());
        await firstValueFrom(mcp.listTools());
        await firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
        const read = await firstValueFrom(mcp.readResource('fixture://readme'));
        const prompt = await firstValueFrom(mcp.getPrompt('greet', { name: 'Ada', language: 'English' }));
        const completion = await firstValueFrom(mcp.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'E' }));
        await mcp.close();
        if (description.era !== era) throw new Error('wrong era: ' + description.era);
        if (read.contents.length !== 1 || prompt.messages.length !== 1 || completion.completion.values.length !== 3) throw new Error('unexpected answers');
      }`;
    expect(ofZod(filesLoaded(build, body))).toEqual([]);
  });
});
