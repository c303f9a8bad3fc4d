import { z } from 'zod';
import { Grants, type LlmToolCall, Policy, type PolicyQuestion, type PolicyRule, Toolkit } from '../../src/index.js';
import { commandsOf } from '../../src/providers/policy/commands/commands.js';
import { hostMatch } from '../../src/providers/policy/hosts.js';
import { inside } from '../../src/providers/policy/paths.js';
import { type CallFacts, narrowersHold } from '../../src/providers/policy/rules.js';

const facts = (args: Record<string, unknown>, extra: Partial<CallFacts> = {}): CallFacts => ({
  tool: 'sh_run',
  args,
  root: '/srv',
  locationKeys: ['path', 'paths', 'from', 'to', 'source', 'destination'],
  readOnly: undefined,
  ...extra,
});

describe('containment, segment by segment, three-valued', () => {
  it.each([
    ['/tmp/root/a.txt', '/tmp/root', 'yes'],
    ['/tmp/root', '/tmp/root', 'yes'],
    ['/tmp/root2/a.txt', '/tmp/root', 'no'],
    ['/tmp', '/tmp/root', 'no'],
    ['/tmp/root/../etc/passwd', '/tmp/root', 'unknown'],
    ['/tmp/root/a\0b', '/tmp/root', 'unknown'],
    ['C:\\tmp\\root', '/tmp/root', 'unknown'],
    [undefined, '/tmp/root', 'unknown'],
    [42, '/tmp/root', 'unknown'],
    ['work/a.txt', 'work', 'yes'],
    ['/srv/work/./a.txt', 'work', 'yes'],
  ])('%j inside %j is %s', (path, dir, expected) => {
    expect(inside(path, dir, '/srv')).toBe(expected);
  });

  it('is unknown for a relative path with no root to measure it against', () => {
    expect(inside('work/a.txt', '/srv/work', undefined)).toBe('unknown');
  });
});

describe('commands', () => {
  it('takes wrappers off to find the program', () => {
    expect(commandsOf({ command: 'sudo -u root env A=1 nice -n 5 /usr/bin/git push --force' })).toEqual([
      { program: 'git', argv: ['push', '--force'], wrappers: ['sudo', 'env', 'nice'], byPath: true },
    ]);
    expect(commandsOf({ command: 'timeout -s KILL 10 rm -rf /tmp/x' })?.[0]?.program).toBe('rm');
    expect(commandsOf({ command: ['git', 'log'] })?.[0]?.argv).toEqual(['log']);
    expect(commandsOf({ command: 'git', args: ['push', '-f'] })?.[0]?.argv).toEqual(['push', '-f']);
    expect(commandsOf({ command: 'sudo' })?.[0]?.program).toBe('sudo');
  });

  const force: PolicyRule = { tool: 'sh_run', decision: 'ask', command: 'git', argsAny: ['--force', '-f'] };
  it.each([
    ['git status', 'no'],
    ['git push --force', 'yes'],
    ['git push -f origin main', 'yes'],
    ['sudo git push --force', 'yes'],
    ['hg push --force', 'no'],
    ['git push; rm -rf /', 'no'],
    ['git push; git push -f', 'unknown'],
  ])('a force-push rule says %s → %s', (command, expected) => {
    expect(narrowersHold(force, facts({ command }))).toBe(expected);
  });

  it('reads a call without a command as not running one', () => {
    expect(narrowersHold(force, facts({ path: '/srv/a' }))).toBe('no');
  });

  it.each([
    ['rm-recursive', 'rm -rf build', 'yes'],
    ['rm-recursive', 'rm --recursive build', 'yes'],
    ['rm-recursive', 'rm build.o', 'no'],
    ['git-force-push', 'git push origin +main', 'yes'],
    ['git-reset-hard', 'git reset --hard HEAD~1', 'yes'],
    ['disk-destroy', 'mkfs.ext4 /dev/sdb1', 'yes'],
    ['privileged', 'sudo ls', 'yes'],
    ['privileged', 'ls', 'no'],
  ])('check %s on %j is %s', (check, command, expected) => {
    expect(narrowersHold({ tool: '*', decision: 'ask', check }, facts({ command }))).toBe(expected);
  });
});

describe('hosts', () => {
  it.each([
    ['*.raku.org', 'https://docs.raku.org/language', 'yes'],
    ['*.raku.org', 'https://raku.org/', 'no'],
    ['*.raku.org', 'https://evilraku.org/', 'no'],
    ['raku.org', 'https://RAKU.org/x', 'yes'],
    ['raku.org', undefined, 'unknown'],
    ['raku.org', 'not a url', 'unknown'],
  ])('%s against %j is %s', (pattern, url, expected) => {
    expect(hostMatch(pattern, url)).toBe(expected);
  });
});

const call = (id: string, name: string, args: object = {}): LlmToolCall => ({ id, function: { name, arguments: args } });

