import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  McpClientError,
  McpConfigError,
  normalizeServerConfig,
  parseServerConfig,
  resolvePlaceholders,
  type ServerConfig,
  type ServerEntry,
} from '../../src/index.js';

const fixtures = join(__dirname, '..', 'fixtures', 'configs');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const byName = (config: ServerConfig, name: string): ServerEntry => {
  const entry = config.servers.find((server) => server.name === name);
  if (!entry) throw new Error(`no server ${name}`);
  return entry;
};

/** The error a promise or a function ends with, or the first error of a server in the config it gives. */
async function failure(run: () => unknown): Promise<McpConfigError> {
  try {
    const result = (await run()) as ServerConfig | undefined;
    const error = result?.servers?.find((entry) => entry.error)?.error;
    if (error) {
      expect(error).toBeInstanceOf(McpConfigError);
      return error;
    }
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    expect(error).toBeInstanceOf(McpClientError);
    return error as McpConfigError;
  }
  throw new Error('expected a McpConfigError');
}

describe('each format\'s fixture, read into one model', () => {
  it('reads a Claude Desktop file as it is, leaving the app\'s own keys aside', async () => {
    const config = await parseServerConfig(fixture('claude_desktop_config.json'), { path: 'claude_desktop_config.json' });
    expect(config.format).toBe('mcp-servers');
    expect(config.servers.map((server) => server.name)).toEqual(['everything', 'filesystem', 'broken']);
    expect(byName(config, 'filesystem')).toEqual({
      name: 'filesystem',
      disabled: false,
      source: 'claude_desktop_config.json',
      transport: 'stdio',
      command: 'node',
      args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', 'spec/fixtures/configs'],
      env: { API_TOKEN: 'sk-desktop-secret-1234' },
    });
  });

  it('reads Cursor\'s url servers as HTTP found by trying, and a disabled entry as disabled', async () => {
    const config = await parseServerConfig(fixture('cursor-mcp.json'));
    expect(byName(config, 'fixture')).toMatchObject({ transport: 'http', url: '${env:RXMCP_FIXTURE_URL}', httpTransport: 'auto' });
    expect(byName(config, 'paused')).toMatchObject({ transport: 'stdio', disabled: true });
  });

  it('reads Claude Code\'s type http as Streamable HTTP', async () => {
    const config = await parseServerConfig(fixture('claude-code.mcp.json'));
    expect(byName(config, 'fixture')).toMatchObject({ transport: 'http', httpTransport: 'streamable-http', headers: { 'X-Api-Key': '${RXMCP_FIXTURE_TOKEN}' } });
    expect(byName(config, 'everything')).toMatchObject({ transport: 'stdio', env: { LOG_LEVEL: '${RXMCP_LOG_LEVEL:-info}' } });
  });

  it('reads VS Code\'s servers and inputs, with its comments and trailing commas', async () => {
    const config = await parseServerConfig(fixture('vscode-mcp.json'), { path: '.vscode/mcp.json' });
    expect(config.format).toBe('vscode');
    expect(config.inputs).toEqual([{ id: 'fixture-token', description: 'Token for the fixture server', password: true }]);
    expect(byName(config, 'fixture')).toMatchObject({ transport: 'http', httpTransport: 'auto', headers: { Authorization: 'Bearer ${input:fixture-token}' } });
    expect(byName(config, 'broken')).toMatchObject({ transport: 'stdio', command: 'rxmcp-no-such-server' });
  });

  it('reads Codex\'s TOML: env_vars, bearer_token_env_var, http_headers, disabled_tools and enabled = false', async () => {
    const config = await parseServerConfig(fixture('codex-config.toml'), { path: 'config.toml' });
    expect(config.format).toBe('codex');
    expect(config.servers.map((server) => [server.name, server.disabled])).toEqual([
      ['everything', false],
      ['filesystem', false],
      ['fixture', false],
      ['broken', false],
      ['retired', true],
    ]);
    expect(byName(config, 'everything')).toMatchObject({ env: { RXMCP_LOG_LEVEL: '${env:RXMCP_LOG_LEVEL}' } });
    expect(byName(config, 'filesystem').disabledTools).toEqual(['write_file', 'edit_file', 'move_file', 'create_directory']);
    expect(byName(config, 'fixture')).toMatchObject({
      transport: 'http',
      httpTransport: 'streamable-http',
      headers: { 'X-Client': 'rxmcp-spec', Authorization: 'Bearer ${env:RXMCP_FIXTURE_TOKEN}' },
    });
  });

  it('reads Windsurf\'s serverUrl and disabledTools', async () => {
    const config = await parseServerConfig(fixture('windsurf-mcp_config.json'));
    expect(byName(config, 'fixture')).toMatchObject({ transport: 'http', url: '${env:RXMCP_FIXTURE_URL}', httpTransport: 'auto' });
    expect(byName(config, 'everything').disabledTools).toEqual(['get-env']);
  });

  it('knows Codex\'s TOML by its table heading when no path says so', async () => {
    const config = await parseServerConfig('model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n');
    expect(config).toMatchObject({ format: 'codex', servers: [{ name: 'a', command: 'x' }] });
  });

  it('takes an object already parsed, guessing the format from its top-level key', () => {
    expect(normalizeServerConfig({ servers: { a: { command: 'x' } } }).format).toBe('vscode');
    expect(normalizeServerConfig({ mcp_servers: { a: { command: 'x' } } }).format).toBe('codex');
    expect(normalizeServerConfig({ mcpServers: { a: { url: 'https://a.example/mcp', type: 'sse' } } }).servers[0]).toMatchObject({ httpTransport: 'sse' });
  });

  it('accepts each app\'s own keys that do not change which server runs', () => {
    const config = normalizeServerConfig({
      mcpServers: {
        cline: { command: 'x', autoApprove: ['a'], alwaysAllow: ['b'], timeout: 60, type: 'stdio' },
        code: { type: 'http', url: 'https://a.example/mcp', oauth: { clientId: 'id', callbackPort: 8080 } },
        cursor: { url: 'https://a.example/mcp', auth: { CLIENT_ID: 'id' } },
      },
    });
    expect(config.servers).toHaveLength(3);
  });
});

