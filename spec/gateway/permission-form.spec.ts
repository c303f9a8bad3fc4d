import { permissionAnswer, permissionForm, permissionKey } from '../../src/gateway/permission-form.js';
import type { PermissionQuestion } from '../../src/index.js';

const question = (args: Record<string, unknown>, extra: Partial<PermissionQuestion> = {}): PermissionQuestion => ({
  kind: 'permission',
  tool: 'fs_write_file',
  arguments: args,
  call: { id: 'c1', type: 'function', function: { name: 'fs_write_file', arguments: JSON.stringify(args) } },
  rule: { tool: 'fs_*', decision: 'ask', note: 'writes are looked at' },
  locations: ['/work/a.txt'],
  suggestion: '/work',
  caller: 'model',
  ...extra,
});

describe('the permission form', () => {
  it('shows the tool, the note, the arguments and the four choices, "always" under the suggestion and for this host only', () => {
    const form = permissionForm(question({ path: '/work/a.txt' }));
    expect(form.message).toBe(
      'Allow the tool "fs_write_file" to run?\nRule: writes are looked at\nLocations: "/work/a.txt"\nArguments: {"path":"/work/a.txt"}\n"Always" choices apply for this host only.',
    );
    const decision = (form.requestedSchema.properties as Record<string, { oneOf: Array<{ const: string; title: string }> }>).decision;
    expect(decision?.oneOf.map((choice) => choice.const)).toEqual(['allow-once', 'deny-once', 'always-allow', 'always-deny']);
    expect(decision?.oneOf[2]?.title).toBe('Always allow fs_write_file under /work, for this host only');
  });

  it('says so when the policy file shares grants between hosts', () => {
    const form = permissionForm(question({ path: '/work/a.txt' }), true);
    expect(form.message.split('\n').at(-1)).toBe('"Always" choices apply for every host of this gateway.');
    const decision = (form.requestedSchema.properties as Record<string, { oneOf: Array<{ const: string; title: string }> }>).decision;
    expect(decision?.oneOf.slice(2).map((choice) => choice.title)).toEqual(['Always allow fs_write_file under /work, for every host of this gateway', 'Always deny fs_write_file, for every host of this gateway']);
  });

  it('bounds the arguments it shows', () => {
    const form = permissionForm(question({ text: 'x'.repeat(10_000) }));
    expect(form.message.length).toBeLessThan(2_200);
    expect(form.message).toContain('more characters)');
  });

  it('lists the locations ahead of the arguments, so a long argument cannot push the path it writes to out of sight', () => {
    const form = permissionForm(question({ content: 'harmless '.repeat(1_000), path: '/etc/cron.d/job' }, { locations: ['/etc/cron.d/job'], suggestion: '/etc/cron.d' }));
    expect(form.message.split('\n')[2]).toBe('Locations: "/etc/cron.d/job"');
    const many = permissionForm(question({}, { locations: Array.from({ length: 50 }, (_, n) => `/work/${'d'.repeat(500)}/${n}`) }));
    expect(many.message).toContain('and 30 more');
    expect(many.message.length).toBeLessThan(9_000);
  });

  it('reads only an accepted, known choice; anything else denies once', () => {
    expect(permissionAnswer({ action: 'accept', content: { decision: 'always-allow' } })).toEqual({ action: 'always-allow' });
    expect(permissionAnswer({ action: 'decline' })).toEqual({ action: 'deny-once' });
    expect(permissionAnswer({ action: 'accept', content: { decision: 'allow-everything' } })).toEqual({ action: 'deny-once' });
    expect(permissionAnswer({ action: 'accept', content: JSON.parse('{"__proto__":{"decision":"allow-once"}}') })).toEqual({ action: 'deny-once' });
    expect(permissionAnswer('accept')).toEqual({ action: 'deny-once' });
  });

  it('keys a question by the call it asks about, so a retry finds its answer and another call does not', () => {
    expect(permissionKey(question({ path: '/work/a.txt' }))).toBe(permissionKey(question({ path: '/work/a.txt' }, { call: { id: 'other', function: { name: 'fs_write_file', arguments: '{"path":"/work/a.txt"}' } } })));
    expect(permissionKey(question({ path: '/work/a.txt' }))).not.toBe(permissionKey(question({ path: '/work/b.txt' })));
  });
});
