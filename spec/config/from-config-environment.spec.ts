import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { Registry } from '../../src/index.js';

// Registry.fromConfig of an object as an app writes it, placeholders and
// all: in Node they are filled in from process.env; where there is no Node
// process (a browser) the caller is still asked to resolve them.

jest.setTimeout(30000);

const root = join(__dirname, '..', '..');
const call = (name: string, args: object) => ({ id: '1', type: 'function' as const, function: { name, arguments: JSON.stringify(args) } });

describe('Registry.fromConfig of an object with placeholders, in Node', () => {
  const set = { RXMCP_SPEC_NODE: process.execPath, RXMCP_SPEC_FIXTURE: join(root, 'spec', 'fixtures', 'modern-server.mjs') };
  beforeAll(() => Object.assign(process.env, set));
  afterAll(() => {
    for (const name of Object.keys(set)) delete process.env[name];
  });

  it('fills them in from process.env and starts the server; a variable not set fails that server alone', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig(
      { mcpServers: { fixture: { command: '${RXMCP_SPEC_NODE}', args: ['${env:RXMCP_SPEC_FIXTURE}'], typo: 1 }, unset: { command: '${RXMCP_SPEC_NEVER_SET}' } } },
      { onWarn: (message) => warnings.push(message) },
    );
    try {
      const [answer] = await tools.executeToolCalls([call('fixture_echo', { text: 'filled in' })]);
      expect(answer).toMatchObject({ content: 'filled in' });
      expect((await firstValueFrom(tools.status$)).get('unset')).toMatchObject({ state: 'failed', error: expect.objectContaining({ message: expect.stringContaining('RXMCP_SPEC_NEVER_SET, which is not set') }) });
      // An object's warnings have no reader but onWarn.
      expect(warnings).toContainEqual('server config, server "fixture", key "typo": is not a key of a mcpServers server entry, and is ignored (did you mean "type"?)');
    } finally {
      await tools.close();
    }
  });
});

describe('Registry.fromConfig of an object with placeholders, without a Node process', () => {
  it('still refuses it, asking for resolvePlaceholders', async () => {
    // The built root entry, with process hidden as a browser has none.
    const program = `
      const { Registry } = await import(${JSON.stringify(join(root, 'dist', 'esm', 'index.js'))});
      const hidden = globalThis.process;
      let said;
      globalThis.process = undefined;
      try { Registry.fromConfig({ mcpServers: { a: { command: 'x', env: { KEY: '\${API_KEY}' } } } }); said = 'accepted'; } catch (error) { said = error.message; }
      globalThis.process = hidden;
      console.log(said);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { timeout: 20_000 });
    expect(stdout.trim()).toBe('server config, server "a", key "env.KEY": holds a placeholder: resolve it first (resolvePlaceholders, or readServerConfig from rxmcp/node)');
  });
});
