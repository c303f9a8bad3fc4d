import { z } from 'zod';
import { McpClientError, Registry, Toolkit, type ToolProvider } from '../../src/index.js';

const kit = (name: string, ...tools: string[]): Toolkit => {
  const toolkit = new Toolkit({ name });
  for (const tool of tools) {
    toolkit.tool(tool, { description: `${name}/${tool}`, input: z.object({}) }, () => ({ content: [{ type: 'text', text: `${name}:${tool}` }] }));
  }
  return toolkit;
};
const call = (id: string, name: string) => ({ id, function: { name, arguments: '' } });

describe('Registry', () => {
  it('routes by the longest matching prefix, with the separator inside tool names', async () => {
    const registry = new Registry().add(kit('fs', 'read', 'write_all'), { prefix: 'fs' }).add(kit('fsx', 'read'), { prefix: 'fs_ext' });
    expect((await registry.toolsForLlm()).map((t) => t.function.name)).toEqual(['fs_read', 'fs_write_all', 'fs_ext_read']);
    const answers = await registry.executeToolCalls([call('1', 'fs_ext_read'), call('2', 'fs_write_all'), call('3', 'fs_read')]);
    expect(answers.map((a) => a.content)).toEqual(['fsx:read', 'fs:write_all', 'fs:read']);
  });

  it('refuses a duplicate prefix, an empty one, and a provider without the bridge methods', () => {
    const registry = new Registry().add(kit('a'), { prefix: 'a' });
    expect(() => registry.add(kit('b'), { prefix: 'a' })).toThrow(new McpClientError('prefix "a" is taken'));
    expect(() => registry.add(kit('b'), { prefix: '' })).toThrow(/non-empty/);
    expect(() => registry.add({} as ToolProvider, { prefix: 'c' })).toThrow(/toolsForLlm/);
  });

  it('rejects two tools that end up with one name', async () => {
    const registry = new Registry().add(kit('fs', 'ext_read'), { prefix: 'fs' }).add(kit('fsx', 'read'), { prefix: 'fs_ext' });
    await expect(registry.toolsForLlm()).rejects.toThrow('tool "fs_ext_read" of "fs" collides with "fs_ext"');
  });

  it('fails only the calls of a provider that throws', async () => {
    const broken: ToolProvider = {
      toolsForLlm: async () => [],
      executeToolCalls: async () => {
        throw new Error('exploded');
      },
    };
    const registry = new Registry().add(broken, { prefix: 'bad' }).add(kit('ok', 'go'), { prefix: 'ok' });
    const answers = await registry.executeToolCalls([call('1', 'bad_x'), call('2', 'ok_go')]);
    expect(answers).toEqual([
      { role: 'tool', tool_call_id: '1', content: 'bad failed: exploded', is_error: true },
      { role: 'tool', tool_call_id: '2', content: 'ok:go', is_error: false },
    ]);
  });

  it('leaves out, and reports, a provider whose tools cannot be listed', async () => {
    const warnings: string[] = [];
    const down: ToolProvider = { toolsForLlm: () => Promise.reject(new Error('offline')), executeToolCalls: async () => [] };
    const registry = new Registry({ onWarn: (w) => warnings.push(w) }).add(down, { prefix: 'down' }).add(kit('up', 'x'), { prefix: 'up' });
    expect((await registry.toolsForLlm()).map((t) => t.function.name)).toEqual(['up_x']);
    expect(warnings).toEqual(['left out the tools of "down": offline']);
  });

  it('nests, removes and lists providers', async () => {
    const inner = new Registry({ separator: '.' }).add(kit('git', 'log'), { prefix: 'git' });
    const outer = new Registry().add(inner, { prefix: 'vcs' }).add(kit('fs', 'read'), { prefix: 'fs' });
    expect((await outer.toolsForLlm({ names: 'real' })).map((t) => t.function.name)).toEqual(['vcs_git.log', 'fs_read']);
    expect((await outer.executeToolCalls([call('1', 'vcs_git.log')]))[0]?.content).toBe('git:log');
    // A separator a model API refuses is shown under a portable name, which runs the same tool.
    const [shown] = (await outer.toolsForLlm()).map((t) => t.function.name);
    expect(shown).toMatch(/^vcs_git_log_[0-9a-v]{8}$/);
    expect((await outer.executeToolCalls([call('2', shown as string)]))[0]?.content).toBe('git:log');
    expect(outer.providers.map((p) => p.prefix)).toEqual(['vcs', 'fs']);
    expect(outer.remove('vcs')).toBe(inner);
    expect(outer.remove('vcs')).toBeUndefined();
    expect(outer.providers.map((p) => p.prefix)).toEqual(['fs']);
  });
});

describe('Toolkit', () => {
  it('refuses a second tool of the same name', () => {
    expect(() => kit('k', 'a', 'a')).toThrow(/already has a tool "a"/);
  });

  it('turns a throwing handler into the tool\'s own error result', async () => {
    const toolkit = new Toolkit({ name: 'k' }).tool('boom', { input: z.object({}) }, () => {
      throw new Error('handler broke');
    });
    expect(await toolkit.executeToolCalls([call('1', 'boom')])).toEqual([
      { role: 'tool', tool_call_id: '1', content: 'handler broke', is_error: true },
    ]);
  });

  it('overlaps read-only idempotent calls and runs identical ones once', async () => {
    let running = 0;
    let peak = 0;
    let runs = 0;
    const toolkit = new Toolkit({ name: 'k' }).tool(
      'look',
      { input: z.object({ n: z.number() }), annotations: { readOnlyHint: true, idempotentHint: true } },
      async ({ n }) => {
        runs++;
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return { content: [{ type: 'text', text: String(n) }] };
      },
    );
    const answers = await toolkit.executeToolCalls([1, 2, 1, 3].map((n, i) => ({ id: String(i), function: { name: 'look', arguments: { n } } })));
    expect(answers.map((a) => a.content)).toEqual(['1', '2', '1', '3']);
    expect(runs).toBe(3);
    expect(peak).toBe(3);
  });
});
