import { join } from 'node:path';
import { Registry, type ServerConfig, type ServerEntry } from '../../src/index.js';
import { readServerConfig } from '../../src/node/index.js';

// Each app's file as the app writes it, each with a key rxmcp does not know:
// the key is a warning, every good server loads, and the servers of three
// of them (Goose, Gemini CLI, Zed) start and answer a call.

jest.setTimeout(30000);

const configs = join(__dirname, '..', 'fixtures', 'configs');
const read = (name: string, options = {}): Promise<ServerConfig> => readServerConfig(join(configs, name), { env: {}, ...options });
const summary = (config: ServerConfig) => Object.fromEntries(config.servers.map((entry) => [entry.name, shape(entry)]));
const shape = (entry: ServerEntry) => ({
  transport: entry.transport,
  ...(entry.transport === 'stdio' ? { command: entry.command, args: entry.args } : { url: entry.url, httpTransport: entry.httpTransport }),
  ...(entry.disabled ? { disabled: true } : {}),
  ...(entry.enabledTools ? { enabledTools: entry.enabledTools } : {}),
  ...(entry.disabledTools ? { disabledTools: entry.disabledTools } : {}),
});
const warned = (config: ServerConfig) => (config.warnings ?? []).map((warning) => `${warning.server}: ${warning.key ?? ''}`);
const noErrors = (config: ServerConfig) => expect(config.servers.filter((entry) => entry.error).map((entry) => entry.error?.message)).toEqual([]);
const node = { command: 'node', args: ['../modern-server.mjs'] };

describe('config files as each app writes them, each with a key rxmcp does not know', () => {
  it("reads Claude Code's ~/.claude.json: the project's own servers first, then the user's, the project's winning a name", async () => {
    const config = await read('claude.json', { project: '/home/ada/work/app' });
    noErrors(config);
    expect(config.format).toBe('mcp-servers');
    expect(summary(config)).toEqual({
      shadowed: { transport: 'stdio', ...node },
      local: { transport: 'http', url: 'http://127.0.0.1:1/mcp', httpTransport: 'streamable-http' },
      everywhere: { transport: 'stdio', ...node },
    });
    expect(warned(config)).toEqual(['everywhere: someFutureKey']);
    // Another project's servers are never read.
    expect((await read('claude.json', { project: '/home/ada/work/none' })).servers.map((entry) => entry.name)).toEqual(['everywhere', 'shadowed']);
  });

  it("reads Gemini CLI's settings.json: url is HTTP+SSE, httpUrl Streamable HTTP, includeTools and excludeTools choose tools, mcp.excluded switches off", async () => {
    const config = await read('gemini-settings.json');
    noErrors(config);
    expect(config.format).toBe('gemini');
    expect(summary(config)).toEqual({
      fixture: { transport: 'stdio', ...node, enabledTools: ['echo', 'add'], disabledTools: ['add'] },
      sse: { transport: 'http', url: 'http://127.0.0.1:1/sse', httpTransport: 'sse' },
      streamable: { transport: 'http', url: 'http://127.0.0.1:1/mcp', httpTransport: 'streamable-http' },
      excluded: { transport: 'stdio', command: 'never-started', args: [], disabled: true },
    });
    // `trust` and `timeout` are Gemini's own: no warning, and nothing of them reaches rxmcp's model.
    expect(warned(config)).toEqual(['fixture: geminiNextKey']);
  });

  it("reads Goose's config.yaml: stdio, streamable_http and sse extensions, the built-in ones left out", async () => {
    const config = await read('goose-config.yaml');
    noErrors(config);
    expect(config.format).toBe('goose');
    expect(summary(config)).toEqual({
      fixture: { transport: 'stdio', ...node },
      remote: { transport: 'http', url: 'http://127.0.0.1:1/mcp', httpTransport: 'streamable-http' },
      old: { transport: 'http', url: 'http://127.0.0.1:1/sse', httpTransport: 'sse', disabled: true },
    });
    expect(config.servers[0]).toMatchObject({ env: { LOG_LEVEL: 'info' } });
    expect(warned(config)).toEqual(['fixture: goose_next_key']);
  });

  it("reads Zed's settings.json: a command in either form, a url, and an extension's server left out with a warning", async () => {
    const config = await read('zed-settings.json');
    noErrors(config);
    expect(config.format).toBe('zed');
    expect(summary(config)).toEqual({
      fixture: { transport: 'stdio', ...node },
      older: { transport: 'stdio', ...node },
      remote: { transport: 'http', url: 'http://127.0.0.1:1/mcp', httpTransport: 'auto' },
    });
    expect(config.servers[1]).toMatchObject({ env: { A: 'b' } });
    expect(warned(config)).toEqual(['fixture: zedNextKey', 'postgres-context-server: ']);
    expect(config.warnings?.[1]?.message).toContain("is a Zed extension's server");
  });

  it("reads Copilot CLI's mcp-config.json: local is stdio, tools is an allow-list and [\"*\"] all of them", async () => {
    const config = await read('copilot-mcp-config.json');
    noErrors(config);
    expect(summary(config)).toEqual({
      fixture: { transport: 'stdio', ...node },
      picked: { transport: 'stdio', ...node, enabledTools: ['echo'] },
      remote: { transport: 'http', url: 'http://127.0.0.1:1/mcp', httpTransport: 'streamable-http' },
      stream: { transport: 'http', url: 'http://127.0.0.1:1/sse', httpTransport: 'sse' },
    });
    expect(warned(config)).toEqual(['fixture: copilotNextKey']);
  });

  it.each([
    ['Cline', 'cline_mcp_settings.json', 'clineNextKey'],
    ['Roo', 'roo-mcp_settings.json', 'rooNextKey'],
  ])("reads %s's settings: its own keys (autoApprove, alwaysAllow, timeout, watchPaths…) pass without a warning", async (_app, file, unknown) => {
    const config = await read(file);
    noErrors(config);
    expect(config.servers.find((entry) => entry.name === 'fixture')).toMatchObject({ transport: 'stdio', ...node });
    expect(config.servers.find((entry) => entry.name === 'remote')).toMatchObject({ transport: 'http', url: expect.stringContaining('127.0.0.1:1') });
    expect(warned(config)).toEqual([`fixture: ${unknown}`]);
  });
});

describe('the servers of a Goose, Gemini CLI and Zed file, started', () => {
  it.each([
    ['goose-config.yaml', 'fixture'],
    ['gemini-settings.json', 'fixture'],
    ['zed-settings.json', 'older'],
  ])('start from %s through Registry.fromConfig and answer a call', async (file, server) => {
    const config = await read(file, { env: process.env });
    const only = { ...config, servers: config.servers.filter((entry) => entry.name === server) };
    const tools = Registry.fromConfig(only);
    try {
      const names = (await tools.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toContain(`${server}_echo`);
      const [answer] = await tools.executeToolCalls([{ id: '1', type: 'function', function: { name: `${server}_echo`, arguments: JSON.stringify({ text: `hello from ${file}` }) } }]);
      expect(answer).toMatchObject({ content: `hello from ${file}` });
      expect(answer?.is_error).toBeFalsy();
    } finally {
      await tools.close();
    }
  });
});
