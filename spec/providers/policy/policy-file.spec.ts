import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpConfigError, Policy } from 'rxmcp';
import { MemoryTokenStore } from '../../../src/auth/memory-token-store.js';
import { normalizeServerConfig } from '../../../src/config/normalize-server-config.js';
import { MAX_POLICY_BYTES, parsePolicyFile, readPolicyFile } from '../../../src/providers/policy/policy-file.js';
import { buildServeStack } from '../../../src/gateway/serve-stack.js';

// The policy file of `rxmcp serve --policy FILE`: plain JSON, checked whole
// before anything starts, every mistake named by file and key.

const SOURCE = 'policy.json';
const parse = (value: unknown) => parsePolicyFile(typeof value === 'string' ? value : JSON.stringify(value), SOURCE, '/srv/conf');
const refusal = (value: unknown): McpConfigError => {
  try {
    parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    return error as McpConfigError;
  }
  throw new Error('the file was accepted');
};

describe('parsePolicyFile', () => {
  it('reads every key of the format, grantsFile resolved against the policy file’s folder', () => {
    const file = parse({
      rules: [
        { tool: 'filesystem_write_file', decision: 'allow', under: '/srv/work', note: 'the work folder' },
        { tool: 'shell_*', decision: 'deny', command: 'git', args: ['push'], argsAny: ['--force'] },
      ],
      roots: { filesystem: '/srv/work' },
      leases: true,
      grantsFile: 'grants.json',
      locationKeys: ['path', 'target'],
      caseInsensitivePaths: true,
    });
    expect(file).toEqual({
      source: SOURCE,
      rules: [
        { tool: 'filesystem_write_file', decision: 'allow', under: '/srv/work', note: 'the work folder' },
        { tool: 'shell_*', decision: 'deny', command: 'git', args: ['push'], argsAny: ['--force'] },
      ],
      roots: { filesystem: '/srv/work' },
      leases: true,
      grantsFile: '/srv/conf/grants.json',
      locationKeys: ['path', 'target'],
      caseInsensitivePaths: true,
    });
    // The rules are ones a Policy takes.
    expect(() => new Policy({ provider: { toolsForLlm: async () => [], executeToolCalls: async () => [] }, rules: file.rules, roots: file.roots })).not.toThrow();
  });

  it('starts from Policy.defaultRules() when the file has no rules, with leases off and no shared store', () => {
    expect(parse({})).toEqual({ source: SOURCE, rules: Policy.defaultRules(), roots: {}, leases: false });
    expect(parse('// comments and trailing commas, as in VS Code\n{ "leases": false, }').leases).toBe(false);
  });

  it('reads sharedGrants, true or false, and leaves it out when the file does', () => {
    expect(parse({ sharedGrants: true }).sharedGrants).toBe(true);
    expect(parse({ sharedGrants: false }).sharedGrants).toBe(false);
    expect(parse({}).sharedGrants).toBeUndefined();
    expect(() => parse({ sharedGrants: 'yes' })).toThrow(/sharedGrants.*must be true or false/);
  });

  it('takes a Redis URL, alone or with a namespace (default rxmcp-serve)', () => {
    expect(parse({ redis: 'redis://127.0.0.1:6379' }).redis).toEqual({ url: 'redis://127.0.0.1:6379', namespace: 'rxmcp-serve' });
    expect(parse({ redis: { url: 'rediss://cache.internal:6380', namespace: 'team-a' } }).redis).toEqual({ url: 'rediss://cache.internal:6380', namespace: 'team-a' });
  });

  it.each([
    ['an unknown key', { rules: [], rulez: [] }, 'rulez', /is not a key of a policy file/],
    ['a rule with an unknown key', { rules: [{ tool: '*', decision: 'allow', undr: '/srv' }] }, 'rules[0].undr', /is not a key of a rule/],
    ['a rule that decides nothing known', { rules: [{ tool: '*', decision: 'allow' }, { tool: 'x', decision: 'maybe' }] }, 'rules[1]', /decision must be allow, deny or ask/],
    ['a rule with a .. in under', { rules: [{ tool: '*', decision: 'allow', under: '/srv/../etc' }] }, 'rules[0]', /under must be a plain path/],
    ['a rule with args but no command', { rules: [{ tool: '*', decision: 'deny', args: ['push'] }] }, 'rules[0]', /args needs command/],
    ['an unknown check', { rules: [{ tool: '*', decision: 'deny', check: 'rm-everything' }] }, 'rules[0]', /check must be one of/],
    ['a rule value nested', { rules: [{ tool: '*', decision: 'deny', args: [['push']] }] }, 'rules[0].args', /list of words/],
    ['a rule value of the wrong type', { rules: [{ tool: '*', decision: 'deny', note: 7 }] }, 'rules[0].note', /must be text/],
    ['rules that are not a list', { rules: { tool: '*', decision: 'allow' } }, 'rules', /must be a list of rules/],
    ['a rule that is not an object', { rules: ['allow everything'] }, 'rules[0]', /must be an object/],
    ['a relative root', { roots: { fs: 'work' } }, 'roots.fs', /absolute plain path/],
    ['a root with ~', { roots: { fs: '~/work' } }, 'roots.fs', /absolute plain path/],
    ['leases not a boolean', { leases: 'yes' }, 'leases', /true or false/],
    ['caseInsensitivePaths not a boolean', { caseInsensitivePaths: 1 }, 'caseInsensitivePaths', /true or false/],
    ['locationKeys not words', { locationKeys: ['path', 3] }, 'locationKeys', /list of words/],
    ['a redis URL of another scheme', { redis: 'http://127.0.0.1:6379' }, 'redis', /redis:\/\/ or rediss:\/\//],
    ['an unknown key of redis', { redis: { url: 'redis://h', db: 2 } }, 'redis.db', /is not a key of redis/],
    ['an empty namespace', { redis: { url: 'redis://h', namespace: '' } }, 'redis.namespace', /non-empty/],
    ['both redis and grantsFile', { redis: 'redis://h', grantsFile: 'g.json' }, 'grantsFile', /without redis/],
    ['an empty grantsFile', { grantsFile: '' }, 'grantsFile', /must be a path/],
  ])('refuses %s, naming the file and the key', (_name, value, key, reason) => {
    const error = refusal(value);
    expect(error.source).toBe(SOURCE);
    expect(error.key).toBe(key);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`"${SOURCE}"`);
  });

  it('never quotes a Redis URL, which may hold a password', () => {
    const error = refusal({ redis: 'http://user:hunter2-secret@cache:6379' });
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses text that is not JSON without quoting it, and text that is not an object', () => {
    const error = refusal('{ "redis": "redis://:s3cret-pass@h", oops }');
    expect(error.message).toBe('"policy.json": is not valid JSON');
    expect(refusal('[]').message).toMatch(/must hold a JSON object/);
    expect(refusal('null').message).toMatch(/must hold a JSON object/);
  });

  describe('hostile files', () => {
    it('keeps __proto__ a plain key: refused at the top and in a rule, an ordinary prefix in roots', () => {
      expect(refusal('{"__proto__": {"leases": true}}').key).toBe('__proto__');
      expect(refusal('{"rules": [{"tool": "*", "decision": "deny", "__proto__": {"decision": "allow"}}]}').key).toBe('rules[0].__proto__');
      const roots = parse('{"roots": {"__proto__": "/srv/a", "constructor": "/srv/b"}}').roots;
      expect(Object.getPrototypeOf(roots)).toBeNull();
      expect(Object.entries(roots)).toEqual([
        ['__proto__', '/srv/a'],
        ['constructor', '/srv/b'],
      ]);
      expect(({} as Record<string, unknown>).leases).toBeUndefined();
    });

    it('refuses a value nested 100000 deep without overflowing the stack', () => {
      const deep = `{"rules": [{"tool": "*", "decision": "deny", "args": ${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
      expect(refusal(deep).key).toBe('rules[0].args');
      const deepRoots = `{"roots": {"fs": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`;
      expect(refusal(deepRoots).key).toBe('roots.fs');
    });

    it('refuses text past the size bound before parsing it', () => {
      const big = JSON.stringify({ rules: [{ tool: '*', decision: 'allow', note: 'x'.repeat(MAX_POLICY_BYTES) }] });
      expect(refusal(big).message).toMatch(/is longer than/);
    });

    it('quotes a key with control and bidi characters as escapes, cut short', () => {
      const name = `evil\u001b[31m\u202e${'k'.repeat(500)}`;
      const error = refusal(JSON.stringify({ [name]: 1 }));
      expect(error.message).not.toMatch(/[\u001b\u202e]/);
      expect(error.message).toContain('\\u001b');
      expect(error.message.length).toBeLessThan(400);
    });
  });
});

describe('readPolicyFile', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'rxmcp-policy-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a file, grantsFile resolved beside it', async () => {
    const path = join(folder, 'policy.json');
    writeFileSync(path, JSON.stringify({ rules: [{ tool: '*', decision: 'ask' }], grantsFile: 'kept/grants.json' }));
    const file = await readPolicyFile(path);
    expect(file.rules).toEqual([{ tool: '*', decision: 'ask' }]);
    expect(file.grantsFile).toBe(join(folder, 'kept', 'grants.json'));
  });

  it('refuses a missing file, a folder and a file past the bound with McpConfigError naming it', async () => {
    await expect(readPolicyFile(join(folder, 'none.json'))).rejects.toThrow(/none\.json": cannot be read: ENOENT/);
    await expect(readPolicyFile(folder)).rejects.toThrow(/is not a file/);
    const big = join(folder, 'big.json');
    writeFileSync(big, ' '.repeat(MAX_POLICY_BYTES + 1));
    await expect(readPolicyFile(big)).rejects.toThrow(McpConfigError);
    await expect(readPolicyFile(big)).rejects.toThrow(/is larger than/);
  });
});

describe('server/tools §Tool: clients MUST consider tool annotations untrusted unless they come from trusted servers (the policy file)', () => {
  it('reads trustAnnotations as a list of server names, and refuses anything else', () => {
    expect(parse({ trustAnnotations: ['fs', 'docs'] }).trustAnnotations).toEqual(['fs', 'docs']);
    expect(parse({}).trustAnnotations).toBeUndefined();
    expect(refusal({ trustAnnotations: true }).message).toContain('trustAnnotations');
    expect(refusal({ trustAnnotations: ['fs', ''] }).message).toContain('trustAnnotations');
  });

  it("lets `rxmcp serve` pass a read of only the servers the file trusts, and asks about the others' reads", async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-trust-')));
    const fsServer = { command: process.execPath, args: [join(__dirname, '..', '..', '..', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder], cwd: folder };
    const config = normalizeServerConfig({ mcpServers: { fs: fsServer, fsx: fsServer } });
    // No rules: Policy.defaultRules(), whose read allow leans on readOnlyHint.
    const policy = parse({ trustAnnotations: ['fs', 'ghost'] });
    const warnings: string[] = [];
    const stack = await buildServeStack({ config, policy, tokenStore: new MemoryTokenStore(), onWarn: (message) => warnings.push(message) });
    try {
      // As a host does: the tools are listed before any call.
      await stack.policy.toolsForLlm();
      const list = (id: string, tool: string) => ({ id, type: 'function' as const, function: { name: tool, arguments: { path: folder } } });
      const [trusted, untrusted] = await stack.policy.executeToolCalls([list('c1', 'fs_list_directory'), list('c2', 'fsx_list_directory')]);
      expect(trusted?.is_error).toBe(false);
      // Asked, with no host to ask: refused.
      expect(untrusted?.is_error).toBe(true);
      // What the gateway publishes to its hosts: fsx's hints are not passed off as the gateway's own.
      expect((await stack.policy.toolAnnotations('fs_list_directory'))?.readOnlyHint).toBe(true);
      expect((await stack.policy.toolAnnotations('fsx_list_directory'))?.readOnlyHint).toBeUndefined();
      // A name the config does not run is said, not silently taken.
      expect(warnings.filter((warning) => warning.includes('trusts'))).toEqual(['the policy file trusts the annotations of "ghost", which the config does not run']);
    } finally {
      await stack.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('trusts a server whose name is a prototype key as it trusts any other (found by an attack review)', async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-trust-')));
    const fsServer = { command: process.execPath, args: [join(__dirname, '..', '..', '..', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder], cwd: folder };
    // As a config file spells it: JSON, where `__proto__` is an ordinary key.
    const config = normalizeServerConfig(JSON.parse(`{"mcpServers":{"__proto__":${JSON.stringify(fsServer)}}}`));
    const stack = await buildServeStack({ config, policy: parse({ trustAnnotations: ['__proto__'] }), tokenStore: new MemoryTokenStore(), onWarn: () => undefined });
    try {
      await stack.policy.toolsForLlm();
      const [read] = await stack.policy.executeToolCalls([{ id: 'c1', type: 'function', function: { name: '__proto___list_directory', arguments: { path: folder } } }]);
      expect(read?.is_error).toBe(false);
    } finally {
      await stack.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);
});
