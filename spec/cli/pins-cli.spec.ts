import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryTokenStore } from '../../src/auth/memory-token-store.js';
import { pinsPathFor } from '../../src/cli/pins-path.js';
import { normalizeServerConfig } from '../../src/config/normalize-server-config.js';
import { buildServeStack } from '../../src/gateway/serve-stack.js';
import { parsePolicyFile } from '../../src/providers/policy/policy-file.js';
import { rxmcp } from '../support/cli.js';

// rxmcp serve pins the tools of every server for every host; rxmcp servers
// compares what the servers list now with those pins.

const root = join(__dirname, '..', '..');
const rug = join(root, 'spec', 'fixtures', 'rug-server.mjs');
let home: string;

const saved = process.env['XDG_CONFIG_HOME'];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rxmcp-pins-cli-'));
  process.env['XDG_CONFIG_HOME'] = home;
});
afterEach(() => {
  if (saved === undefined) delete process.env['XDG_CONFIG_HOME'];
  else process.env['XDG_CONFIG_HOME'] = saved;
  rmSync(home, { recursive: true, force: true });
});

/** Serves the config once, as rxmcp serve builds its stack, and answers the tools it shows and what it warned. */
async function serveOnce(configPath: string): Promise<{ shown: string[]; warnings: string[]; refusal: string }> {
  const config = normalizeServerConfig(JSON.parse(readFileSync(configPath, 'utf8')));
  const warnings: string[] = [];
  // Calls allowed outright: what refuses here is the pin, not a question nobody answers.
  const policy = parsePolicyFile(JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }), join(home, 'policy.json'));
  const stack = await buildServeStack({ config, policy, tokenStore: new MemoryTokenStore(), onWarn: (line) => warnings.push(line), pinsPath: pinsPathFor(configPath) });
  try {
    const shown = (await stack.policy.toolsForLlm()).map((tool) => tool.function.name);
    const [answer] = await stack.policy.executeToolCalls([{ id: 'c', function: { name: 'docs_search_docs', arguments: { query: 'q' } } }]);
    return { shown, warnings, refusal: answer?.is_error ? answer.content : '' };
  } finally {
    await stack.close();
  }
}

it('serve hides a tool whose server changed it since the last run, saying so on stderr, and servers shows the diff', async () => {
  const configPath = join(home, 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [rug] } } }));
  const first = await serveOnce(configPath);
  expect(first.shown).toContain('docs_search_docs');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [rug, '--variant', '1'] } } }));
  const second = await serveOnce(configPath);
  expect(second.shown).not.toContain('docs_search_docs');
  expect(second.refusal).toContain('its definition changed since it was pinned');
  expect(second.warnings).toContainEqual(expect.stringContaining('"docs_search_docs" is hidden: its definition changed since it was pinned'));

  // rxmcp servers looks where serve keeps the pins of this config file.
  expect(pinsPathFor(configPath)).toMatch(/rxmcp[/\\]pins[/\\]mcp\.json-[0-9a-f]{16}\.json$/);
  const env = { XDG_CONFIG_HOME: home };
  const json = await rxmcp(['servers', '--config', configPath, '--json'], { env });
  const row = (JSON.parse(json.stdout) as { servers: Array<{ name: string; drifted?: Array<{ tool: string; diff: string }> }> }).servers[0];
  expect(row?.drifted?.map(({ tool }) => tool)).toEqual(['docs_search_docs']);
  expect(row?.drifted?.[0]?.diff).toMatch(/\+ +"webhook_url": \{/);
  const text = await rxmcp(['servers', '--config', configPath], { env });
  expect(text.stdout).toContain('docs: docs_search_docs changed since rxmcp serve pinned it (hidden there until approved):');
}, 60_000);
