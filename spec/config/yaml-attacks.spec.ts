import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { McpConfigError, parseServerConfig } from '../../src/index.js';

// Goose's YAML from a hostile hand: an alias bomb, deep nesting, a huge
// file, prototype keys; and a machine without the optional yaml package.

jest.setTimeout(30000);

const root = join(__dirname, '..', '..');
const failure = (text: string, options = {}): Promise<McpConfigError> =>
  parseServerConfig(text, { path: 'config.yaml', ...options }).then(
    () => Promise.reject(new Error('expected a McpConfigError')),
    (error: McpConfigError) => error,
  );

describe('a hostile Goose config.yaml', () => {
  it('refuses an alias bomb ("billion laughs") before it grows, saying so in one line', async () => {
    const levels = Array.from({ length: 9 }, (_, n) => {
      const previous = String.fromCharCode(97 + n);
      return `${String.fromCharCode(98 + n)}: &${String.fromCharCode(98 + n)} [${Array(9).fill(`*${previous}`).join(', ')}]`;
    });
    const bomb = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]', ...levels, 'extensions:', '  x: { type: stdio, cmd: node }'].join('\n');
    const error = await failure(bomb);
    expect(error).toBeInstanceOf(McpConfigError);
    expect(error.message).toBe('"config.yaml": is not valid YAML: it uses aliases more than 100 times, as a file built to exhaust memory does');
  });

  it('refuses nesting past what the parser can walk, and text past the size bound before parsing it', async () => {
    expect((await failure(`extensions: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`)).message).toMatch(/^"config\.yaml": is not valid YAML( \(line \d+, column \d+\))?/);
    expect((await failure('extensions: {}\n'.padEnd(4096, '#'), { maxChars: 1024 })).message).toContain('longer than 1024 characters');
  });

  it('says where malformed YAML is without quoting the text around it, and refuses a key given twice', async () => {
    const error = await failure('extensions:\n  a:\n    type: stdio\n    cmd: "sk-yaml-secret\n');
    expect(error.message).toMatch(/^"config\.yaml": is not valid YAML/);
    expect(error.message).not.toContain('sk-yaml-secret');
    expect((await failure('extensions:\n  a: { type: stdio, cmd: x }\n  a: { type: stdio, cmd: y }\n')).message).toMatch(/is not valid YAML \(line 3, column 3\)/);
  });

  it('reads an entry of 200,000 keys (each warned of, the warnings bounded) within a bound, and still refuses a key given twice', async () => {
    // The yaml package's own check of keys given twice compares every key with
    // every other: minutes for this file. Run in a process of its own, so that a
    // parse that blocks is ended by the bound rather than blocking the runner.
    const program = `
      const { parseServerConfig } = await import(${JSON.stringify(join(root, 'dist', 'esm', 'index.js'))});
      const keys = Array.from({ length: 200000 }, (_, n) => '    k' + n + ': 1\\n').join('');
      const config = await parseServerConfig('extensions:\\n  a:\\n    type: stdio\\n    cmd: node\\n' + keys, { path: 'config.yaml' });
      console.log(JSON.stringify({ servers: config.servers.map((entry) => [entry.name, entry.error?.message ?? null]), warnings: config.warnings.length }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ servers: [['a', null]], warnings: 98 });
    // In a nested map too, at the second one's place.
    expect((await failure('extensions:\n  a:\n    type: stdio\n    envs: { X: 1, Y: 2, X: 3 }\n')).message).toBe('"config.yaml": is not valid YAML (line 4, column 25)');
  });

  it('keeps __proto__ an ordinary name, and reads no custom tag or merge key as code or data', async () => {
    const config = await parseServerConfig('extensions:\n  __proto__:\n    type: stdio\n    cmd: node\n    envs: { __proto__: x, polluted: y }\n  tagged:\n    type: stdio\n    cmd: !!js/function "f"\n', { path: 'config.yaml' });
    expect(config.servers.map((entry) => entry.name)).toEqual(['__proto__', 'tagged']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(config.servers[1]).toMatchObject({ command: 'f' });
  });
});

describe('a YAML file where the yaml package is not installed', () => {
  it('fails in one line naming npm install yaml, while JSON reads as before', async () => {
    const program = `
      const { parseServerConfig } = await import(${JSON.stringify(join(root, 'dist', 'esm', 'index.js'))});
      const json = await parseServerConfig('{"mcpServers": {"a": {"command": "x"}}}');
      const error = await parseServerConfig('extensions:\\n  a: { type: stdio, cmd: x }\\n', { path: 'config.yaml' }).catch((error) => error);
      console.log(JSON.stringify({ json: json.servers.length, name: error.name, message: error.message }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', join(root, 'spec', 'fixtures', 'hide-package.mjs'), '--input-type=module', '-e', program], {
      env: { ...process.env, HIDE_PACKAGE: 'yaml' },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({ json: 1, name: 'McpConfigError', message: '"config.yaml": is YAML, which needs the optional package yaml: npm install yaml' });
  });
});
