import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { rxmcp } from '../support/cli.js';

// A tool rxmcp serve hides because its server changed it is approved from
// the terminal with rxmcp servers --approve, which re-pins it in serve's pins
// file: all three run as the built CLI, against the rug fixture server.

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const rug = join(root, 'spec', 'fixtures', 'rug-server.mjs');
let home: string;
let configPath: string;
let policyPath: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rxmcp-pins-approve-'));
  configPath = join(home, 'mcp.json');
  policyPath = join(home, 'policy.json');
  // Calls allowed outright: what refuses here is the pin, not a question nobody answers.
  writeFileSync(policyPath, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = (): Record<string, string> => ({ XDG_CONFIG_HOME: home });

function useVariant(variant: number): void {
  writeFileSync(configPath, JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [rug, '--variant', String(variant)] } } }));
}

/** What the built rxmcp serve shows a host, and what a call of docs_search_docs answers. */
async function serveOnce(): Promise<{ shown: string[]; answer: string }> {
  const mcp = McpClient.connectStdio({ command: process.execPath, args: [bin, 'serve', '--config', configPath, '--policy', policyPath], env: env(), clientName: 'pins-approve-spec' });
  try {
    const shown = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
    const result = await firstValueFrom(mcp.callTool('docs_search_docs', { query: 'q', webhook_url: 'https://example.invalid/' }));
    return { shown, answer: result.content.map((block) => block.text ?? '').join('') };
  } finally {
    await mcp.close();
  }
}

async function drifted(): Promise<string[] | undefined> {
  const run = await rxmcp(['servers', '--config', configPath, '--json'], { env: env() });
  const row = (JSON.parse(run.stdout) as { servers: Array<{ drifted?: Array<{ tool: string }> }> }).servers[0];
  return row?.drifted?.map(({ tool }) => tool);
}

it('approves a changed tool with --yes, after which servers shows no drift and serve shows the tool and runs it', async () => {
  useVariant(0);
  expect((await serveOnce()).shown).toContain('docs_search_docs');
  useVariant(1);
  const hidden = await serveOnce();
  expect(hidden.shown).not.toContain('docs_search_docs');
  expect(hidden.answer).toContain('its definition changed since it was pinned');

  const approved = await rxmcp(['servers', '--config', configPath, '--approve', 'docs_search_docs', '--yes'], { env: env() });
  expect(approved.stderr).toContain('docs_search_docs changed since rxmcp serve pinned it');
  expect(approved.stderr).toMatch(/^ {2}\| \+ +"webhook_url": \{/m);
  expect(approved.stderr).toContain('  approved (--yes)');
  expect(approved.stdout).toBe('approved: docs_search_docs is pinned to its new definition; rxmcp serve shows it again from its next listing\n');
  expect(approved.code).toBe(0);

  expect(await drifted()).toBeUndefined();
  const shown = await serveOnce();
  expect(shown.shown).toContain('docs_search_docs');
  expect(shown.answer).toBe('searched q');

  const again = await rxmcp(['servers', '--config', configPath, '--approve', 'docs_search_docs'], { env: env() });
  expect(again.stdout).toBe('docs_search_docs has not changed since rxmcp serve pinned it: nothing to approve\n');
  expect(again.code).toBe(0);
}, 90_000);

it('declines when stdin is not a terminal and --yes is not given, saying so, and the tool stays hidden', async () => {
  useVariant(0);
  await serveOnce();
  // Markup, a script and an OSC escape in the server's new description.
  useVariant(2);
  const declined = await rxmcp(['servers', '--config', configPath, '--approve', 'docs_search_docs'], { env: env(), input: 'y\n' });
  expect(declined.stderr).toContain('declined: nobody at a terminal to ask (stdin is not a terminal, or --no-input); give --yes to approve without asking');
  expect(declined.stderr).not.toContain('[y/N]');
  expect(declined.stdout).toBe('not approved: docs_search_docs stays hidden in rxmcp serve\n');
  expect(declined.code).toBe(1);
  // The server's words are shown, marked as its own, and never as a terminal command.
  expect(declined.stderr).toMatch(/^ {2}\| \+ .*<img src=x onerror=.*<script>/m);
  expect(declined.stderr).toContain('\\u001b]0;pwned\\u0007');
  expect(declined.stderr).not.toContain('\u001b');
  expect(declined.stderr).not.toContain('\u0007');

  expect(await drifted()).toEqual(['docs_search_docs']);
  expect((await serveOnce()).shown).not.toContain('docs_search_docs');
}, 90_000);

it('says so for a tool no configured server lists, and for one serve never pinned', async () => {
  useVariant(0);
  const unknown = await rxmcp(['servers', '--config', configPath, '--approve', 'docs_no_such_tool', '--yes'], { env: env() });
  expect(unknown.stderr).toContain('no configured server lists a tool "docs_no_such_tool"');
  expect(unknown.code).toBe(2);
  const otherServer = await rxmcp(['servers', '--config', configPath, '--approve', 'mail_send'], { env: env() });
  expect(otherServer.code).toBe(2);

  const neverServed = await rxmcp(['servers', '--config', configPath, '--approve', 'docs_echo', '--yes'], { env: env() });
  expect(neverServed.stdout).toBe('docs_echo has no pin yet: rxmcp serve pins it as it is when it first lists it\n');
  expect(neverServed.code).toBe(0);
}, 60_000);

it.each([
  [['tools', '--approve', 'x', '--', 'node', 's.js'], '--approve goes with servers'],
  [['servers', '--yes'], '--yes goes with servers --approve TOOL'],
  [['servers', '--approve', ''], '--approve wants the name of a tool'],
])('refuses %j as a usage error', async (args, message) => {
  const run = await rxmcp(args, { env: env() });
  expect(run.stderr).toContain(message);
  expect(run.code).toBe(2);
});
