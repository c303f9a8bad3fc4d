import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const run = (demo: string, ...args: string[]): string => execFileSync(tsx, [join(root, 'demos', demo), ...args], { cwd: root, encoding: 'utf8', timeout: 30000 });

describe('the demos a newcomer runs', () => {
  it('toolloop prints the same transcript every run, with the answer', () => {
    const first = run('toolloop.ts');
    expect(run('toolloop.ts')).toBe(first);
    expect(first).toContain('  ← call_1: The sum of 2 and 3 is 5.');
    expect(first).toContain('  ← call_2: 20');
    expect(first).toContain('assistant: (2 + 3) × 4 = 20.');
  });

  it('quick-start describes the bundled servers of both eras', () => {
    expect(run('quick-start.ts')).toContain('speaks 2025-11-25 (legacy era)');
    expect(run('quick-start.ts', 'modern')).toContain('speaks 2026-07-28 (modern era)');
  });

  it('input-hooks answers a server\'s questions without a terminal', () => {
    const output = execFileSync(tsx, [join(root, 'demos', 'input-hooks.ts')], { cwd: root, encoding: 'utf8', timeout: 30000, input: '' });
    expect(output).toContain('deploy → deployed to prod');
    expect(output).toContain('nag → gave up: tools/call still asking after 3 rounds');
  });
});
