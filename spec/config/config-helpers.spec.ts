import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpConfigError, Registry, type ServerConfig, type ServerEntry } from '../../src/index.js';
import { readServerConfig } from '../../src/node/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// envFile and headersHelper, honoured in a file of the user's own and never
// in a project's file nobody chose; each failing fails its server alone.
// Real servers: server-everything shows the env it got, the HTTP fixture the
// Mcp-* headers it got.

jest.setTimeout(30000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const node = JSON.stringify(process.execPath);
let scratch: string;
let web: RunningServer;

beforeAll(async () => {
  web = await startHttpServer('http-server.mjs');
});
afterAll(() => web?.stop());
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rxmcp-helpers-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function put(path: string, text: string | Buffer): string {
  const full = join(scratch, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}
const byName = (config: ServerConfig, name: string): ServerEntry => config.servers.find((entry) => entry.name === name) as ServerEntry;
const good = { command: process.execPath, args: [join(root, 'spec', 'fixtures', 'modern-server.mjs')] };

describe('envFile in a file of the user\'s own', () => {
  it('gives the server the file\'s variables under its env, unexpanded, the entry\'s env winning', async () => {
    put('.env', '# the service\nexport RXMCP_FROM_FILE=from-file\nRXMCP_QUOTED="two\\nlines"\nRXMCP_LITERAL=\'$HOME ${HOME}\'\nRXMCP_BOTH=file # a comment\n');
    const path = put('mcp.json', JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], envFile: '${workspaceFolder}/.env', env: { RXMCP_BOTH: 'entry' } } } }));
    const config = await readServerConfig(path, { workspaceFolder: scratch });
    const entry = byName(config, 'everything');
    expect(entry.error).toBeUndefined();
    expect(entry).not.toHaveProperty('envFile');
    expect(entry).toMatchObject({ env: { RXMCP_FROM_FILE: 'from-file', RXMCP_QUOTED: 'two\nlines', RXMCP_LITERAL: '$HOME ${HOME}', RXMCP_BOTH: 'entry' } });
    const tools = Registry.fromConfig(config);
    try {
      const [answer] = await tools.executeToolCalls([{ id: '1', type: 'function', function: { name: 'everything_get-env', arguments: '{}' } }]);
      expect(answer?.content).toContain('from-file');
      expect(answer?.content).toContain('"RXMCP_BOTH": "entry"');
    } finally {
      await tools.close();
    }
  });

  it.each([
    ['larger than 1 MiB', Buffer.alloc(10 * 1024 * 1024, 'A'), /is larger than 1048576 bytes/],
    ['with a NUL byte', 'A=1\nB=secret\u0000value\n', /holds a NUL byte/],
    ['with a line that is no KEY=VALUE', 'A=1\nthis-is-a-secret-token\n', /line 2 is not KEY=VALUE \(the line is not shown\)$/],
    ['that is missing', undefined, /cannot be read: ENOENT/],
  ])('fails only its server for an env file %s, quoting no value', async (_case, text, reason) => {
    if (text !== undefined) put('bad.env', text);
    const path = put('mcp.json', JSON.stringify({ mcpServers: { bad: { command: 'never-run', envFile: 'bad.env' }, good } }));
    const config = await readServerConfig(path);
    expect(byName(config, 'bad').error).toMatchObject({ server: 'bad', key: 'envFile', message: expect.stringMatching(reason) });
    expect(byName(config, 'bad').error?.message).not.toMatch(/secret/);
    expect(byName(config, 'good').error).toBeUndefined();
  });

  it('keeps __proto__ and constructor as variable names, polluting no prototype', async () => {
    put('.env', '__proto__=polluted\nconstructor=x\nRXMCP_OK=1\n');
    const config = await readServerConfig(put('mcp.json', JSON.stringify({ mcpServers: { a: { command: 'x', envFile: '.env' } } })));
    const env = (byName(config, 'a') as { env: Record<string, string> }).env;
    expect(Object.keys(env).sort()).toEqual(['RXMCP_OK', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(env)).toBeNull();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('headersHelper in a file of the user\'s own', () => {
  it('runs through the shell, with the server\'s name and URL, and the headers it prints reach the server', async () => {
    const helper = `${node} -e "process.stdout.write(JSON.stringify({ 'Mcp-Helper-Name': process.env.CLAUDE_CODE_MCP_SERVER_NAME, 'Mcp-Helper-Url': process.env.CLAUDE_CODE_MCP_SERVER_URL }))"`;
    const path = put('mcp.json', JSON.stringify({ mcpServers: { web: { type: 'http', url: web.url, headers: { 'Mcp-Static': 'static', 'Mcp-Helper-Name': 'overridden' }, headersHelper: helper } } }));
    const config = await readServerConfig(path);
    const entry = byName(config, 'web');
    expect(entry.error).toBeUndefined();
    expect(entry).toMatchObject({ headers: { 'Mcp-Static': 'static', 'Mcp-Helper-Name': 'web', 'Mcp-Helper-Url': web.url } });
    expect(entry).not.toHaveProperty('headersHelper');
    const mcp = McpClient.connectHttp({ url: web.url, headers: { ...(entry as { headers: Record<string, string> }).headers } });
    try {
      const seen = await firstValueFrom(mcp.callTool('grüße'));
      expect(seen.structuredContent).toMatchObject({ 'mcp-static': 'static', 'mcp-helper-name': 'web' });
    } finally {
      await mcp.close();
    }
  });

  it.each([
    ['hangs', `${node} -e "setTimeout(() => {}, 60000)"`, /did not finish within 500 ms/],
    ['prints 10 MB', `${node} -e "process.stdout.write('x'.repeat(10 * 1024 * 1024))"`, /printed more than 65536 bytes/],
    ['prints what is not JSON', 'echo secret-token-value', /did not print JSON \(its output is not shown\)/],
    ['prints an array', `echo '["a"]'`, /did not print a JSON object of headers/],
    ['prints a header that is not a string', `echo '{"X-Key": 5}'`, /must be a string/],
    ['prints a header HTTP refuses', `echo '{"Bad Name": "v"}'`, /is not a legal HTTP header name/],
    ['exits other than 0', `echo '{}'; exit 7`, /exited with code 7/],
  ])('fails only its server when the helper %s, quoting none of its output', async (_case, helper, reason) => {
    const path = put('mcp.json', JSON.stringify({ mcpServers: { bad: { type: 'http', url: web.url, headersHelper: helper }, good } }));
    const started = Date.now();
    const config = await readServerConfig(path, { helperTimeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(byName(config, 'bad').error).toBeInstanceOf(McpConfigError);
    expect(byName(config, 'bad').error?.message).toMatch(reason);
    expect(byName(config, 'bad').error?.message).not.toContain('secret-token-value');
    expect(byName(config, 'good').error).toBeUndefined();
  });

  it('kills what a hanging helper started, not only its shell', async () => {
    const marker = join(scratch, 'pid');
    // The shell's child writes its pid, then hangs: it must be gone once the helper has failed.
    const helper = `${node} -e "require('fs').writeFileSync(process.argv[1], String(process.pid)); setTimeout(() => {}, 60000)" ${JSON.stringify(marker)}; echo '{}'`;
    const config = await readServerConfig(put('mcp.json', JSON.stringify({ mcpServers: { bad: { type: 'http', url: web.url, headersHelper: helper } } })), { helperTimeoutMs: 1000 });
    expect(byName(config, 'bad').error?.message).toMatch(/did not finish/);
    const pid = Number(readFileSync(marker, 'utf8'));
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await eventually(() => !alive(), 5000);
  });
});

describe("a project's file that was found, not chosen", () => {
  it('reads no envFile and runs no headersHelper: those servers fail, saying how to use them, the others read', async () => {
    const marker = join(scratch, 'helper-ran');
    put('.env', 'RXMCP_SECRET=from-file\n');
    const path = put(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          env: { command: 'x', envFile: '.env' },
          helper: { type: 'http', url: web.url, headersHelper: `touch ${JSON.stringify(marker)}; echo '{}'` },
          plain: { command: 'x' },
        },
      }),
    );
    const config = await readServerConfig(path, { scope: 'project' });
    expect(byName(config, 'env').error).toMatchObject({ key: 'envFile', message: expect.stringContaining('name the file yourself (rxmcp --config FILE)') });
    expect(byName(config, 'helper').error).toMatchObject({ key: 'headersHelper' });
    expect(byName(config, 'plain').error).toBeUndefined();
    expect(JSON.stringify(config.servers.map((entry) => entry.transport === 'stdio' && entry.env))).not.toContain('from-file');
    expect(existsSync(marker)).toBe(false);
  });

  it('is refused by Registry.fromConfig when a config object still holds them: the server would start without them', async () => {
    const tools = Registry.fromConfig({ mcpServers: { env: { command: 'x', envFile: '.env' }, helper: { url: web.url, headersHelper: 'echo {}' } } });
    try {
      const statuses = await firstValueFrom(tools.status$);
      expect(statuses.get('env')).toMatchObject({ state: 'failed', error: expect.objectContaining({ key: 'envFile' }) });
      expect(statuses.get('helper')).toMatchObject({ state: 'failed', error: expect.objectContaining({ key: 'headersHelper' }) });
    } finally {
      await tools.close();
    }
  });
});
