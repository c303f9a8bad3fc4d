import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The dependency rules of docs/architecture.md, run the way `npm run arch`
// runs them: on the real source (which must keep them) and on a fixture tree
// of deliberately wrong imports (on which each rule must fire, so that none
// of them can silently stop checking anything).

const root = join(__dirname, '..', '..');
const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const fixture = join(root, 'spec', 'fixtures', 'architecture');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function violations(cwd: string, entry: string, config: string): Violation[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [bin, entry, '--config', join(root, config), '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    // depcruise exits non-zero when it finds violations; its report is still on stdout.
    out = (error as { stdout?: string }).stdout ?? '';
    if (out === '') throw error;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

function ruleNames(config: string): string[] {
  return (require(join(root, config)) as { forbidden: { name: string }[] }).forbidden.map((rule) => rule.name);
}

describe('the architecture rules (dependency-cruiser)', () => {
  it('are kept by every import in src/', () => {
    expect(violations(root, 'src', '.dependency-cruiser.cjs')).toEqual([]);
  }, 60_000);

  it('keep the root entry free of Node built-ins and node-only rooms at load time', () => {
    expect(violations(root, 'src/index.ts', '.dependency-cruiser-root.cjs')).toEqual([]);
  }, 60_000);

  it('each fire on a tree of wrong imports, naming the rule', () => {
    const fired = new Set(violations(fixture, 'src', '.dependency-cruiser.cjs').map((violation) => violation.rule.name));
    // The upward rules for rooms the fixture leaves empty cannot fire; every other rule must.
    const expected = ruleNames('.dependency-cruiser.cjs').filter((name) => !name.startsWith('nothing-imports-upward:') || ['tools', 'auth', 'protocol'].includes(name.slice(name.indexOf(':') + 1)));
    expect([...fired].sort()).toEqual(expected.sort());
  }, 60_000);

  it('name a Node built-in and a node-only room loaded by the root entry', () => {
    const found = violations(fixture, 'src/index.ts', '.dependency-cruiser-root.cjs').map((violation) => `${violation.rule.name}: ${violation.to}`);
    expect(found.sort()).toEqual(['root-never-loads-node-builtins: fs', 'root-never-loads-node-only-rooms: src/gateway/served.ts'].sort());
    expect(ruleNames('.dependency-cruiser-root.cjs').sort()).toEqual(['root-never-loads-node-builtins', 'root-never-loads-node-only-rooms']);
  }, 60_000);
});
