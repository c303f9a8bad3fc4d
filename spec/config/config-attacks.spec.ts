import { McpConfigError, parseServerConfig, Registry, resolvePlaceholders, type ServerEntry } from '../../src/index.js';

// Holes found attacking issue 30's config reading (branch attack30).

describe('a variable missing for one server of a user\'s file', () => {
  const claudeDesktop = JSON.stringify({
    mcpServers: {
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' } },
      files: { command: 'node', args: ['server.js'], env: { KEY: '${FILES_KEY}' } },
    },
  });

  it('fails that server alone: the others resolve, and it keeps its placeholders with the error', async () => {
    const config = await resolvePlaceholders(await parseServerConfig(claudeDesktop, { path: 'claude_desktop_config.json' }), { env: { FILES_KEY: 'files-secret-1' } });
    const [github, files] = config.servers as [ServerEntry, ServerEntry];
    expect(files).toMatchObject({ name: 'files', env: { KEY: 'files-secret-1' } });
    expect(files.error).toBeUndefined();
    expect(github.error).toBeInstanceOf(McpConfigError);
    expect(github.error).toMatchObject({ source: 'claude_desktop_config.json', server: 'github', key: 'env.GITHUB_PERSONAL_ACCESS_TOKEN' });
    expect(github.error?.message).toContain('GITHUB_TOKEN');
    expect(github.error?.message).not.toContain('files-secret-1');
    expect(github).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' } });
  });

  it('shows that server as failed in Registry.fromConfig, with the McpConfigError, and never starts it', async () => {
    const config = await resolvePlaceholders(await parseServerConfig(claudeDesktop, { path: 'claude_desktop_config.json' }), { env: { FILES_KEY: 'k' } });
    const warnings: string[] = [];
    const tools = Registry.fromConfig(config, { onWarn: (message) => warnings.push(message) });
    let statuses: ReadonlyMap<string, { state: string; error?: Error }> = new Map();
    const watching = tools.status$.subscribe((map) => (statuses = map));
    expect(statuses.get('github')).toMatchObject({ state: 'failed', error: expect.any(McpConfigError) });
    const answer = await tools.executeToolCalls([{ id: '1', type: 'function', function: { name: 'github_search', arguments: '{}' } }]);
    expect(answer[0]).toMatchObject({ is_error: true });
    expect(statuses.get('github')?.error).toBeInstanceOf(McpConfigError);
    watching.unsubscribe();
    await tools.close();
  });
});

describe('a value that holds ${…} once resolved', () => {
  it('is not taken for an unresolved placeholder: Registry.fromConfig accepts the config', async () => {
    // A password with ${ in it, or an input answer that reads like a placeholder, is a value, not a placeholder to fill.
    const config = await resolvePlaceholders(await parseServerConfig(JSON.stringify({ mcpServers: { a: { command: 'x', env: { PASSWORD: '${env:PASSWORD}' } } } })), {
      env: { PASSWORD: 'pa${HOME}ss' },
    });
    expect(config.servers[0]).toMatchObject({ env: { PASSWORD: 'pa${HOME}ss' } });
    const tools = Registry.fromConfig(config);
    await tools.close();
  });
});

describe('names from a hostile file in an McpConfigError', () => {
  it('reach the message with no control, C1 or bidi character raw, the ${input:ID} id included', async () => {
    const raw = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/;
    const undeclared = await resolvePlaceholders(
      await parseServerConfig(JSON.stringify({ servers: { a: { command: 'x', args: ['${input:\u001b]0;pwn\u0007}'] } } }), { path: 'mcp.json' }),
      { inputs: () => 'a' },
    );
    expect(undeclared.servers[0]?.error?.message).toMatch(/uses input "\\u001b\]0;pwn\\u0007"/);
    expect(undeclared.servers[0]?.error?.message).not.toMatch(raw);
    const c1 = (await parseServerConfig(JSON.stringify({ mcpServers: { 'evil\u009b2J\u202e': { command: 'x', env: { 'K\u009b31m': 5 } } } }), { path: 'x.json' })).servers[0]?.error;
    expect(c1).toBeInstanceOf(McpConfigError);
    expect((c1 as Error).message).toContain('server "evil\\u009b2J\\u202e", key "env.K\\u009b31m"');
    expect((c1 as Error).message).not.toMatch(raw);
    const type = (await parseServerConfig(JSON.stringify({ mcpServers: { a: { url: 'https://h/', type: 'sse\u009b\u202e' } } }))).servers[0]?.error;
    expect((type as Error).message).not.toMatch(raw);
    const unknown = await parseServerConfig(JSON.stringify({ mcpServers: { 'a\u001b]0;x\u0007': { command: 'x', 'k\u009b\u202e': 1 } } }));
    expect(unknown.warnings?.[0]?.message).toContain('key "k\\u009b\\u202e"');
    expect(unknown.warnings?.[0]?.message).not.toMatch(raw);
  });
});

describe('Codex keys that name a variable', () => {
  it('refuse a token pasted in place of the name, without sending it as a literal header or quoting it', async () => {
    const pasted = 'sk-live-0123456789abcdef';
    for (const toml of [`[mcp_servers.a]\nurl = "https://h/mcp"\nbearer_token_env_var = "${pasted}"\n`, `[mcp_servers.a]\nurl = "https://h/mcp"\nenv_http_headers = { "X-Key" = "${pasted}" }\n`]) {
      const error = await parseServerConfig(toml, { path: 'config.toml' }).then(
        (config) => resolvePlaceholders(config, { env: {} }).then((resolved) => resolved.servers[0]?.error ?? resolved),
        (failure: Error) => failure,
      );
      expect(error).toBeInstanceOf(McpConfigError);
      expect((error as Error).message).toMatch(/must name an environment variable/);
      expect((error as Error).message).not.toContain(pasted);
    }
  });
});

describe('a header fetch would refuse', () => {
  it('fails its server naming the header, never quoting the value (a token with a newline pasted after it)', async () => {
    const config = await resolvePlaceholders(
      await parseServerConfig(JSON.stringify({ mcpServers: { a: { url: 'https://h/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, b: { url: 'https://h/mcp', headers: { 'Bad Name': 'v' } } } }), { path: 'x.json' }),
      { env: { TOKEN: 'tok-secret-42\n' } },
    );
    const [a, b] = config.servers as [ServerEntry, ServerEntry];
    expect(a.error).toMatchObject({ server: 'a', key: 'headers.Authorization' });
    expect(a.error?.message).not.toContain('tok-secret-42');
    expect(b.error).toMatchObject({ server: 'b', key: 'headers.Bad Name' });
  });
});
