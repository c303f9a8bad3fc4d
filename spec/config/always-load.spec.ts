import { McpConfigError, normalizeServerConfig, parseServerConfig, resolvePlaceholders, type ServerConfig } from '../../src/index.js';

// Claude Code's `alwaysLoad`, read in every format rxmcp reads and kept
// through normalization and placeholders.

const loads = (config: ServerConfig): Record<string, boolean | undefined> => Object.fromEntries(config.servers.map((entry) => [entry.name, entry.alwaysLoad]));

describe('alwaysLoad in a config file', () => {
  it('is read from an mcpServers entry (Claude Code, Claude Desktop, Cursor, Windsurf), stdio or HTTP', async () => {
    const config = await parseServerConfig(
      JSON.stringify({
        mcpServers: {
          memory: { command: 'memory-mcp', alwaysLoad: true },
          github: { type: 'http', url: 'https://api.example/mcp', alwaysLoad: true },
          files: { command: 'files-mcp', alwaysLoad: false },
          other: { command: 'other-mcp' },
        },
      }),
      { path: '/home/ada/project/.mcp.json' },
    );
    expect(loads(config)).toEqual({ memory: true, github: true, files: undefined, other: undefined });
  });

  it('is read from a VS Code servers entry', async () => {
    const config = await parseServerConfig('{ "servers": { "memory": { "type": "stdio", "command": "memory-mcp", "alwaysLoad": true }, "web": { "url": "https://api.example/mcp" } } }', { path: '/p/.vscode/mcp.json' });
    expect(loads(config)).toEqual({ memory: true, web: undefined });
  });

  it("is read from a Codex table as always_load, Codex's spelling of keys", async () => {
    const config = await parseServerConfig('[mcp_servers.memory]\ncommand = "memory-mcp"\nalways_load = true\n\n[mcp_servers.web]\nurl = "https://api.example/mcp"\n', { path: '/home/ada/.codex/config.toml' });
    expect(loads(config)).toEqual({ memory: true, web: undefined });
    const camel = await parseServerConfig('[mcp_servers.memory]\ncommand = "memory-mcp"\nalwaysLoad = true\n', { path: '/home/ada/.codex/config.toml' });
    expect(loads(camel)).toEqual({ memory: undefined });
    expect(camel.warnings?.[0]?.message).toMatch(/key "alwaysLoad": is not a key of a Codex server entry, and is ignored \(did you mean "always_load"\?\)/);
  });

  it('survives placeholders being filled in', async () => {
    const config = normalizeServerConfig({ mcpServers: { memory: { command: '${MEMORY_BIN}', args: ['--db', '${HOME}/db'], alwaysLoad: true } } });
    const resolved = await resolvePlaceholders(config, { env: { MEMORY_BIN: '/usr/bin/memory-mcp', HOME: '/home/ada' } });
    expect(resolved.servers[0]).toMatchObject({ command: '/usr/bin/memory-mcp', args: ['--db', '/home/ada/db'], alwaysLoad: true });
  });

  it.each([
    ['mcpServers', JSON.stringify({ mcpServers: { memory: { command: 'm', alwaysLoad: 'yes' } } }), '/p/.mcp.json', 'alwaysLoad'],
    ['VS Code', JSON.stringify({ servers: { memory: { command: 'm', alwaysLoad: 1 } } }), '/p/.vscode/mcp.json', 'alwaysLoad'],
    ['Codex', '[mcp_servers.memory]\ncommand = "m"\nalways_load = "true"\n', '/p/.codex/config.toml', 'always_load'],
  ])('fails the server whose value is not true or false in %s, naming the server and the key', async (_format, text, path, key) => {
    const { servers } = await parseServerConfig(text, { path });
    expect(servers[0]?.error).toBeInstanceOf(McpConfigError);
    expect(servers[0]?.error?.message).toBe(`${JSON.stringify(path)}, server "memory", key ${JSON.stringify(key)}: must be true or false`);
  });
});