describe('errors that name the file, the server and the key, never a secret', () => {
  it('reads past a key no format documents, with a warning naming it, and the known key it most likely stands for', async () => {
    const text = JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_secret_value' }, enviroment: {}, Args: ['x'] } } });
    const config = await parseServerConfig(text, { path: '/home/ada/.cursor/mcp.json' });
    expect(config.servers[0]).toMatchObject({ name: 'github', command: 'gh-mcp', args: [] });
    expect(config.servers[0]?.error).toBeUndefined();
    expect(config.warnings).toEqual([
      { source: '/home/ada/.cursor/mcp.json', server: 'github', key: 'enviroment', message: '"/home/ada/.cursor/mcp.json", server "github", key "enviroment": is not a key of a mcpServers server entry, and is ignored' },
      expect.objectContaining({ key: 'Args', message: expect.stringMatching(/key "Args": .*ignored \(did you mean "args"\?\)$/) }),
    ]);
    expect(JSON.stringify(config.warnings)).not.toContain('ghp_secret_value');
  });

  it('fails a broken entry alone: the file and its other servers read', async () => {
    const config = normalizeServerConfig({ mcpServers: { good: { command: 'x' }, typed: { command: 5 }, empty: {}, off: { disabled: true, command: 'x', args: 'no' }, web: { url: 'https://a.example/mcp', type: 'websocket' } } }, { path: 'a.json' });
    expect(config.servers.map((entry) => [entry.name, entry.error?.key ?? null, entry.disabled])).toEqual([
      ['good', null, false],
      ['typed', 'command', false],
      ['empty', 'url', false],
      ['off', 'args', true],
      ['web', 'type', false],
    ]);
    expect(config.servers[1]?.error?.message).toBe('"a.json", server "typed", key "command": must be a string');
  });

  it('names an env entry of the wrong type without showing the others', async () => {
    const error = await failure(() => normalizeServerConfig({ mcpServers: { db: { command: 'x', env: { PASSWORD: 'hunter2-secret', PORT: 5432 } } } }, { path: 'a.json' }));
    expect(error).toMatchObject({ server: 'db', key: 'env.PORT' });
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('5432');
  });

  it('says where malformed JSON is, without quoting the text around it', async () => {
    const error = await failure(() => parseServerConfig('{"mcpServers": {"a": {"command": "x", "env": {"TOKEN": "sk-live-secret" oops}}}}', { path: 'm.json' }));
    expect(error.message).toMatch(/^"m\.json": is not valid JSON/);
    expect(error.message).not.toContain('sk-live-secret');
    expect(error.cause).toBeUndefined();
  });

  it('says where malformed TOML is, without quoting the lines around it', async () => {
    const error = await failure(() => parseServerConfig('[mcp_servers.a]\ncommand = "x"\nenv = { TOKEN = "sk-toml-secret" \n', { path: 'config.toml' }));
    expect(error.message).toMatch(/^"config\.toml": is not valid TOML \(line \d+, column \d+\)$/);
  });

  it('refuses Codex\'s inline bearer_token without echoing it', async () => {
    const error = await failure(() => parseServerConfig('[mcp_servers.api]\nurl = "https://a.example/mcp"\nbearer_token = "sk-inline-secret"\n', { path: 'config.toml' }));
    expect(error).toMatchObject({ server: 'api', key: 'bearer_token' });
    expect(error.message).not.toContain('sk-inline-secret');
  });

  it('keeps envFile and headersHelper for readServerConfig, and refuses a sandbox VS Code was asked for', async () => {
    expect(normalizeServerConfig({ mcpServers: { a: { command: 'x', envFile: '.env' } } }).servers[0]).toMatchObject({ envFile: '.env' });
    expect(normalizeServerConfig({ mcpServers: { a: { url: 'https://a.example', headersHelper: 'get-headers.sh' } } }).servers[0]).toMatchObject({ headersHelper: 'get-headers.sh' });
    expect(await failure(() => normalizeServerConfig({ mcpServers: { a: { url: 'https://a.example', envFile: '.env' } } }))).toMatchObject({ key: 'envFile' });
    expect(await failure(() => normalizeServerConfig({ servers: { a: { type: 'stdio', command: 'x', sandboxEnabled: true } } }))).toMatchObject({ key: 'sandboxEnabled' });
  });

  it('refuses an entry with both a command and a url, an unknown type, and a file of no known shape', async () => {
    expect(await failure(() => normalizeServerConfig({ mcpServers: { a: { command: 'x', url: 'https://a.example' } } }))).toMatchObject({ server: 'a', key: 'url' });
    expect(await failure(() => normalizeServerConfig({ mcpServers: { a: { type: 'websocket', url: 'wss://a.example' } } }))).toMatchObject({ key: 'type' });
    expect((await failure(() => normalizeServerConfig({ tools: {} }, { path: 'x.json' }))).message).toContain('found no servers');
  });
});

