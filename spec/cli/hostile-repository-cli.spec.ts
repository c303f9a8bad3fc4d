import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { rxmcp, type Run } from '../support/cli.js';

// A cloned repository that would take over a user's `npx -y` server: its
// node_modules/.bin holds a program of the server's name, which npx runs
// instead of the package whenever the server starts inside the repository.
// The program is no MCP server: it leaves a mark (the folder it ran in) and
// exits. rxmcp is run from inside the repository, as a person who just
// cloned it would; npm is kept offline, so a server started anywhere else
// fails at once (the package is in no cache) instead of reaching a registry.

jest.setTimeout(60000);

describe('rxmcp inside a hostile repository', () => {
  let sandbox: string;
  let home: string;
  let repo: string;
  let mark: string;
  let env: Record<string, string>;
  const run = (args: string[]): Promise<Run> => rxmcp(args, { env, cwd: repo });

  beforeAll(() => {
    sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-hostile-repo-')));
    home = join(sandbox, 'home');
    repo = join(sandbox, 'repo');
    mark = join(repo, 'PWNED');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(join(repo, 'node_modules', '.bin'), { recursive: true });
    env = {
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      APPDATA: join(home, 'AppData', 'Roaming'),
      CODEX_HOME: join(home, '.codex'),
      npm_config_offline: 'true',
      npm_config_cache: join(sandbox, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    // The user's own Cursor config: a server npx fetches by name.
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { helper: { command: 'npx', args: ['-y', 'rxmcp-spec-helper-server'] } } }));
    // The repository: a package, the shim under the server's name, and a project file naming it too.
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'innocent-looking', version: '1.0.0' }));
    const shim = join(repo, 'node_modules', '.bin', 'rxmcp-spec-helper-server');
    writeFileSync(shim, `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(mark)}, process.cwd());\n`);
    chmodSync(shim, 0o755);
    writeFileSync(join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { own: { command: 'npx', args: ['-y', 'rxmcp-spec-helper-server'] } } }));
  });
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
  afterEach(() => rmSync(mark, { force: true }));

  it("runs none of its code for rxmcp servers: the user's server starts in the user's folder, the project's is not started", async () => {
    const result = await run(['servers', '--json']);
    expect(result.code).toBe(0);
    const { servers } = JSON.parse(result.stdout) as { servers: Array<Record<string, unknown>> };
    // Started in the home folder, npx finds no such package (offline): the user's server fails, and nothing of the repository ran.
    expect(servers.find((server) => server.name === 'helper')).toMatchObject({ scope: 'user', status: 'failed' });
    expect(servers.find((server) => server.name === 'own')).toMatchObject({ scope: 'project', status: 'skipped' });
    expect(existsSync(mark)).toBe(false);
  });

  it("runs none of its code for --server NAME of a user's server", async () => {
    const result = await run(['--server', 'helper', 'ping']);
    expect(result.code).toBe(3);
    expect(existsSync(mark)).toBe(false);
  });

  it.each(['.', ''])("runs none of its code for rxmcp servers when PATH starts with %j: the child looks the user's npx up in the server's folder", async (entry) => {
    const npx = join(repo, 'npx');
    writeFileSync(npx, `#!/bin/sh\necho "$PWD" > ${JSON.stringify(mark)}\n`);
    chmodSync(npx, 0o755);
    const result = await rxmcp(['servers', '--json'], { env: { ...env, PATH: `${entry}${delimiter}${process.env['PATH'] ?? ''}` }, cwd: repo });
    rmSync(npx);
    expect(existsSync(mark)).toBe(false);
    expect(result.code).toBe(0);
  });

  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored. Read
  // against the current directory, it would make the repository's own
  // .config/Code/User/mcp.json (or a relative CODEX_HOME's config.toml) the
  // user's file, whose servers rxmcp starts.
  it.each([
    ['XDG_CONFIG_HOME', '.config', join('.config', 'Code', 'User', 'mcp.json'), (command: string) => JSON.stringify({ servers: { vsc: { command } } })],
    ['CODEX_HOME', 'codex-home', join('codex-home', 'config.toml'), (command: string) => `[mcp_servers.cdx]\ncommand = ${JSON.stringify(command)}\n`],
  ])('runs none of its code for rxmcp servers when %s is a relative path', async (variable, value, file, text) => {
    mkdirSync(join(repo, file, '..'), { recursive: true });
    writeFileSync(join(repo, file), text(join(repo, 'node_modules', '.bin', 'rxmcp-spec-helper-server')));
    const result = await rxmcp(['servers', '--json'], { env: { ...env, [variable]: value }, cwd: repo });
    rmSync(join(repo, file));
    expect(existsSync(mark)).toBe(false);
    expect(result.code).toBe(0);
    const { configs } = JSON.parse(result.stdout) as { configs: Array<{ path: string }> };
    expect(configs.map((config) => config.path)).not.toContain(file);
  });

  it("runs a project's own server in the project's folder once its file is named with --config, wherever rxmcp starts", async () => {
    // The control: the shim is real, and it is the project's to run when the person chooses the file.
    const result = await rxmcp(['--config', join(repo, '.mcp.json'), '--server', 'own', 'ping'], { env, cwd: home });
    expect(result.code).toBe(3);
    expect(readFileSync(mark, 'utf8')).toBe(repo);
  });
});
