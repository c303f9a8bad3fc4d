import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type OAuthServers, startOAuthServers } from '../support/oauth.js';

// Every optional subpath, used from the built package (npm test builds it
// first) by a program that cannot find the subpath's package
// (spec/fixtures/hide-package.mjs, for import() and require() alike), in
// both module systems: it says in one line which package to install and
// how, with Node's own error as the cause. Only that package's absence reads
// so; a dependency of the package gone missing passes through as it is.

const root = join(__dirname, '..', '..');
const program = join(root, 'spec/fixtures/missing-peer-client.mjs');
const hide = join(root, 'spec/fixtures/hide-package.mjs');

/** What one step of the program gave: `{ ok }`, or the error's name, message and the code of what caused it. */
type Step = { ok?: unknown; name?: string; message?: string; cause?: string };

async function run(build: 'esm' | 'cjs', subpath: string, hidden?: string, ...rest: string[]): Promise<Step[]> {
  const args = [...(hidden === undefined ? [] : ['--import', hide]), program, build, subpath, ...rest];
  const env = hidden === undefined ? process.env : { ...process.env, HIDE_PACKAGE: hidden };
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(stdout) as Step[];
}

function needs(who: string, name: string): string {
  return `${who} needs the optional package ${name}: npm install ${name}`;
}

let oauth: OAuthServers;

beforeAll(async () => {
  oauth = await startOAuthServers();
}, 30_000);

afterAll(() => oauth?.stop());

describe.each(['esm', 'cjs'] as const)('the %s build', (build) => {
  it.each([
    ['ai-sdk', 'ai', 'rxmcp/ai-sdk'],
    ['langchain', '@langchain/core', 'rxmcp/langchain'],
    ['gateway', '@modelcontextprotocol/server', 'rxmcp/gateway'],
  ])('says which package rxmcp/%s needs, and how to install it, when %s is not installed', async (subpath, name, who) => {
    expect(await run(build, subpath, name)).toEqual([{ name: 'McpClientError', message: needs(who, name), cause: 'ERR_MODULE_NOT_FOUND' }]);
  });

  it('makes tools for the AI SDK and LangChain when their packages are installed', async () => {
    expect(await run(build, 'ai-sdk')).toEqual([{ ok: ['add'] }]);
    expect(await run(build, 'langchain')).toEqual([{ ok: '5' }]);
  });

  it('builds Redis stores from a url without redis installed, fails each of their operations saying to install it, and still closes them', async () => {
    const failed = (store: string, operation: string): Step => ({
      name: 'McpStoreError',
      message: `${store} at redis://127.0.0.1:9 (namespace "missing-peer"): ${operation} failed: ${needs('rxmcp/redis', 'redis')}`,
      cause: 'ERR_MODULE_NOT_FOUND',
    });
    expect(await run(build, 'redis', 'redis')).toEqual([failed('RedisLeaseTable', 'acquire'), failed('RedisLeaseTable', 'release'), failed('RedisGrants', 'read'), { ok: 2 }]);
  });

  it('says to install jose when a client signing in with auth.privateKeyJwt cannot find it', async () => {
    expect(await run(build, 'jose', 'jose', oauth.url)).toEqual([
      { name: 'McpAuthError', message: `sign-in failed at token: ${needs('auth.privateKeyJwt', 'jose')}`, cause: 'ERR_MODULE_NOT_FOUND' },
    ]);
  });

  it("passes on Node's own error when the package is there but one of its dependencies is not", async () => {
    const [step] = await run(build, 'ai-sdk', '@ai-sdk/provider-utils');
    expect(step?.name).toBe('Error');
    expect(step?.message).toMatch(/^Cannot find package '@ai-sdk\/provider-utils'/);
  });
});
