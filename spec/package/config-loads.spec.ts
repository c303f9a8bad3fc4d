import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Reads the built package in dist/ (npm test builds it first), as Node loads it.
const root = join(__dirname, '..', '..');

describe('the built package reading configs', () => {
  it('loads the TOML parser only when a TOML config is parsed, in both builds', () => {
    const hooks = JSON.stringify(pathToFileURL(join(root, 'spec/support/record-loads.mjs')).href);
    const steps = `
      register(${hooks});
      const json = await parseServerConfig('{"mcpServers": {"a": {"command": "x"}}}');
      Registry.fromConfig(json);
      appendFileSync(process.env.RXMCP_LOAD_LOG, '--- toml\\n');
      const toml = await parseServerConfig('[mcp_servers.a]\\ncommand = "x"\\n', { format: 'codex' });
      console.log(json.servers[0].command, toml.servers[0].command);`;
    const esm = `
      import { register } from 'node:module';
      import { appendFileSync } from 'node:fs';
      import { parseServerConfig, Registry } from 'rxmcp';
      ${steps}`;
    const cjs = `
      const { register } = require('node:module');
      const { appendFileSync } = require('node:fs');
      const { parseServerConfig, Registry } = require('rxmcp');
      (async () => { ${steps} })();`;
    for (const args of [['--input-type=module', '-e', esm], ['-e', cjs]]) {
      const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-loads-')), 'loads.txt');
      const out = execFileSync(process.execPath, args, { cwd: root, env: { ...process.env, RXMCP_LOAD_LOG: log }, encoding: 'utf8' });
      expect(out.trim()).toBe('x x');
      const [beforeToml = '', afterToml = ''] = readFileSync(log, 'utf8').split('--- toml\n');
      expect(beforeToml).not.toMatch(/smol-toml/);
      expect(afterToml).toMatch(/smol-toml/);
    }
  });
});
