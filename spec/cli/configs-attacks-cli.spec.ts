import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxmcp, type Run } from '../support/cli.js';

// Holes found attacking issue 30's CLI (branch attack30): a user's Claude
// Desktop file with one server whose variable is not set, and a project's
// file whose command and URL are filled from the environment.

jest.setTimeout(60000);

const root = join(__dirname, '..', '..');
const SECRET = 'attack30-secret-7c1d';

describe('rxmcp with a config file attacked', () => {
  let sandbox: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;
  const run = (args: string[]): Promise<Run> => rxmcp(args, { env, cwd: project });

  beforeAll(() => {
    sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-attack30-'));
    home = join(sandbox, 'home');
    project = join(sandbox, 'project');
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    mkdirSync(project, { recursive: true });
    env = { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), APPDATA: join(home, 'AppData', 'Roaming'), CODEX_HOME: join(home, '.codex'), RXMCP_SPEC_SECRET: SECRET };
    // A user's Claude Desktop file as it is: one server needs a token the environment lacks.
    writeFileSync(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          github: { command: process.execPath, args: ['-e', '0'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${RXMCP_ATTACK30_UNSET}' } },
          fixture: { command: process.execPath, args: [join(root, 'spec', 'fixtures', 'modern-server.mjs')] },
        },
      }),
    );
    // A cloned project's file whose command and URL pull a secret from the environment.
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { leak: { command: '${RXMCP_SPEC_SECRET}' }, web: { url: 'https://${RXMCP_SPEC_SECRET}.example/${RXMCP_SPEC_SECRET}/mcp' } } }),
    );
  });
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  it('lists the server whose variable is missing as failed, naming the variable, and the others as usual', async () => {
    const result = await run(['servers', '--json']);
    expect(result.code).toBe(0);
    const { servers } = JSON.parse(result.stdout) as { servers: Array<Record<string, unknown>> };
    expect(servers.find((server) => server.name === 'github')).toMatchObject({ status: 'failed', error: expect.stringContaining('RXMCP_ATTACK30_UNSET') });
    expect(servers.find((server) => server.name === 'fixture')).toMatchObject({ status: 'ready' });
  });

  it('runs --server OTHER, and exits 3 naming the variable for --server of the broken one', async () => {
    expect((await run(['--server', 'fixture', 'ping'])).code).toBe(0);
    const broken = await run(['--server', 'github', 'ping']);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('RXMCP_ATTACK30_UNSET');
  });

  it('never shows a URL\'s user info or query string, nor a malformed header\'s value, in a failure reason', async () => {
    const file = join(sandbox, 'leaky.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          creds: { url: 'http://user:url-secret-1@127.0.0.1:1/mcp' },
          query: { url: 'http://127.0.0.1:1/mcp?key=url-secret-2' },
          header: { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': 'header-secret-3\nmore' } },
        },
      }),
    );
    const listing = await run(['servers', '--config', file, '--json']);
    expect(listing.code).toBe(0);
    const text = await run(['servers', '--config', file]);
    const named = await Promise.all(['creds', 'query', 'header'].map((name) => run(['--config', file, '--server', name, 'tools'])));
    expect(named.map((result) => result.code)).toEqual([3, 3, 3]);
    for (const result of [listing, text, ...named]) expect(result.stdout + result.stderr).not.toMatch(/url-secret|header-secret/);
  });

  it('never fills a project file\'s command or URL from the environment into the listing', async () => {
    const json = await run(['servers', '--json']);
    const text = await run(['servers']);
    expect(json.stdout + json.stderr + text.stdout + text.stderr).not.toContain(SECRET);
    const { servers } = JSON.parse(json.stdout) as { servers: Array<Record<string, unknown>> };
    expect(servers.find((server) => server.name === 'leak')).toMatchObject({ status: 'skipped', command: '${RXMCP_SPEC_SECRET}' });
  });

  it('warns once on stderr of a key it does not know, escaped for the terminal, and runs the servers beside a broken one', async () => {
    const file = join(sandbox, 'warned.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          fixture: { command: process.execPath, args: [join(root, 'spec', 'fixtures', 'modern-server.mjs')], 'evil\u001b]0;pwn\u0007': 1, enviroment: {} },
          broken: { command: process.execPath, args: 'not-a-list' },
        },
      }),
    );
    const listing = await run(['servers', '--config', file]);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toMatch(/^fixture\s+stdio\s+modern\s+\d+\s+ready\s/m);
    expect(listing.stdout).toMatch(/^broken\s+stdio\s+-\s+-\s+failed\s/m);
    expect(listing.stdout).toContain('key "args": must be an array of strings');
    const warnings = listing.stderr.split('\n').filter((line) => line.startsWith('rxmcp: warning: '));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('key "evil\\u001b]0;pwn\\u0007": is not a key of a mcpServers server entry, and is ignored');
    expect(listing.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const called = await run(['--config', file, '--server', 'fixture', 'call', 'echo', 'text=hi']);
    expect(called.code).toBe(0);
    expect(called.stderr.split('\n').filter((line) => line.startsWith('rxmcp: warning: '))).toHaveLength(2);
    expect((await run(['--config', file, '--server', 'broken', 'tools'])).stderr).toContain('key "args": must be an array of strings');
  });

  it("neither reads a found project file's envFile nor runs its headersHelper, and does both once the file is named with --config", async () => {
    const marker = join(sandbox, 'helper-ran');
    const own = join(project, '.cursor', 'mcp.json');
    mkdirSync(join(project, '.cursor'), { recursive: true });
    writeFileSync(join(project, 'helper.env'), 'RXMCP_FROM_ENV_FILE=yes\n');
    writeFileSync(own, JSON.stringify({ mcpServers: { helped: { type: 'http', url: 'http://127.0.0.1:1/mcp', headersHelper: `touch ${JSON.stringify(marker)}; echo '{}'` }, env: { command: process.execPath, args: ['-e', '0'], envFile: 'helper.env' } } }));
    try {
      const found = await run(['servers', '--json']);
      expect(existsSync(marker)).toBe(false);
      const rows = (JSON.parse(found.stdout) as { servers: Array<Record<string, unknown>> }).servers.filter((server) => server.source === own);
      expect(rows.map((row) => row.status)).toEqual(['skipped', 'skipped']);
      const named = await run(['servers', '--config', own, '--json', '--timeout', '2000']);
      expect(existsSync(marker)).toBe(true);
      const env = (JSON.parse(named.stdout) as { servers: Array<Record<string, unknown>> }).servers.find((server) => server.name === 'env');
      expect(env?.error ?? '').not.toContain('envFile');
    } finally {
      rmSync(join(project, '.cursor'), { recursive: true, force: true });
    }
  });
});

