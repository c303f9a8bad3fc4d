import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { Registry, McpClientError, normalizeServerConfig, type LlmToolCall, type ServerStatus, type ToolProvider } from '../../src/index.js';
import { readServerConfig, type ReadServerConfigOptions } from '../../src/node/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

const root = join(__dirname, '..', '..');
const configs = join(root, 'spec', 'fixtures', 'configs');
const call = (id: string, name: string, args: object = {}): LlmToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const states = (map: ReadonlyMap<string, ServerStatus>) => Object.fromEntries([...map].map(([name, status]) => [name, status.state]));

let http: RunningServer;
let scratch: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // The fixtures name their servers by paths relative to the repository, as a user's file names them relative to where the app runs.
  expect(process.cwd()).toBe(root);
  http = await startHttpServer('http-server.mjs');
  scratch = mkdtempSync(join(tmpdir(), 'rxmcp-configs-'));
  env = { ...process.env, RXMCP_FIXTURE_URL: http.url, RXMCP_FIXTURE_TOKEN: 'fixture-token-secret' };
});

afterAll(async () => {
  await http.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Reads a fixture as a user's file is read; Codex's holds no placeholders, so its stand-in port is swapped for the fixture's. */
async function read(name: string, options: ReadServerConfigOptions = {}) {
  let path = join(configs, name);
  if (name.endsWith('.toml')) {
    path = join(scratch, 'config.toml');
    writeFileSync(path, readFileSync(join(configs, name), 'utf8').replace('http://127.0.0.1:0/mcp', http.url));
  }
  // The fixtures name their servers relative to the repository: they start there.
  return readServerConfig(path, { env, workspaceFolder: root, cwd: root, inputs: () => 'typed-token', ...options });
}

describe.each([
  ['Claude Desktop', 'claude_desktop_config.json', ['everything', 'filesystem']],
  ['Cursor', 'cursor-mcp.json', ['everything', 'filesystem', 'fixture']],
  ['Claude Code', 'claude-code.mcp.json', ['everything', 'fixture']],
  ['VS Code', 'vscode-mcp.json', ['everything', 'filesystem', 'fixture']],
  ['Codex', 'codex-config.toml', ['everything', 'filesystem', 'fixture']],
  ['Windsurf', 'windsurf-mcp_config.json', ['everything', 'fixture']],
])('Registry.fromConfig over the %s fixture', (_app, file, live) => {
  it('lists the live servers\' tools under their names, calls them, and leaves out the one that cannot start', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig(await read(file), { onWarn: (message) => warnings.push(message) });
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      for (const server of live) expect(names.some((name) => name.startsWith(`${server}_`))).toBe(true);
      expect(names.some((name) => name.startsWith('broken_'))).toBe(false);
      expect(warnings.filter((message) => message.startsWith('left out the tools'))).toEqual([
        expect.stringMatching(/^left out the tools of "broken": cannot start "rxmcp-no-such-server"/),
      ]);
      const status = await firstValueFrom(tools.status$);
      expect(status.get('broken')).toMatchObject({ state: 'failed', error: expect.any(McpClientError) });
      for (const server of live) expect(status.get(server)).toMatchObject({ state: 'ready', tools: expect.any(Number) });
      const answers = await tools.executeToolCalls([call('1', 'everything_echo', { message: 'hi' }), call('2', 'broken_anything')]);
      expect(answers[0]).toMatchObject({ content: 'Echo: hi', is_error: false });
      expect(answers[1]).toMatchObject({ tool_call_id: '2', is_error: true, content: expect.stringContaining('"broken" is not running') });
      if (live.includes('fixture')) {
        expect((await tools.executeToolCalls([call('3', 'fixture_add', { a: 2, b: 3 })]))[0]).toMatchObject({ content: expect.stringContaining('5'), is_error: false });
      }
    } finally {
      await tools.close();
    }
  });
});

