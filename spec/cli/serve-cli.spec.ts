import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { firstValueFrom } from 'rxjs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CallToolResult, McpClient, Policy, type PolicyRule, type StdioServerEntry } from 'rxmcp';
import { readServerConfig } from 'rxmcp/node';
import { rxmcp } from '../support/cli.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { headlessSignIn, startOAuthServers } from '../support/oauth.js';
import { describeWithRedis, type RedisServer, startRedis } from '../support/redis.js';
import { eventually, isAlive } from '../support/servers.js';

// `rxmcp serve` as an MCP host meets it: the only server of a Claude Desktop
// config, in front of three real servers (server-filesystem and
// server-everything over stdio, the SDK fixture over Streamable HTTP), with
// a policy file. Driven by rxmcp's own client and the official client v2,
// over stdio and HTTP; two HTTP gateways sharing grants through a real Redis.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const NOTE = 'private/ is kept out of the model’s reach';
const TOKEN = 'spec-bearer-token-0123456789abcdef';
const children = new Set<ChildProcess>();

const textOf = (result: unknown): string => ((result as CallToolResult).content ?? []).map((block) => (block as { text?: string }).text ?? '').join('\n');

describe('rxmcp serve', () => {
  let web: RunningServer;
  let sandbox: string;
  let work: string;
  let configPath: string;
  let policyPath: string;
  let desktopPath: string;
  let env: Record<string, string>;

  const rules = (): PolicyRule[] => [
    ...Policy.defaultRules(),
    { tool: 'filesystem_write_file', decision: 'allow', under: join(work, 'shared') },
    { tool: 'filesystem_write_file', decision: 'deny', under: join(work, 'private'), note: NOTE },
    { tool: 'web_echo', decision: 'allow' },
    { tool: 'everything_echo', decision: 'allow' },
    { tool: 'everything_get-env', decision: 'allow' },
  ];

  beforeAll(async () => {
    web = await startHttpServer('http-server.mjs');
    sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-serve-'));
    work = join(sandbox, 'work');
    mkdirSync(join(work, 'shared'), { recursive: true });
    mkdirSync(join(work, 'private'), { recursive: true });
    env = { HOME: sandbox, XDG_CONFIG_HOME: join(sandbox, 'config'), [`RXMCP_SPEC_TOKEN`]: TOKEN };
    configPath = join(sandbox, 'servers.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          filesystem: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), work] },
          everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
          web: { type: 'http', url: web.url },
        },
      }),
    );
    policyPath = join(sandbox, 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ rules: rules(), roots: { filesystem: work } }, null, 2));
    // What a person puts in claude_desktop_config.json: rxmcp serve as the only server.
    desktopPath = join(sandbox, 'claude_desktop_config.json');
    writeFileSync(desktopPath, JSON.stringify({ mcpServers: { rxmcp: { command: process.execPath, args: [bin, 'serve', '--config', configPath, '--policy', policyPath] } } }));
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await web?.stop();
    rmSync(sandbox, { recursive: true, force: true });
  });

  /** The gateway's command line, as the desktop config gives it. */
  async function desktopEntry(): Promise<StdioServerEntry> {
    const desktop = await readServerConfig(desktopPath);
    expect(desktop.servers.map((server) => server.name)).toEqual(['rxmcp']);
    return desktop.servers[0] as StdioServerEntry;
  }

  describe('over stdio, as the only server of a Claude Desktop config', () => {
    it('serves the three servers’ tools under prefixes, allows a write in the allowed folder and denies one outside with the rule’s note (rxmcp McpClient)', async () => {
      const entry = await desktopEntry();
      const mcp = McpClient.connectStdio({ command: entry.command, args: entry.args, env, clientName: 'serve-spec' });
      try {
        const tools = await firstValueFrom(mcp.listTools());
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['filesystem_write_file', 'filesystem_read_text_file', 'everything_echo', 'web_echo', 'web_add']));
        // Reasons sits in the stack: every declaration asks why.
        expect(tools.find((tool) => tool.name === 'filesystem_write_file')?.inputSchema.properties).toHaveProperty('reason');

        const allowed = await firstValueFrom(mcp.callTool('filesystem_write_file', { path: join(work, 'shared', 'a.txt'), content: 'through the gateway', reason: 'the spec says so' }));
        expect(allowed.isError).toBeFalsy();
        expect(readFileSync(join(work, 'shared', 'a.txt'), 'utf8')).toBe('through the gateway');

        const denied = await firstValueFrom(mcp.callTool('filesystem_write_file', { path: join(work, 'private', 'b.txt'), content: 'nope' }));
        expect(denied.isError).toBe(true);
        expect(textOf(denied)).toContain(NOTE);
        expect(existsSync(join(work, 'private', 'b.txt'))).toBe(false);

        expect(textOf(await firstValueFrom(mcp.callTool('web_echo', { text: 'over http upstream' })))).toBe('over http upstream');
        expect(textOf(await firstValueFrom(mcp.callTool('everything_echo', { message: 'over stdio upstream' })))).toContain('over stdio upstream');
        // Nothing the policy stops reaches the server: a write nobody allowed, with nobody to ask, is denied too.
        const unasked = await firstValueFrom(mcp.callTool('filesystem_write_file', { path: join(work, 'c.txt'), content: 'x' }));
        expect(unasked.isError).toBe(true);
        expect(existsSync(join(work, 'c.txt'))).toBe(false);
      } finally {
        await mcp.close();
      }
    });

    it.each(['legacy', 'modern'] as const)('serves the official client v2 (%s era): prefixed tools, the denial’s note', async (era) => {
      const entry = await desktopEntry();
      const client = new Client({ name: 'serve-spec', version: '1.0.0' }, (era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) as never);
      await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['filesystem_write_file', 'everything_echo', 'web_echo']));
        const denied = await client.callTool({ name: 'filesystem_write_file', arguments: { path: join(work, 'private', `${era}.txt`), content: 'nope' } });
        expect(denied.isError).toBe(true);
        expect(textOf(denied)).toContain(NOTE);
        const allowed = await client.callTool({ name: 'filesystem_write_file', arguments: { path: join(work, 'shared', `${era}.txt`), content: era } });
        expect(allowed.isError).toBeFalsy();
        expect(readFileSync(join(work, 'shared', `${era}.txt`), 'utf8')).toBe(era);
      } finally {
        await client.close();
      }
    });

    it.each([
      ['the host closes stdin', 'stdin'],
      ['SIGTERM', 'SIGTERM'],
      ['SIGINT', 'SIGINT'],
    ] as const)('closes every upstream server when %s', async (_name, how) => {
      const gateway = spawn(process.execPath, [bin, 'serve', '--config', configPath, '--policy', policyPath], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
      children.add(gateway);
      const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => (children.delete(gateway), resolve(code))));
      gateway.stderr.resume();
      const answers = createInterface({ input: gateway.stdout });
      const lines: string[] = [];
      answers.on('line', (line) => lines.push(line));
      // A legacy host's opening and a tools/list: the servers start on the first catalogue read.
      const send = (message: object) => gateway.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });
      await eventually(() => lines.length >= 1, 20_000);
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list', params: {} });
      await eventually(() => lines.some((line) => line.includes('"id":2')), 30_000);
      // Nothing but protocol on stdout.
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      const upstream = childrenOf(gateway.pid as number);
      expect(upstream.length).toBeGreaterThanOrEqual(2);

      if (how === 'stdin') gateway.stdin.end();
      else gateway.kill(how);
      expect(await exited).toBe(how === 'SIGINT' ? 130 : 0);
      await eventually(() => upstream.every((pid) => !isAlive(pid)), 10_000);
    });
  });

  describe('over HTTP', () => {
    it('requires the bearer token, refuses a foreign Host, and serves rxmcp’s client with the token', async () => {
      const gateway = await serveHttp(['--config', configPath, '--policy', policyPath, '--token-env', 'RXMCP_SPEC_TOKEN'], env);
      try {
        expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        expect((await post(gateway.url, initialize, headers)).status).toBe(401);
        expect((await post(gateway.url, initialize, { ...headers, authorization: 'Bearer wrong-token-wrong-token-wrong' })).status).toBe(401);
        const port = new URL(gateway.url).port;
        expect((await post(gateway.url, initialize, { ...headers, authorization: `Bearer ${TOKEN}`, host: `rebound.example:${port}` })).status).toBe(403);
        expect((await post(gateway.url, initialize, { ...headers, authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).status).toBe(403);
        // The token never shows: not on the command line, not in the diagnostics.
        expect(gateway.stderr.join('\n')).not.toContain(TOKEN);
        expect(execFileSync('ps', ['-o', 'args=', '-p', String(gateway.child.pid)], { encoding: 'utf8' })).not.toContain(TOKEN);

        const mcp = McpClient.connectHttp({ url: gateway.url, headers: { Authorization: `Bearer ${TOKEN}` }, clientName: 'serve-spec' });
        try {
          const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
          expect(names).toEqual(expect.arrayContaining(['filesystem_write_file', 'everything_echo', 'web_echo']));
          const denied = await firstValueFrom(mcp.callTool('filesystem_write_file', { path: join(work, 'private', 'http.txt'), content: 'nope' }));
          expect(textOf(denied)).toContain(NOTE);
          const allowed = await firstValueFrom(mcp.callTool('filesystem_write_file', { path: join(work, 'shared', 'http.txt'), content: 'over http' }));
          expect(allowed.isError).toBeFalsy();
          expect(readFileSync(join(work, 'shared', 'http.txt'), 'utf8')).toBe('over http');
          // The upstream servers run in the gateway's environment, less the token's variable.
          const environment = textOf(await firstValueFrom(mcp.callTool('everything_get-env', {})));
          expect(environment).toContain('XDG_CONFIG_HOME');
          expect(environment).not.toContain(TOKEN);
        } finally {
          await mcp.close();
        }

        const official = new Client({ name: 'serve-spec', version: '1.0.0' });
        await official.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
        try {
          const { tools } = await official.listTools();
          expect(tools.map((tool) => tool.name)).toContain('web_add');
        } finally {
          await official.close();
        }
      } finally {
        expect(await gateway.stop()).toBe(0);
      }
    });

    it('makes a token of its own without --token-env, prints it once with the host configs that carry it, and refuses a request without it', async () => {
      const [one, two] = await Promise.all([serveHttp(['--config', configPath, '--policy', policyPath], env), serveHttp(['--config', configPath, '--policy', policyPath], env)]);
      try {
        const token = one.token as string;
        // 32 random bytes as base64url, and a fresh one for each run.
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(two.token).not.toBe(token);
        const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        expect((await post(one.url, initialize, headers)).status).toBe(401);
        expect((await post(one.url, initialize, { ...headers, authorization: `Bearer ${two.token as string}` })).status).toBe(401);
        expect((await post(one.url, initialize, { ...headers, authorization: `Bearer ${token}` })).status).toBe(200);

        // What the person reads on stderr: a VS Code entry and a Claude Desktop one (through mcp-remote, the token in its env, not its argv).
        const entry = (title: RegExp): Record<string, { [key: string]: unknown }> => {
          const at = one.stderr.findIndex((line) => title.test(line));
          expect(at).toBeGreaterThan(-1);
          return JSON.parse(`{${(one.stderr[at + 1] as string).replace(/^rxmcp serve: /, '')}}`);
        };
        const vscode = entry(/^rxmcp serve: VS Code/);
        expect(vscode).toEqual({ rxmcp: { type: 'http', url: one.url, headers: { Authorization: `Bearer ${token}` } } });
        expect(entry(/^rxmcp serve: Claude Desktop/)).toEqual({
          rxmcp: { command: 'npx', args: ['-y', 'mcp-remote', one.url, '--header', 'Authorization:${RXMCP_AUTH}'], env: { RXMCP_AUTH: `Bearer ${token}` } },
        });
        // The VS Code entry, as it is, reaches the gateway.
        const given = vscode['rxmcp'] as { url: string; headers: Record<string, string> };
        const mcp = McpClient.connectHttp({ url: given.url, headers: given.headers, clientName: 'serve-spec' });
        try {
          expect((await firstValueFrom(mcp.listTools())).map((tool) => tool.name)).toContain('everything_get-env');
          // Nothing it starts can read the token.
          expect(textOf(await firstValueFrom(mcp.callTool('everything_get-env', {})))).not.toContain(token);
        } finally {
          await mcp.close();
        }
        // Written once, in the instructions (the header, the two entries), and nowhere else: not in argv, not in later diagnostics.
        expect(one.stderr.filter((line) => line.includes(token))).toHaveLength(3);
        expect(execFileSync('ps', ['-o', 'args=', '-p', String(one.child.pid)], { encoding: 'utf8' })).not.toContain(token);
      } finally {
        await Promise.all([one.stop(), two.stop()]);
      }
    });

    it('refuses to listen beyond loopback without a token, and takes no token on the command line', async () => {
      const open = await rxmcp(['serve', '--config', configPath, '--http', '0', '--host', '0.0.0.0'], { env });
      expect(open.code).toBe(2);
      expect(open.stderr).toContain('--token-env');
      const unset = await rxmcp(['serve', '--config', configPath, '--http', '0', '--token-env', 'RXMCP_SPEC_NO_SUCH_VARIABLE'], { env });
      expect(unset.code).toBe(2);
      expect(unset.stderr).toContain('RXMCP_SPEC_NO_SUCH_VARIABLE');
      const literal = await rxmcp(['serve', '--config', configPath, '--http', '0', '--token-env', TOKEN.replace(/-/g, ' ')], { env });
      expect(literal.code).toBe(2);
      expect(literal.stderr).not.toContain('0123456789abcdef');
    });
  });

  describe('the command line', () => {
    it('documents serve in --help', async () => {
      const help = await rxmcp(['--help']);
      for (const words of ['rxmcp serve --config FILE [--policy FILE] [--http PORT [--host H]] [--token-env NAME] [--no-prefix]', '--policy FILE', '--token-env NAME', '--no-prefix']) {
        expect(help.stdout).toContain(words);
      }
    });

    it.each([
      [['serve'], /serve needs --config FILE/],
      [['serve', '--config', 'x.json', '--url', 'http://127.0.0.1:1/mcp'], /not --url/],
      [['serve', '--config', 'x.json', '--host', '127.0.0.1'], /--host goes with --http/],
      [['serve', '--config', 'x.json', '--http', '80000'], /--http wants a port/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--policy', 'p.json'], /--policy goes with serve/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--no-prefix'], /--no-prefix goes with serve/],
    ])('refuses %j as a usage error', async (args, message) => {
      const run = await rxmcp(args as string[]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    });

    it('names the policy file and key of a bad rule, and starts nothing', async () => {
      const bad = join(sandbox, 'bad-policy.json');
      writeFileSync(bad, JSON.stringify({ rules: [{ tool: 'filesystem_*', decision: 'allow', undr: '/srv' }] }));
      const run = await rxmcp(['serve', '--config', configPath, '--policy', bad], { env });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('bad-policy.json');
      expect(run.stderr).toContain('rules[0].undr');
      expect(run.stdout).toBe('');
    });

    it('serves the one enabled server under its own tool names with --no-prefix', async () => {
      const single = join(sandbox, 'single.json');
      writeFileSync(single, JSON.stringify({ mcpServers: { web: { type: 'http', url: web.url }, off: { command: 'rxmcp-never-started', disabled: true } } }));
      const open = join(sandbox, 'allow-all.json');
      writeFileSync(open, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
      const mcp = McpClient.connectStdio({ command: process.execPath, args: [bin, 'serve', '--config', single, '--policy', open, '--no-prefix'], env });
      try {
        const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'add']));
        expect(names.some((name) => name.startsWith('web_'))).toBe(false);
        expect(textOf(await firstValueFrom(mcp.callTool('echo', { text: 'unprefixed' })))).toBe('unprefixed');
      } finally {
        await mcp.close();
      }
      const many = await rxmcp(['serve', '--config', configPath, '--no-prefix'], { env });
      expect(many.code).toBe(3);
      expect(many.stderr).toMatch(/--no-prefix serves one server, and the config enables 3/);
    });
  });

  it('signs in to an upstream server with the tokens rxmcp login kept, and leaves it out until then', async () => {
    const oauth = await startOAuthServers();
    const home = mkdtempSync(join(tmpdir(), 'rxmcp-serve-login-'));
    const config = join(home, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { secured: { type: 'http', url: oauth.url }, web: { type: 'http', url: web.url } } }));
    const open = join(home, 'allow-adds.json');
    writeFileSync(open, JSON.stringify({ rules: [{ tool: 'secured_add', decision: 'allow' }] }));
    const served = async (): Promise<{ names: string[]; stderr: string[]; sum?: string }> => {
      const stderr: string[] = [];
      const mcp = McpClient.connectStdio({ command: process.execPath, args: [bin, 'serve', '--config', config, '--policy', open], env: { XDG_CONFIG_HOME: home }, onStderr: (line) => stderr.push(line) });
      try {
        const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
        const sum = names.includes('secured_add') ? textOf(await firstValueFrom(mcp.callTool('secured_add', { a: 2, b: 40 }))) : undefined;
        return { names, stderr, ...(sum === undefined ? {} : { sum }) };
      } finally {
        await mcp.close();
      }
    };
    try {
      const before = await served();
      expect(before.names).toContain('web_echo');
      expect(before.names.some((name) => name.startsWith('secured_'))).toBe(false);
      expect(before.stderr.join('\n')).toMatch(/secured.*rxmcp login/);

      const browser: Promise<void>[] = [];
      const login = await rxmcp(['login', '--config', config, '--server', 'secured', '--no-browser'], {
        env: { XDG_CONFIG_HOME: home },
        onLine: (line) => {
          const link = /https?:\/\/\S+/.exec(line)?.[0];
          if (line.startsWith('To sign in, open') && link) browser.push(headlessSignIn(new URL(link)).then((back) => fetch(back)).then(() => undefined));
        },
      });
      await Promise.all(browser);
      expect(login.code).toBe(0);

      const after = await served();
      expect(after.names).toEqual(expect.arrayContaining(['secured_add', 'web_echo']));
      expect(after.sum).toBe('42');
    } finally {
      await oauth.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  describeWithRedis('two gateways sharing grants through Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.dispose();
    });

    it('binds a call through one gateway with an "always allow" answered through the other', async () => {
      const shared = join(sandbox, 'redis-policy.json');
      // No rule allows writes: each one is asked, unless a grant says otherwise.
      // Shared grants: one host's "always" binds every host, of this gateway and the other.
      writeFileSync(shared, JSON.stringify({ rules: Policy.defaultRules(), roots: { filesystem: work }, redis: { url: redis.url, namespace: 'serve-spec' }, sharedGrants: true }));
      const [one, two] = await Promise.all([serveHttp(['--config', configPath, '--policy', shared], env), serveHttp(['--config', configPath, '--policy', shared], env)]);
      const questions: string[] = [];
      // A host that can answer (its elicitation hook says "always allow"), and one that cannot.
      const asking = McpClient.connectHttp({
        url: (one as Served).url,
        headers: bearer(one as Served),
        clientName: 'asking-host',
        onElicit: (request) => {
          questions.push(String(request.params.message));
          return { action: 'accept', content: { decision: 'always-allow' } };
        },
      });
      const headless = McpClient.connectHttp({ url: (two as Served).url, headers: bearer(two as Served), clientName: 'headless-host' });
      try {
        const target = (name: string) => ({ path: join(work, 'shared', 'fleet', name), content: name });
        mkdirSync(join(work, 'shared', 'fleet'), { recursive: true });
        const before = await firstValueFrom(headless.callTool('filesystem_write_file', target('before.txt')));
        expect(before.isError).toBe(true);
        expect(existsSync(join(work, 'shared', 'fleet', 'before.txt'))).toBe(false);

        const granted = await firstValueFrom(asking.callTool('filesystem_write_file', target('granted.txt')));
        expect(granted.isError).toBeFalsy();
        expect(questions).toHaveLength(1);
        expect(questions[0]).toContain('filesystem_write_file');

        const after = await firstValueFrom(headless.callTool('filesystem_write_file', target('after.txt')));
        expect(after.isError).toBeFalsy();
        expect(readFileSync(join(work, 'shared', 'fleet', 'after.txt'), 'utf8')).toBe('after.txt');
        // Bound to the folder the question suggested, not to every write.
        const elsewhere = await firstValueFrom(headless.callTool('filesystem_write_file', { path: join(work, 'elsewhere.txt'), content: 'x' }));
        expect(elsewhere.isError).toBe(true);
      } finally {
        await Promise.all([asking.close(), headless.close()]);
        await Promise.all([(one as Served).stop(), (two as Served).stop()]);
      }
    });

    it('holds a lease taken through one gateway against writes through the other, and gives it back when that gateway stops', async () => {
      const leased = join(sandbox, 'lease-policy.json');
      writeFileSync(
        leased,
        JSON.stringify({
          rules: [{ tool: 'lock_*', decision: 'allow' }, { tool: 'filesystem_write_file', decision: 'allow', under: join(work, 'shared') }],
          roots: { filesystem: work },
          leases: true,
          redis: { url: redis.url, namespace: 'serve-spec-leases' },
        }),
      );
      mkdirSync(join(work, 'shared', 'leased'), { recursive: true });
      const [one, two] = await Promise.all([serveHttp(['--config', configPath, '--policy', leased], env), serveHttp(['--config', configPath, '--policy', leased], env)]);
      const first = McpClient.connectHttp({ url: one.url, headers: bearer(one), clientName: 'first-host' });
      const second = McpClient.connectHttp({ url: two.url, headers: bearer(two), clientName: 'second-host' });
      const write = (name: string) => firstValueFrom(second.callTool('filesystem_write_file', { path: join(work, 'shared', 'leased', name), content: name }));
      let stopped = false;
      try {
        expect((await firstValueFrom(second.listTools())).map((tool) => tool.name)).toEqual(expect.arrayContaining(['lock_acquire', 'lock_release', 'filesystem_write_file']));
        const lock = await firstValueFrom(first.callTool('lock_acquire', { paths: [join(work, 'shared', 'leased')], wait: 0 }));
        expect(lock.isError).toBeFalsy();
        const refused = await write('refused.txt');
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/is leased by rxmcp-serve@/);
        expect(existsSync(join(work, 'shared', 'leased', 'refused.txt'))).toBe(false);

        await first.close();
        expect(await one.stop()).toBe(0);
        stopped = true;
        const free = await write('free.txt');
        expect(free.isError).toBeFalsy();
        expect(readFileSync(join(work, 'shared', 'leased', 'free.txt'), 'utf8')).toBe('free.txt');
      } finally {
        await Promise.all([first.close(), second.close()]);
        await Promise.all([stopped ? undefined : one.stop(), two.stop()]);
      }
    });
  });
});

