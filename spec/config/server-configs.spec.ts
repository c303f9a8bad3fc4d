import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { McpConfigError } from '../../src/index.js';
import { findServerConfigs, readServerConfig } from '../../src/node/index.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rxmcp-find-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function put(path: string, text: string): string {
  const full = join(scratch, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const stdio = JSON.stringify({ mcpServers: { a: { command: 'x' } } });

describe('readServerConfig', () => {
  it('reads a project\'s .vscode/mcp.json with ${workspaceFolder} as the project and ${userHome} as the home', async () => {
    const path = put('proj/.vscode/mcp.json', JSON.stringify({ servers: { a: { type: 'stdio', command: '${userHome}/bin/x', args: ['${workspaceFolder}', '${workspaceFolderBasename}'], cwd: '${workspaceFolder}${pathSeparator}src' } } }));
    const config = await readServerConfig(path);
    expect(config).toMatchObject({ format: 'vscode', source: path });
    expect(config.servers[0]).toMatchObject({
      source: path,
      command: `${homedir()}/bin/x`,
      args: [join(scratch, 'proj'), 'proj'],
      cwd: `${join(scratch, 'proj')}${sep}src`,
    });
  });

  it('reads the environment from options, and Codex\'s TOML by its extension', async () => {
    const path = put('home/.codex/config.toml', '[mcp_servers.api]\nurl = "https://api.example/mcp"\nbearer_token_env_var = "API_TOKEN"\n');
    const config = await readServerConfig(path, { env: { API_TOKEN: 'tok' } });
    expect(config.servers[0]).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer tok' } });
    // A variable not set fails that server alone: the file still reads.
    expect((await readServerConfig(path, { env: {} })).servers[0]?.error).toMatchObject({ server: 'api', key: 'headers.Authorization' });
  });

  it('names the file it cannot read, and refuses one past the size bound', async () => {
    const missing = join(scratch, 'nope.json');
    await expect(readServerConfig(missing)).rejects.toThrow(McpConfigError);
    await expect(readServerConfig(missing)).rejects.toMatchObject({ source: missing, message: expect.stringContaining('ENOENT') });
    const big = put('big.json', stdio.padEnd(5000, ' '));
    await expect(readServerConfig(big, { maxBytes: 4096 })).rejects.toMatchObject({ message: expect.stringContaining('larger than 4096 bytes') });
  });
});

describe('readServerConfig: where a stdio server starts', () => {
  const servers = JSON.stringify({
    mcpServers: {
      bare: { command: 'npx', args: ['-y', 'some-server'] },
      relative: { command: 'x', cwd: 'tools' },
      absolute: { command: 'x', cwd: join(tmpdir(), 'elsewhere') },
      web: { url: 'https://example.test/mcp' },
    },
  });
  const cwds = async (path: string, options = {}) => Object.fromEntries((await readServerConfig(path, options)).servers.map((entry) => [entry.name, entry.transport === 'stdio' ? entry.cwd : 'http']));

  it("starts a user's server with no cwd in the folder its file belongs to, never in the current directory", async () => {
    const desktop = join(scratch, 'home', '.config', 'Claude');
    expect(await cwds(put('home/.config/Claude/claude_desktop_config.json', servers))).toEqual({ bare: desktop, relative: join(desktop, 'tools'), absolute: join(tmpdir(), 'elsewhere'), web: 'http' });
    // ~/.cursor/mcp.json and ~/.codex/config.toml belong to the home folder, as a project's belong to the project.
    expect((await cwds(put('home/.cursor/mcp.json', servers))).bare).toBe(join(scratch, 'home'));
    expect(await cwds(put('home/.codex/config.toml', '[mcp_servers.bare]\ncommand = "npx"\n'))).toEqual({ bare: join(scratch, 'home') });
    expect((await cwds(put('home/.claude.json', servers))).bare).toBe(join(scratch, 'home'));
    expect(process.cwd()).not.toBe(join(scratch, 'home'));
  });

  it("starts a project's server in the project, and takes options.cwd over either", async () => {
    expect(await cwds(put('proj/.vscode/mcp.json', JSON.stringify({ servers: { bare: { type: 'stdio', command: 'x' }, relative: { type: 'stdio', command: 'x', cwd: 'tools' } } })))).toEqual({
      bare: join(scratch, 'proj'),
      relative: join(scratch, 'proj', 'tools'),
    });
    expect((await cwds(put('proj/.mcp.json', servers))).bare).toBe(join(scratch, 'proj'));
    const chosen = join(scratch, 'chosen');
    expect(await cwds(put('proj/.cursor/mcp.json', servers), { cwd: chosen })).toEqual({ bare: chosen, relative: join(chosen, 'tools'), absolute: join(tmpdir(), 'elsewhere'), web: 'http' });
  });
});

describe('findServerConfigs', () => {
  const everyFile = (home: string, cwd: string, appData: string) => {
    put(join(cwd, '.mcp.json'), stdio);
    put(join(cwd, '.cursor', 'mcp.json'), stdio);
    put(join(cwd, '.vscode', 'mcp.json'), JSON.stringify({ servers: {} }));
    put(join(cwd, '.codex', 'config.toml'), '');
    put(join(home, '.claude.json'), JSON.stringify({ numStartups: 3, mcpServers: {} }));
    put(join(appData, 'Claude', 'claude_desktop_config.json'), stdio);
    put(join(home, '.cursor', 'mcp.json'), stdio);
    put(join(appData, 'Code', 'User', 'mcp.json'), JSON.stringify({ servers: {} }));
    put(join(home, '.codeium', 'windsurf', 'mcp_config.json'), stdio);
    put(join(home, '.codex', 'config.toml'), '');
  };
  const order = [
    ['project', 'claude-code', 'mcp-servers'],
    ['project', 'cursor', 'mcp-servers'],
    ['project', 'vscode', 'vscode'],
    ['project', 'codex', 'codex'],
    ['user', 'claude-code', 'mcp-servers'],
    ['user', 'claude-desktop', 'mcp-servers'],
    ['user', 'cursor', 'mcp-servers'],
    ['user', 'vscode', 'vscode'],
    ['user', 'windsurf', 'mcp-servers'],
    ['user', 'codex', 'codex'],
  ];

  it.each([
    ['linux', join('home', '.config')],
    ['darwin', join('home', 'Library', 'Application Support')],
  ] as const)('lists every file that exists on %s, project first, in the documented order', async (platform, appData) => {
    everyFile('home', 'proj', appData);
    const found = await findServerConfigs({ cwd: join(scratch, 'proj'), home: join(scratch, 'home'), platform, env: {} });
    expect(found.map(({ scope, app, format }) => [scope, app, format])).toEqual(order);
    expect(found[5]?.path).toBe(join(scratch, appData, 'Claude', 'claude_desktop_config.json'));
  });

  it('reads APPDATA on Windows, XDG_CONFIG_HOME and CODEX_HOME where set', async () => {
    put(join('roaming', 'Claude', 'claude_desktop_config.json'), stdio);
    put(join('xdg', 'Code', 'User', 'mcp.json'), JSON.stringify({ servers: {} }));
    put(join('codex-home', 'config.toml'), '');
    const home = join(scratch, 'home');
    const windows = await findServerConfigs({ cwd: home, home, platform: 'win32', env: { APPDATA: join(scratch, 'roaming') } });
    expect(windows.map((found) => found.app)).toEqual(['claude-desktop']);
    const linux = await findServerConfigs({ cwd: home, home, platform: 'linux', env: { XDG_CONFIG_HOME: join(scratch, 'xdg'), CODEX_HOME: join(scratch, 'codex-home') } });
    expect(linux.map((found) => [found.app, found.path])).toEqual([
      ['vscode', join(scratch, 'xdg', 'Code', 'User', 'mcp.json')],
      ['codex', join(scratch, 'codex-home', 'config.toml')],
    ]);
  });

  it("lists ~/.claude.json only when it holds mcpServers, and a path once, as the user's own, when the project is the home", async () => {
    put(join('home', '.claude.json'), JSON.stringify({ numStartups: 3, projects: {} }));
    put(join('home', '.codex', 'config.toml'), '');
    const home = join(scratch, 'home');
    const found = await findServerConfigs({ cwd: home, home, platform: 'linux', env: {} });
    expect(found.map(({ scope, app }) => [scope, app])).toEqual([['user', 'codex']]);
  });

  it("finds Gemini CLI's, Zed's, Roo's, Copilot CLI's, Goose's and Cline's files, the settings files only when they name servers", async () => {
    const home = join(scratch, 'home');
    const cwd = join(scratch, 'proj');
    const storage = join('home', '.config', 'Code', 'User', 'globalStorage');
    put(join('proj', '.gemini', 'settings.json'), JSON.stringify({ mcpServers: {} }));
    put(join('proj', '.zed', 'settings.json'), '// Zed\n{ "context_servers": {}, }');
    put(join('proj', '.roo', 'mcp.json'), stdio);
    put(join('home', '.gemini', 'settings.json'), JSON.stringify({ theme: 'GitHub' }));
    put(join('home', '.copilot', 'mcp-config.json'), stdio);
    put(join('home', '.config', 'goose', 'config.yaml'), 'GOOSE_MODEL: x\nextensions:\n  a: { type: builtin }\n');
    put(join('home', '.config', 'zed', 'settings.json'), '{ "theme": "One" }');
    put(join(storage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), stdio);
    put(join(storage, 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), stdio);
    const found = await findServerConfigs({ cwd, home, platform: 'linux', env: {} });
    expect(found.map(({ scope, app, format }) => [scope, app, format])).toEqual([
      ['project', 'gemini', 'gemini'],
      ['project', 'zed', 'zed'],
      ['project', 'roo', 'mcp-servers'],
      ['user', 'copilot-cli', 'mcp-servers'],
      ['user', 'goose', 'goose'],
      ['user', 'cline', 'mcp-servers'],
      ['user', 'roo', 'mcp-servers'],
    ]);
  });

  it("lists ~/.claude.json when it holds servers of the current project's own, and reads them there", async () => {
    const home = join(scratch, 'home');
    const cwd = join(scratch, 'proj');
    mkdirSync(cwd, { recursive: true });
    const path = put(join('home', '.claude.json'), JSON.stringify({ projects: { [cwd]: { mcpServers: { mine: { command: 'x' } } }, '/elsewhere': { mcpServers: { theirs: { command: 'y' } } } } }));
    expect((await findServerConfigs({ cwd, home, platform: 'linux', env: {} })).map((found) => found.app)).toEqual(['claude-code']);
    expect(await findServerConfigs({ cwd: home, home, platform: 'linux', env: {} })).toEqual([]);
    expect((await readServerConfig(path, { project: cwd })).servers.map((entry) => entry.name)).toEqual(['mine']);
  });

  it('finds nothing where nothing is', async () => {
    expect(await findServerConfigs({ cwd: scratch, home: scratch, platform: 'linux', env: {} })).toEqual([]);
  });
});
