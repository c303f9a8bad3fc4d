import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(__dirname, '..', '..', 'scripts', 'system-packages.cjs');

describe('the system packages npm test needs', () => {
  it('stops at once with one line naming what to install, on a machine that has none of them and cannot install', () => {
    // A PATH with node alone: no tmux, no apt-get; and a browser that is not there.
    const bin = mkdtempSync(join(tmpdir(), 'rxmcp-bare-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    try {
      const started = Date.now();
      const run = spawnSync(join(bin, 'node'), [script], { env: { PATH: bin, RXMCP_BROWSER: join(bin, 'no-such-browser') }, encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(Date.now() - started).toBeLessThan(5000);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('sudo apt-get install -y tmux chromium redis-server');
      expect(lines[0]).toContain('RXMCP_BROWSER');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('is quiet when everything is there', () => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe('');
  });
});