describe('placeholders', () => {
  const env = { RXMCP_FIXTURE_URL: 'http://127.0.0.1:1/mcp', RXMCP_FIXTURE_TOKEN: 'tok-secret-9' };

  it('fills ${VAR}, ${VAR:-default} and ${env:VAR} from the environment given', async () => {
    const config = await resolvePlaceholders(await parseServerConfig(fixture('claude-code.mcp.json')), { env });
    expect(byName(config, 'fixture')).toMatchObject({ url: 'http://127.0.0.1:1/mcp', headers: { 'X-Api-Key': 'tok-secret-9' } });
    expect(byName(config, 'everything')).toMatchObject({ env: { LOG_LEVEL: 'info' } });
    const overridden = await resolvePlaceholders(await parseServerConfig(fixture('claude-code.mcp.json')), { env: { ...env, RXMCP_LOG_LEVEL: 'debug' } });
    expect(byName(overridden, 'everything')).toMatchObject({ env: { LOG_LEVEL: 'debug' } });
  });

  it('names the missing variable and where it is used, and never a value', async () => {
    const config = await parseServerConfig(fixture('cursor-mcp.json'), { path: 'cursor-mcp.json' });
    const resolved = await resolvePlaceholders(config, { env: { RXMCP_FIXTURE_URL: 'http://127.0.0.1:1/mcp' }, variables: { workspaceFolder: '/w' } });
    const error = await failure(() => {
      throw byName(resolved, 'fixture').error;
    });
    expect(error).toMatchObject({ source: 'cursor-mcp.json', server: 'fixture', key: 'headers.Authorization' });
    expect(error.message).toContain('RXMCP_FIXTURE_TOKEN');
    expect(error.message).not.toContain('127.0.0.1');
  });

  it('leaves a disabled server\'s placeholders alone: it is never started', async () => {
    const config = await resolvePlaceholders(await parseServerConfig(fixture('cursor-mcp.json')), { env, variables: { workspaceFolder: '/w' } });
    expect(byName(config, 'paused')).toMatchObject({ env: { NEVER_READ: '${env:RXMCP_NOT_SET_ANYWHERE}' } });
    expect(byName(config, 'everything')).toMatchObject({ args: ['/w/node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'] });
  });

  it('asks VS Code\'s inputs through the hook, once per id, with the description', async () => {
    const text = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
      servers: { a: { type: 'http', url: 'https://a.example/mcp', headers: { 'X-Key': '${input:key}', 'X-Again': '${input:key}' } } },
    });
    const asked: string[] = [];
    const config = await resolvePlaceholders(await parseServerConfig(text), {
      inputs: async (id, description) => {
        asked.push(`${id}: ${description}`);
        return 'typed-secret';
      },
    });
    expect(asked).toEqual(['key: API key']);
    expect(config.servers[0]).toMatchObject({ headers: { 'X-Key': 'typed-secret', 'X-Again': 'typed-secret' } });
    expect((await failure(() => parseServerConfig(text).then((parsed) => resolvePlaceholders(parsed)).then((unasked) => Promise.reject(unasked.servers[0]?.error)))).message).toContain('no inputs hook');
  });

  it('fills ${workspaceFolder} and ${/} in VS Code\'s file, and leaves Codex\'s own text as written', async () => {
    const vscode = await resolvePlaceholders(await parseServerConfig(fixture('vscode-mcp.json')), { env, inputs: () => 'x', variables: { workspaceFolder: '/p', '/': '/' } });
    expect(byName(vscode, 'filesystem')).toMatchObject({ args: [expect.stringMatching(/^\/p\/node_modules\//), '/p/spec/fixtures/configs'] });
    const codex = await resolvePlaceholders(normalizeServerConfig({ mcp_servers: { a: { command: 'echo', args: ['${HOME}', '${workspaceFolder}'] } } }), { env: { HOME: '/h' } });
    expect(codex.servers[0]).toMatchObject({ args: ['${HOME}', '${workspaceFolder}'] });
  });
});

describe('hostile files', () => {
  it('keeps __proto__ and constructor as names, and pollutes no prototype', async () => {
    const text = '{"mcpServers": {"__proto__": {"command": "a", "env": {"__proto__": "x", "polluted": "y"}}, "constructor": {"command": "b"}}}';
    const config = await parseServerConfig(text);
    expect(config.servers.map((server) => server.name)).toEqual(['__proto__', 'constructor']);
    const env = (config.servers[0] as { env: Record<string, string> }).env;
    expect(Object.keys(env)).toEqual(['__proto__', 'polluted']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(env)).toBeNull();
  });

  it('survives deep nesting in keys it does not read, and refuses it where it reads', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const config = await parseServerConfig(`{"preferences": ${deep}, "mcpServers": {"a": {"command": "x"}}}`);
    expect(config.servers).toHaveLength(1);
    expect(await failure(() => parseServerConfig(`{"mcpServers": {"a": {"command": "x", "env": ${deep}}}}`))).toMatchObject({ key: 'env' });
    const toml = `[mcp_servers.a]\ncommand = "x"\nargs = ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect((await failure(() => parseServerConfig(toml, { format: 'codex' }))).message).toContain('not valid TOML');
  });

  it('refuses text past the size bound before parsing it, and files with too many servers', async () => {
    expect((await failure(() => parseServerConfig('{}'.padEnd(1025, ' '), { maxChars: 1024 }))).message).toContain('longer than 1024');
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, n) => [`s${n}`, { command: 'x' }]));
    expect((await failure(() => normalizeServerConfig({ mcpServers: many }))).message).toContain('more than 1000 servers');
  });

  it('cuts a huge hostile name short in a message', async () => {
    const name = 'n'.repeat(100_000);
    const error = await failure(() => normalizeServerConfig({ mcpServers: { [name]: { command: 'x', args: 1 } } }));
    expect(error.server).toBe(name);
    expect(error.message.length).toBeLessThan(500);
    const [warning] = normalizeServerConfig({ mcpServers: { [name]: { command: 'x', [name]: 1 } } }).warnings ?? [];
    expect(warning?.message.length).toBeLessThan(500);
  });

  it('leaves strings that look like comments or trailing commas untouched', async () => {
    const config = await parseServerConfig('{"mcpServers": {"a": {"command": "x", "args": ["//not a comment", "/* nor this */", ",}", "a\\"//b"],}},}');
    expect(config.servers[0]).toMatchObject({ args: ['//not a comment', '/* nor this */', ',}', 'a"//b'] });
  });
});