describe('Registry.fromConfig with a user\'s Cursor file', () => {
  it('starts nothing before the first catalogue read, and tries the broken server again on each read', async () => {
    const warnings: string[] = [];
    const tools = Registry.fromConfig(await read('cursor-mcp.json'), { onWarn: (message) => warnings.push(message) });
    const seen: Array<Record<string, string>> = [];
    const watching = tools.status$.subscribe((map) => seen.push(states(map)));
    try {
      expect(seen).toEqual([{ everything: 'starting', filesystem: 'starting', fixture: 'starting', broken: 'starting', paused: 'disabled' }]);
      await tools.toolsForLlm();
      expect(seen.at(-1)).toEqual({ everything: 'ready', filesystem: 'ready', fixture: 'ready', broken: 'failed', paused: 'disabled' });
      const before = seen.length;
      await tools.toolsForLlm();
      // The broken server is started afresh, fails again, and says so again; the others are untouched.
      expect(seen.slice(before).map((map) => map['broken'])).toEqual(['starting', 'failed']);
      expect(warnings.filter((message) => message.includes('"broken"'))).toHaveLength(2);
    } finally {
      watching.unsubscribe();
      await tools.close();
    }
  });

  it('brings a server back on the next read once it can start', async () => {
    const script = join(scratch, 'late-server.mjs');
    const config = normalizeServerConfig({ mcpServers: { late: { command: 'node', args: [script, 'stdio'] } } });
    const tools = Registry.fromConfig(config, { onWarn: () => undefined });
    try {
      expect(await tools.toolsForLlm()).toEqual([]);
      expect((await firstValueFrom(tools.status$)).get('late')?.state).toBe('failed');
      writeFileSync(script, `import ${JSON.stringify(pathToFileURL(join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')).href)};\n`);
      expect((await tools.toolsForLlm()).map((tool) => tool.function.name)).toContain('late_echo');
      expect((await firstValueFrom(tools.status$)).get('late')?.state).toBe('ready');
    } finally {
      await tools.close();
    }
  });

  it('starts the servers at once, not one after another', async () => {
    // Each stub waits for the other's marker before it exits: one after another, the first would wait for good.
    const marker = (name: string) => join(scratch, `parallel-${name}`);
    const stub = (mine: string, theirs: string) =>
      `require('fs').writeFileSync(${JSON.stringify(marker(mine))}, ''); const t = setInterval(() => { if (require('fs').existsSync(${JSON.stringify(marker(theirs))})) { clearInterval(t); process.exit(3); } }, 20);`;
    const config = normalizeServerConfig({ mcpServers: { a: { command: process.execPath, args: ['-e', stub('a', 'b')] }, b: { command: process.execPath, args: ['-e', stub('b', 'a')] } } });
    const tools = Registry.fromConfig(config, { client: { requestTimeoutMs: 60_000 }, onWarn: () => undefined });
    try {
      const started = Date.now();
      await tools.toolsForLlm();
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(states(await firstValueFrom(tools.status$))).toEqual({ a: 'failed', b: 'failed' });
    } finally {
      await tools.close();
    }
  });

  it('leaves out a server that does not answer within its budget, with the timeout as the reason', async () => {
    const warnings: string[] = [];
    const config = normalizeServerConfig({
      mcpServers: {
        silent: { command: process.execPath, args: [join(root, 'spec/fixtures/silent-server.mjs')] },
        everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
      },
    });
    const tools = Registry.fromConfig(config, { servers: { silent: { requestTimeoutMs: 1500, probeTimeoutMs: 1500 } }, onWarn: (message) => warnings.push(message) });
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toContain('everything_echo');
      expect(names.some((name) => name.startsWith('silent_'))).toBe(false);
      expect(warnings).toEqual([expect.stringMatching(/^left out the tools of "silent": .*got no answer within 1500 ms/)]);
      expect((await firstValueFrom(tools.status$)).get('silent')).toMatchObject({ state: 'failed', error: expect.objectContaining({ name: 'McpTimeoutError' }) });
    } finally {
      await tools.close();
    }
  });

  it('reports a server that exits after it was ready at once, and starts it afresh on the next read', async () => {
    const token = `rxmcp-exit-check-${process.pid}-${Date.now()}`;
    const config = normalizeServerConfig({
      mcpServers: { everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio', token] } },
    });
    const tools = Registry.fromConfig(config, { onWarn: () => undefined });
    const pidOf = () =>
      execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(token))
        .map((line) => Number.parseInt(line.trim(), 10))[0];
    try {
      await tools.toolsForLlm();
      const first = pidOf();
      expect(first).toEqual(expect.any(Number));
      process.kill(first as number, 'SIGKILL');
      let latest: ReadonlyMap<string, ServerStatus> = new Map();
      const watching = tools.status$.subscribe((map) => (latest = map));
      await eventually(() => latest.get('everything')?.state === 'failed', 15_000);
      watching.unsubscribe();
      expect((await tools.executeToolCalls([call('1', 'everything_echo', { message: 'x' })]))[0]).toMatchObject({ is_error: true });
      expect((await tools.toolsForLlm()).map((tool) => tool.function.name)).toContain('everything_echo');
      expect((await firstValueFrom(tools.status$)).get('everything')?.state).toBe('ready');
      expect(pidOf()).not.toBe(first);
    } finally {
      await tools.close();
    }
  });

  it('passes client options to every server, and one server\'s own over them', async () => {
    const shared: string[] = [];
    const own: string[] = [];
    const tools = Registry.fromConfig(await read('cursor-mcp.json'), {
      client: { onStderr: (line) => shared.push(line), requestTimeoutMs: 30_000 },
      servers: { filesystem: { onStderr: (line) => own.push(line) } },
      onWarn: () => undefined,
    });
    try {
      await tools.toolsForLlm();
      await eventually(() => own.some((line) => line.includes('Secure MCP Filesystem Server')), 15_000);
      expect(shared.some((line) => line.includes('Secure MCP Filesystem Server'))).toBe(false);
    } finally {
      await tools.close();
    }
  });

  it('starts a server on the first read, closes its process on close(), and ends status$', async () => {
    const token = `rxmcp-close-check-${process.pid}-${Date.now()}`;
    const config = normalizeServerConfig({
      mcpServers: { everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio', token] } },
    });
    const tools = Registry.fromConfig(config);
    const running = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(token);
    const all = lastValueFrom(tools.status$.pipe(toArray()));
    expect(running()).toBe(false);
    await tools.toolsForLlm();
    expect(running()).toBe(true);
    await tools.close();
    await eventually(() => !running(), 15_000);
    expect((await all).at(-1)?.get('everything')?.state).toBe('ready');
    expect((await tools.executeToolCalls([call('1', 'everything_echo', { message: 'x' })]))[0]).toMatchObject({ is_error: true, content: expect.stringContaining('closed') });
  });

  it('fails the servers whose placeholders Node\'s environment cannot fill, and refuses options for a server it lacks', async () => {
    const raw = JSON.parse(readFileSync(join(configs, 'cursor-mcp.json'), 'utf8')) as unknown;
    const tools = Registry.fromConfig(raw);
    try {
      // ${workspaceFolder} names a project, which an object read by nobody has.
      expect((await firstValueFrom(tools.status$)).get('everything')).toMatchObject({ state: 'failed', error: expect.objectContaining({ key: 'args[0]', message: expect.stringContaining('${workspaceFolder}') }) });
    } finally {
      await tools.close();
    }
    expect(() => Registry.fromConfig(normalizeServerConfig({ mcpServers: { a: { command: 'x' } } }), { servers: { b: {} } })).toThrow(/"b", which the config does not define/);
  });

  it('takes a server named __proto__ from a hostile file as any other name', async () => {
    const hostile = JSON.parse('{"mcpServers": {"__proto__": {"command": "rxmcp-no-such-server"}}}') as unknown;
    const options = JSON.parse('{"servers": {"__proto__": {"requestTimeoutMs": 5000}}}') as { servers: Record<string, object> };
    const tools = Registry.fromConfig(hostile, { ...options, onWarn: () => undefined });
    try {
      expect(await tools.toolsForLlm()).toEqual([]);
      expect([...(await firstValueFrom(tools.status$)).keys()]).toEqual(['__proto__']);
      expect(({} as { requestTimeoutMs?: unknown }).requestTimeoutMs).toBeUndefined();
    } finally {
      await tools.close();
    }
  });

  it('keeps the tools a file switched off out of the catalogue and out of reach', async () => {
    const tools = Registry.fromConfig(await read('windsurf-mcp_config.json'), { onWarn: () => undefined });
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toContain('everything_echo');
      expect(names).not.toContain('everything_get-env');
      expect((await tools.executeToolCalls([call('1', 'everything_get-env')]))[0]).toMatchObject({ is_error: true, content: 'Unknown tool: get-env' });
    } finally {
      await tools.close();
    }
  });
});

describe('Registry#close()', () => {
  it('closes the providers that can be closed, and leaves the others', async () => {
    const closed: string[] = [];
    const provider = (name: string, closable: boolean): ToolProvider =>
      Object.assign(
        { toolsForLlm: async () => [], executeToolCalls: async () => [] },
        closable ? { close: async () => void closed.push(name) } : {},
      );
    const tools = new Registry().add(provider('a', true), { prefix: 'a' }).add(provider('b', false), { prefix: 'b' }).add(provider('c', true), { prefix: 'c' });
    const statuses = lastValueFrom(tools.status$.pipe(toArray()));
    await tools.close();
    expect(closed.sort()).toEqual(['a', 'c']);
    expect(await statuses).toEqual([new Map()]);
    expect(existsSync(scratch)).toBe(true);
  });
});