/** A toolkit of three tools: read (annotated read-only), write and run, each echoing its call. */
function tools(): Toolkit {
  const echo = (name: string) => (args: Record<string, unknown>) => ({ content: [{ type: 'text' as const, text: `${name} ${JSON.stringify(args)}` }] });
  return new Toolkit({ name: 't' })
    .tool('fs_read', { input: z.object({ path: z.string() }), annotations: { readOnlyHint: true } }, echo('read'))
    .tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, echo('write'))
    .tool('fs_delete', { input: z.object({ path: z.string() }) }, echo('delete'))
    .tool('sh_run', { input: z.object({ command: z.string() }) }, echo('run'));
}

describe('Policy', () => {
  it('weighs every matching rule: deny beats ask beats allow, and an unmatched call is asked', async () => {
    const asked: string[] = [];
    const policy = new Policy({
      provider: tools(),
      rules: [
        { tool: 'fs_*', decision: 'allow' },
        { tool: 'fs_write', decision: 'ask' },
        { tool: 'fs_delete', decision: 'deny', note: 'deletes are not allowed here' },
      ],
      onAsk: (q) => (asked.push((q as { tool: string }).tool), { action: 'deny-once' }),
    });
    const answers = await policy.executeToolCalls([
      call('1', 'fs_read', { path: '/a' }),
      call('2', 'fs_write', { path: '/a', content: 'x' }),
      call('3', 'fs_delete', { path: '/a' }),
      call('4', 'sh_run', { command: 'ls' }),
    ]);
    expect(answers.map((a) => [a.is_error, a.content])).toEqual([
      [false, 'read {"path":"/a"}'],
      [true, 'Denied by the user'],
      [true, 'Denied by policy: deletes are not allowed here'],
      [true, 'Denied by the user'],
    ]);
    expect(asked).toEqual(['fs_write', 'sh_run']);
  });

  it('fires an allow only on a definite yes, a deny on a yes or an unknown', async () => {
    const policy = new Policy({
      provider: tools(),
      rules: [
        { tool: 'fs_write', decision: 'allow', under: '/srv/scratch' },
        { tool: 'fs_delete', decision: 'deny', under: '/srv/keep' },
      ],
      roots: { fs: '/srv' },
    });
    const answers = await policy.executeToolCalls([
      call('1', 'fs_write', { path: 'scratch/a', content: '' }),
      call('2', 'fs_write', { path: '/srv/scratch/../etc', content: '' }),
      call('3', 'fs_delete', { path: '/srv/keep/../x' }),
      call('4', 'fs_delete', { path: '/srv/other' }),
    ]);
    expect(answers.map((a) => a.content)).toEqual([
      'write {"path":"scratch/a","content":""}',
      'fs_write needs permission, and there is nobody to ask',
      'Denied by policy (rule for fs_delete)',
      'fs_delete needs permission, and there is nobody to ask',
    ]);
  });

  it('leaves out of the declarations only the tools a rule denies outright', async () => {
    const policy = new Policy({ provider: tools(), rules: [{ tool: 'fs_delete', decision: 'deny' }, { tool: 'sh_run', decision: 'deny', command: 'rm' }] });
    expect((await policy.toolsForLlm()).map((t) => t.function.name)).toEqual(['fs_read', 'fs_write', 'sh_run']);
  });

  it.each([
    [{ tool: 'x', decision: 'allow', colour: 'red' }, /unknown key "colour"/],
    [{ tool: 'x', decision: 'allow', args: ['push'] }, /args needs command/],
    [{ tool: 'x', decision: 'allow', command: '/usr/bin/git' }, /a \/ could never match/],
    [{ tool: 'f*o', decision: 'allow' }, /tool must be a name/],
    [{ tool: 'x', decision: 'maybe' }, /decision must be allow, deny or ask/],
    [{ tool: 'x', decision: 'ask', check: 'nonsense' }, /check must be one of/],
    [{ tool: 'x', decision: 'ask', host: 'http://x' }, /host must be a host name/],
  ])('refuses the invalid rule %j, naming it', (rule, message) => {
    expect(() => new Policy({ provider: tools(), rules: [rule as PolicyRule] })).toThrow(message);
    expect(() => new Policy({ provider: tools(), rules: [rule as PolicyRule] })).toThrow(/rule 0 \{/);
  });

  it('remembers an always-allow under the suggested directory, telling onGrant before the next call', async () => {
    const seen: PolicyRule[][] = [];
    const questions: PolicyQuestion[] = [];
    const policy = new Policy({
      provider: tools(),
      roots: { fs: '/srv' },
      onAsk: (q) => (questions.push(q), { action: 'always-allow' }),
      onGrant: (grants) => {
        seen.push(grants);
        throw new Error('a listener that fails changes nothing');
      },
    });
    const answers = await policy.executeToolCalls([
      call('1', 'fs_write', { path: '/srv/work/a.txt', content: '1' }),
      call('2', 'fs_write', { path: '/srv/work/deeper/b.txt', content: '2' }),
      call('3', 'fs_write', { path: '/srv/elsewhere/c.txt', content: '3' }),
    ]);
    expect(answers.map((a) => a.is_error)).toEqual([false, false, false]);
    expect(questions.map((q) => q.kind === 'permission' && q.suggestion)).toEqual(['/srv/work', '/srv/elsewhere']);
    expect(questions[0]).toMatchObject({ kind: 'permission', tool: 'fs_write', locations: ['/srv/work/a.txt'], rule: undefined });
    expect(seen[0]).toEqual([{ tool: 'fs_write', under: '/srv/work', decision: 'allow' }]);
    expect(policy.grants).toHaveLength(2);
  });

  it('takes several rules in one answer, all or nothing', async () => {
    const answers: unknown[] = [
      { action: 'always-allow', rules: [{ tool: 'fs_write', under: '/srv/w' }, { tool: 'fs_delete', bogus: true }] },
      { action: 'always-allow', rules: [{ tool: 'fs_write', under: '/srv/w' }, { tool: 'fs_delete', under: '/srv/w' }] },
    ];
    const policy = new Policy({ provider: tools(), onAsk: () => answers.shift() });
    const first = await policy.executeToolCalls([call('1', 'fs_write', { path: '/srv/w/a', content: '' })]);
    expect(first[0]?.content).toMatch(/could not be used, so nothing was remembered: .*unknown key "bogus"/);
    expect(policy.grants).toEqual([]);
    await policy.executeToolCalls([call('2', 'fs_write', { path: '/srv/w/a', content: '' })]);
    expect(policy.grants.map((g) => g.tool)).toEqual(['fs_write', 'fs_delete']);
    const third = await policy.executeToolCalls([call('3', 'fs_delete', { path: '/srv/w/b' })]);
    expect(third[0]?.is_error).toBe(false);
  });

  it('asks danger-floor calls every time: no grant satisfies them, and "always" means once', async () => {
    let asked = 0;
    const policy = new Policy({
      provider: tools(),
      rules: Policy.defaultRules(),
      grants: [{ tool: 'sh_run', decision: 'allow' }],
      onAsk: () => (asked++, { action: 'always-allow' }),
    });
    const rm = call('1', 'sh_run', { command: 'rm -rf /srv/build' });
    await policy.executeToolCalls([rm]);
    await policy.executeToolCalls([rm]);
    expect(asked).toBe(2);
    expect(policy.grants).toEqual([{ tool: 'sh_run', decision: 'allow' }]);
    const ls = await policy.executeToolCalls([call('2', 'sh_run', { command: 'ls' })]);
    expect(ls[0]?.is_error).toBe(false);
    expect(asked).toBe(2);
  });

  it('allows reads by their annotation, and never lets a grant widen a deny', async () => {
    const policy = new Policy({
      provider: tools(),
      rules: [...Policy.defaultRules(), { tool: 'fs_delete', decision: 'deny' }],
      grants: [{ tool: 'fs_delete', decision: 'allow' }],
    });
    const answers = await policy.executeToolCalls([call('1', 'fs_read', { path: '/x' }), call('2', 'fs_delete', { path: '/x' })]);
    expect(answers.map((a) => a.is_error)).toEqual([false, true]);
  });

  it('shares one grant book across policies: one "always" binds both', async () => {
    const book = new Grants();
    let asked = 0;
    const onAsk = () => (asked++, { action: 'always-allow', rule: { tool: 'fs_write' } });
    const parent = new Policy({ provider: tools(), onAsk, grantsStore: book });
    const child = new Policy({ provider: tools(), onAsk, grantsStore: book });
    await parent.executeToolCalls([call('1', 'fs_write', { path: '/a', content: '' })]);
    const answers = await child.executeToolCalls([call('2', 'fs_write', { path: '/b', content: '' })]);
    expect(answers[0]?.is_error).toBe(false);
    expect(asked).toBe(1);
    expect(child.grants).toEqual([{ tool: 'fs_write', decision: 'allow' }]);
  });

  it('answers an ask with "nobody to ask" when headless, and declines elicitations', async () => {
    const policy = new Policy({ provider: tools() });
    expect(policy.interactive).toBe(false);
    const answers = await policy.executeToolCalls([call('1', 'sh_run', { command: 'make' })]);
    expect(answers[0]).toEqual({ role: 'tool', tool_call_id: '1', content: 'sh_run needs permission, and there is nobody to ask', is_error: true });
    expect(await policy.elicitHook({ method: 'elicitation/create', params: { message: 'hi' } })).toEqual({ action: 'decline' });
  });

  it('asks one question at a time across permissions and elicitations', async () => {
    let open = 0;
    let most = 0;
    const order: string[] = [];
    const policy = new Policy({
      provider: tools(),
      onAsk: async (q) => {
        most = Math.max(most, ++open);
        order.push(q.kind);
        await new Promise((resolve) => setTimeout(resolve, 30));
        open--;
        return q.kind === 'permission' ? { action: 'allow-once' } : { action: 'accept', content: {} };
      },
    });
    const [answers, elicited] = await Promise.all([
      policy.executeToolCalls([call('1', 'sh_run', { command: 'make' })]),
      policy.elicitHook({ method: 'elicitation/create', params: { message: 'sure?' } }),
    ]);
    expect(answers[0]?.is_error).toBe(false);
    expect(elicited).toEqual({ action: 'accept', content: {} });
    expect(most).toBe(1);
    expect(order.sort()).toEqual(['elicitation', 'permission']);
  });
});
