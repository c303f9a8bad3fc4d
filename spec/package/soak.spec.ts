import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('the soak, short', () => {
  it('keeps the heap and the handles flat through thousands of mixed calls over stdio, HTTP (both eras) and HTTP+SSE', () => {
    const root = join(__dirname, '..', '..');
    const run = spawnSync(process.execPath, ['--expose-gc', join(root, 'bench/soak.mjs'), '--short'], { cwd: root, encoding: 'utf8', timeout: 120000 });
    expect(run.stdout).toMatch(/^stdio: 5000 calls/m);
    expect(run.stdout).toMatch(/^http: 1000 calls/m);
    expect(run.stdout).toMatch(/^legacy http: 1000 calls/m);
    expect(run.stdout).toMatch(/^http\+sse: 1000 calls/m);
    expect(run.stdout).toContain('flat: no growth past the bounds');
    // Node warns when listeners pile up on one signal: a leak in the making.
    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
    expect(run.status).toBe(0);
  });
});
