import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

describe('the soak, short', () => {
  it('keeps the heap and the handles flat through thousands of mixed calls over stdio and HTTP', () => {
    const root = join(__dirname, '..', '..');
    const output = execFileSync(process.execPath, ['--expose-gc', join(root, 'bench/soak.mjs'), '--short'], { cwd: root, encoding: 'utf8', timeout: 120000 });
    expect(output).toMatch(/^stdio: 5000 calls/m);
    expect(output).toMatch(/^http: 1000 calls/m);
    expect(output).toContain('flat: no growth past the bounds');
  });
});
