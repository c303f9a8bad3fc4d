import { join } from 'node:path';
import { Registry } from '../../src/index.js';

// Holes found attacking issue 30's Registry.fromConfig (branch attack30).

jest.setTimeout(30000);

const fixtures = join(__dirname, '..', 'fixtures');
const listing = (tools: string[]) => ({
  command: process.execPath,
  args: [join(fixtures, 'tool-list-server.mjs')],
  env: { TOOLS_JSON: JSON.stringify(tools.map((name) => ({ name, inputSchema: { type: 'object' } }))) },
});
const good = { command: process.execPath, args: [join(fixtures, 'modern-server.mjs')] };

describe('Registry.fromConfig with a server whose tool list is hostile', () => {
  it('leaves out a tool a server lists twice, with a warning, and keeps every other server\'s tools', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig({ mcpServers: { good, dup: listing(['x', 'x', 'y']) } }, { onWarn: (message) => warnings.push(message) });
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toContain('good_echo');
      expect(names.filter((name) => name === 'dup_x')).toEqual(['dup_x']);
      expect(names).toContain('dup_y');
      expect(warnings).toContainEqual(expect.stringContaining('left out tool "dup_x" of "dup"'));
    } finally {
      await tools.close();
    }
  });

  it('leaves out a tool whose name lands under another server\'s prefix, and keeps the rest', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig({ mcpServers: { good, a: listing(['b_echo', 'own']), a_b: listing(['echo']) } }, { onWarn: (message) => warnings.push(message) });
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toEqual(expect.arrayContaining(['good_echo', 'a_own', 'a_b_echo']));
      expect(warnings).toContainEqual(expect.stringContaining('left out tool "a_b_echo" of "a"'));
    } finally {
      await tools.close();
    }
  });
});

describe('Registry.fromConfig and secrets in a server\'s failure', () => {
  it('says why an HTTP server is left out without its URL\'s user info or query string, nor a malformed header\'s value', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig(
      {
        mcpServers: {
          creds: { url: 'http://user:url-secret-1@127.0.0.1:1/mcp' },
          query: { url: 'http://127.0.0.1:1/mcp?api_key=url-secret-2' },
          header: { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': 'header-secret-3\n' } },
        },
      },
      { onWarn: (message) => warnings.push(message), client: { requestTimeoutMs: 5000 } },
    );
    let statuses: ReadonlyMap<string, { state: string; error?: Error }> = new Map();
    const watching = tools.status$.subscribe((map) => (statuses = map));
    try {
      expect(await tools.toolsForLlm()).toEqual([]);
      expect(warnings).toHaveLength(3);
      const said = [...warnings, ...[...statuses.values()].map((status) => status.error?.message ?? '')].join('\n');
      expect(said).not.toMatch(/url-secret|header-secret/);
      expect(said).toContain('http://127.0.0.1:1/mcp?…');
      expect(statuses.get('header')).toMatchObject({ state: 'failed', error: expect.objectContaining({ key: 'headers.X-Key' }) });
    } finally {
      watching.unsubscribe();
      await tools.close();
    }
  });
});
