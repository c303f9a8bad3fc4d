import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Each spec file's rxmcp, and every rxmcp it starts (they inherit the
// environment), keeps its config files (kept tokens, `rxmcp serve`'s pins) in
// a folder of its own, never in the ~/.config of whoever runs the tests.
const home = mkdtempSync(join(tmpdir(), 'rxmcp-spec-config-'));
process.env['XDG_CONFIG_HOME'] = home;

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});
