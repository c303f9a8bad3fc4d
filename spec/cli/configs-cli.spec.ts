import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxmcp, type Run } from '../support/cli.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// The CLI with the servers of config files: real servers (server-everything
// and the SDK fixture over stdio, the SDK fixture over Streamable HTTP on
// 127.0.0.1), one that dies at start, one disabled. Every run gets a home and
// a working directory of its own, so the configs of whoever runs the tests
// never leak in.

jest.setTimeout(60000);

const root = join(__dirname, '..', '..');
const fixtures = join(root, 'spec', 'fixtures', 'configs-cli');
const SECRET = 'sekrit-value-1f2e3d';

describe('rxmcp with config files', () => {
  let web: RunningServer;
  let sandbox: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;
  const allServers = join(fixtures, 'mcp-servers.json');
  const run = (args: string[], options: { input?: string } = {}): Promise<Run> => rxmcp(args, { ...options, env, cwd: project });
  const json = (result: Run): unknown => {
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    return JSON.parse(result.stdout);
  };

  beforeAll(async () => {
    web = await startHttpServer('http-server.mjs');
    sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-configs-cli-'));
    home = join(sandbox, 'home');
    project = join(sandbox, 'project');
    mkdirSync(project, { recursive: true });
    mkdirSync(home, { recursive: true });
    env = {
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      APPDATA: join(home, 'AppData', 'Roaming'),
      LOCALAPPDATA: join(home, 'AppData', 'Local'),
      CODEX_HOME: join(home, '.codex'),
      RXMCP_SPEC_NODE: process.execPath,
      RXMCP_SPEC_ROOT: root,
      RXMCP_SPEC_HTTP_URL: web.url,
      RXMCP_SPEC_SECRET: SECRET,
    };
  });
  afterAll(async () => {
    await web?.stop();
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('names servers, --server and --config in its help, with key=value for call', async () => {
    const help = await run(['--help']);
    for (const words of ['servers ', '--server NAME', '--config FILE', 'call TOOL [JSON|-] [key=value...]', 'rxmcp --server everything call get-sum a=2 b=40']) expect(help.stdout).toContain(words);
  });

  describe('rxmcp servers --config FILE', () => {
    it('lists every server with its transport, era, tool count and status, the one that cannot start as failed, and exits 0', async () => {
      const result = await run(['servers', '--config', allServers]);
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n');
      expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+ERA\s+TOOLS\s+STATUS\s+SOURCE$/);
      expect(result.stdout).toMatch(new RegExp(`^everything\\s+stdio\\s+legacy\\s+\\d+\\s+ready\\s+${literal(allServers)}$`, 'm'));
      expect(result.stdout).toMatch(/^fixture\s+stdio\s+modern\s+\d+\s+ready\s/m);
      expect(result.stdout).toMatch(/^web\s+http\s+modern\s+\d+\s+ready\s/m);
      expect(result.stdout).toMatch(/^broken\s+stdio\s+-\s+-\s+failed\s/m);
      expect(result.stdout).toMatch(/^off\s+stdio\s+-\s+-\s+disabled\s/m);
      expect(result.stdout).toMatch(/^broken: .*exited with code 3.*missing API key CRASH_TOKEN/m);
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    });

    it('describes them as JSON, never with an env or header value', async () => {
      const result = await run(['servers', '--config', allServers, '--json']);
      expect(result.code).toBe(0);
      const listing = json(result) as { configs: unknown[]; servers: Array<Record<string, unknown>> };
      expect(listing.configs).toEqual([{ path: allServers, format: 'mcp-servers', servers: 5 }]);
      const byName = Object.fromEntries(listing.servers.map((server) => [server.name, server]));
      expect(byName.everything).toMatchObject({ source: allServers, transport: 'stdio', command: process.execPath, status: 'ready', era: 'legacy', wire: 'stdio' });
      expect(byName.everything?.tools).toBeGreaterThan(5);
      expect(byName.web).toMatchObject({ transport: 'http', url: web.url, status: 'ready', era: 'modern', wire: 'streamable-http', serverInfo: { name: 'rxmcp-fixture' } });
      expect(byName.broken).toMatchObject({ status: 'failed', error: expect.stringContaining('missing API key CRASH_TOKEN') });
      expect(byName.broken).not.toHaveProperty('tools');
      expect(byName.off).toEqual({ name: 'off', source: allServers, transport: 'stdio', command: 'rxmcp-spec-never-started', status: 'disabled' });
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    });

    it('shows a hostile server name and failure reason as visible escapes, in text and in JSON', async () => {
      const hostile = join(sandbox, 'hostile.json');
      const name = 'evil\u001b]0;pwned\u0007\u202e';
      writeFileSync(hostile, JSON.stringify({ mcpServers: { [name]: { command: 'rxmcp-spec-\u001b[2Jmissing' } } }));
      const text = await run(['servers', '--config', hostile]);
      expect(text.code).toBe(0);
      expect(text.stdout + text.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
      expect(text.stdout).toMatch(/^evil\\x1b\]0;pwned\\x07\\u202e\s+stdio\s+-\s+-\s+failed/m);
      const listing = await run(['servers', '--config', hostile, '--json']);
      expect(listing.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
      expect((json(listing) as { servers: Array<{ name: string; status: string }> }).servers).toEqual([expect.objectContaining({ name, status: 'failed' })]);
    });

    it('exits 3 naming the file when it cannot be read', async () => {
      const malformed = join(fixtures, 'malformed.json');
      const result = await run(['servers', '--config', malformed]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`cannot read ${malformed}`);
    });
  });

  describe('the files rxmcp finds by itself', () => {
    beforeAll(() => {
      mkdirSync(join(home, '.cursor'), { recursive: true });
      copyFileSync(allServers, join(home, '.cursor', 'mcp.json'));
      copyFileSync(join(fixtures, 'project.mcp.json'), join(project, '.mcp.json'));
    });
    afterAll(() => {
      rmSync(join(home, '.cursor'), { recursive: true, force: true });
      rmSync(join(project, '.mcp.json'), { force: true });
    });

    it('lists the servers of the user\'s files and of the project\'s, starting none of the project\'s', async () => {
      const result = await run(['servers', '--json']);
      expect(result.code).toBe(0);
      const { configs, servers } = json(result) as { configs: Array<Record<string, unknown>>; servers: Array<Record<string, unknown>> };
      expect(configs).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: join(home, '.cursor', 'mcp.json'), scope: 'user', servers: 5 }),
          expect.objectContaining({ path: join(project, '.mcp.json'), scope: 'project', servers: 2 }),
        ]),
      );
      expect(servers.find((server) => server.name === 'everything')).toMatchObject({ status: 'ready', scope: 'user', source: join(home, '.cursor', 'mcp.json') });
      expect(servers.find((server) => server.name === 'project-only')).toMatchObject({ status: 'skipped', scope: 'project', error: expect.stringContaining('--config') });
      const fixtures = servers.filter((server) => server.name === 'fixture');
      expect(fixtures).toEqual([
        expect.objectContaining({ source: join(project, '.mcp.json'), status: 'skipped' }),
        expect.objectContaining({ source: join(home, '.cursor', 'mcp.json'), status: 'ready', shadowedBy: join(project, '.mcp.json') }),
      ]);
      expect(fixtures[0]).not.toHaveProperty('shadowedBy');
      const text = await run(['servers']);
      expect(text.stdout).toContain(`fixture (${join(home, '.cursor', 'mcp.json')}): --server picks the one in ${join(project, '.mcp.json')}`);
      expect(existsSync(join(project, 'project-server-ran'))).toBe(false);
    });

    it('runs a command on the server --server names, saying under --verbose which file it came from', async () => {
      const result = await run(['--server', 'everything', '--verbose', 'call', 'get-sum', 'a=2', 'b=40']);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('42') });
      expect(result.stderr).toContain(`server everything from ${join(home, '.cursor', 'mcp.json')}`);
      const tools = json(await run(['--server', 'web', '--json', 'tools'])) as Array<{ name: string }>;
      expect(tools.map((tool) => tool.name)).toContain('echo');
    });

    it('starts a project\'s server only when its file is named with --config, even one named like a server of the user\'s', async () => {
      for (const name of ['project-only', 'fixture']) {
        const refused = await run(['--server', name, 'ping']);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`server "${name}" comes from the project's "${join(project, '.mcp.json')}"`);
        expect(refused.stderr).toContain(`--config "${join(project, '.mcp.json')}"`);
      }
      expect(existsSync(join(project, 'project-server-ran'))).toBe(false);
      // Named with --config, the file is the user's choice, and its server runs (and, being no MCP server, fails).
      expect((await run(['--config', join(project, '.mcp.json'), '--server', 'project-only', 'ping'])).code).toBe(3);
      expect(existsSync(join(project, 'project-server-ran'))).toBe(true);
      rmSync(join(project, 'project-server-ran'));
    });

    it('exits 2 on an unknown server name, listing the names there are', async () => {
      const result = await run(['--server', 'nope', 'tools']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no server named "nope"; the servers there are "project-only", "fixture", "everything", "web", "broken", "off"');
    });
  });

  describe('--server and --config together, and --config alone', () => {
    it('passes the config\'s environment to a stdio server, and types key=value pairs by the tool\'s schema', async () => {
      const result = await run(['--config', allServers, '--server', 'fixture', '--json', 'call', 'environment', 'names=["FIXTURE_TOKEN"]']);
      expect(result.code).toBe(0);
      expect(json(result)).toMatchObject({ structuredContent: { env: { FIXTURE_TOKEN: SECRET } } });
    });

    it('takes the JSON object and key=value pairs side by side', async () => {
      const result = await run(['--config', allServers, '--server', 'web', 'call', 'add', '{"a":1}', 'b=41']);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^42\n/) });
    });

    it.each([
      [['call', 'add', 'a=one', 'b=2'], 'tool "add" wants "a" as number, got "one"'],
      [['call', 'add', 'a=1', 'c=2'], 'tool "add" has no argument "c"; it takes "a", "b"'],
      [['call', 'nosuchtool', 'a=1'], 'the server has no tool "nosuchtool"'],
      [['call', 'add', '{"a":1}', 'b'], 'call wants key=value'],
    ])('exits 2 on key=value arguments that do not fit: %j', async (args, message) => {
      const result = await run(['--config', allServers, '--server', 'web', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });

    it('uses the only server of a --config file, and asks for --server when it holds several', async () => {
      expect(await run(['--config', join(fixtures, 'one-server.json'), 'call', 'echo', 'text=from vscode'])).toMatchObject({ code: 0, stdout: 'from vscode\n' });
      const several = await run(['--config', allServers, 'tools']);
      expect(several.code).toBe(2);
      expect(several.stderr).toContain('holds 4 enabled servers: pick one with --server NAME');
    });

    it('exits 3 with the reason when the named server cannot start', async () => {
      const result = await run(['--config', allServers, '--server', 'broken', 'tools']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('missing API key CRASH_TOKEN');
      expect(result.stderr).not.toContain(SECRET);
    });

    it('exits 2 on a disabled server, on --config with --url or a command, and on login to a stdio server', async () => {
      expect((await run(['--config', allServers, '--server', 'off', 'tools'])).code).toBe(2);
      expect((await run(['--config', allServers, '--url', web.url, 'tools'])).stderr).toContain('give one server');
      expect((await run(['servers', '--', process.execPath])).stderr).toContain('servers lists the configured servers');
      const login = await run(['--config', allServers, '--server', 'fixture', 'login']);
      expect(login).toMatchObject({ code: 2, stderr: expect.stringContaining('login signs in to an HTTP server, and "fixture" runs over stdio') });
    });

    it('exits 2 when no config file is found', async () => {
      const result = await run(['--server', 'everything', 'tools']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('found no MCP config file');
      const listing = await run(['servers']);
      expect(listing.code).toBe(3);
      expect(listing.stderr).toContain('found no MCP config file');
    });
  });

  describe('VS Code\'s ${input:ID}', () => {
    const inputs = join(fixtures, 'vscode-inputs.json');
    const tmux = (...args: string[]): string => execFileSync('tmux', args, { encoding: 'utf8' });

    it('asks for the input at the terminal without showing what is typed, and gives the answer to the server', async () => {
      const session = `rxmcp-configs-${process.pid}`;
      const assignments = Object.entries(env).map(([key, value]) => `${key}='${value}'`);
      const command = ['cd', `'${project}'`, '&&', 'env', ...assignments, process.execPath, join(root, 'bin', 'rxmcp.mjs'), '--config', inputs, 'call', 'environment', `'names=["FIXTURE_TOKEN"]'`].join(' ');
      tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '20', `${command}; echo EXIT=$?; sleep 30`);
      const screen = (): string => tmux('capture-pane', '-t', session, '-p');
      try {
        await eventually(() => screen().includes('Fixture token (input "fixture-token", not shown):'), 15000);
        tmux('send-keys', '-t', session, 'typed-at-the-prompt', 'Enter');
        await eventually(() => screen().includes('EXIT=0'), 15000);
        expect(screen()).toContain('"FIXTURE_TOKEN":"typed-at-the-prompt"');
        expect(screen().split('\n').find((line) => line.includes('Fixture token'))).not.toContain('typed-at-the-prompt');
      } finally {
        tmux('kill-session', '-t', session);
      }
    });

    it('fails naming the file and the input when there is no terminal to ask at', async () => {
      const result = await run(['--config', inputs, 'tools']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`"${inputs}": input "fixture-token" is asked at a terminal, and stdin is not one`);
    });
  });

  describe('--json on every command', () => {
    const everything = (...args: string[]): Promise<Run> => run(['--config', allServers, '--server', 'everything', '--json', ...args]);
    const fixture = (...args: string[]): Promise<Run> => run(['--config', allServers, '--server', 'web', '--json', ...args]);

    it('writes each listing as a JSON array', async () => {
      for (const command of ['tools', 'resources', 'templates', 'prompts']) {
        const result = await everything(command);
        expect(result.code).toBe(0);
        expect(Array.isArray(json(result))).toBe(true);
      }
    });

    it('writes describe, read, prompt and ping as JSON objects', async () => {
      expect(json(await everything('describe'))).toMatchObject({ era: 'legacy', wire: 'stdio', serverInfo: { name: 'mcp-servers/everything' } });
      expect(json(await fixture('read', 'fixture://readme'))).toMatchObject({ contents: [{ uri: 'fixture://readme' }] });
      expect(json(await everything('prompt', 'simple-prompt'))).toMatchObject({ messages: [{ role: 'user' }] });
      expect(json(await fixture('ping'))).toEqual({ answered: expect.any(Boolean) });
    });

    it('writes a tool\'s error result as JSON and exits 1', async () => {
      const result = await fixture('call', 'fail');
      expect(result.code).toBe(1);
      expect(json(result)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the tool broke on purpose' }] });
    });

    it('says what logout did as JSON', async () => {
      const result = await run(['--json', 'logout', '--url', web.url]);
      expect(result.code).toBe(0);
      expect(json(result)).toEqual({ url: web.url, signedOut: true });
    });
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