interface Served {
  url: string;
  /** The token serve made and printed, when it was given no --token-env. */
  token?: string;
  child: ChildProcess;
  stderr: string[];
  stop(): Promise<number | null>;
}

/** Starts `rxmcp serve --http 0 ARGS` and resolves with its URL (and the token it made, without --token-env) once it listens. */
function serveHttp(args: string[], env: Record<string, string>): Promise<Served> {
  const makesToken = !args.includes('--token-env');
  const child = spawn(process.execPath, [bin, 'serve', '--http', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
  const stderr: string[] = [];
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    exited.then((code) => reject(new Error(`rxmcp serve exited with ${code}: ${stderr.join('\n')}`)));
    let url: string | undefined;
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      const serving = /serving (http:\/\/\S+)/.exec(line);
      url ??= serving?.[1];
      // A gateway that serves with no token says so at once, and prints none to wait for.
      const unguarded = serving !== null && !line.includes('(bearer token required)');
      const token = /^rxmcp serve: +Authorization: Bearer (\S+)$/.exec(line)?.[1];
      if (url && (token !== undefined || !makesToken || unguarded)) {
        resolve({
          url,
          ...(token === undefined ? {} : { token }),
          child,
          stderr,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
  });
}

/** The header that carries the token a gateway made. */
const bearer = (served: Served): Record<string, string> => ({ Authorization: `Bearer ${served.token as string}` });

/** A raw POST, so the Host header can be anything. */
function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The pids of a process's children. */
function childrenOf(pid: number): number[] {
  return execFileSync('ps', ['-o', 'pid=,ppid=', '-e'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child as number);
}
