import { randomBytes } from 'node:crypto';

/**
 * A bearer token for one run of `rxmcp serve --http` that was given no
 * `--token-env`: 32 random bytes from the system's CSPRNG, as base64url
 * (43 characters, no padding, nothing a header or a shell would mangle).
 */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What to put in a host's config to reach `url` with `token`, as the lines
 * `rxmcp serve` prints once on stderr (as Jupyter prints its tokened URL):
 * the header itself, a VS Code `mcp.json` entry, and a Claude Desktop entry
 * through the `mcp-remote` bridge. The bridge reads the header from its own
 * environment, so the token is not in its argv, where `ps` shows it.
 */
export function tokenInstructions(url: string, token: string): string[] {
  const vscode = { rxmcp: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } };
  const desktop = { rxmcp: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${RXMCP_AUTH}'], env: { RXMCP_AUTH: `Bearer ${token}` } } };
  return [
    'no --token-env given: this run made its own bearer token, and every request must carry it:',
    `    Authorization: Bearer ${token}`,
    'VS Code (mcp.json, under "servers"):',
    `    ${JSON.stringify(vscode).slice(1, -1)}`,
    'Claude Desktop (claude_desktop_config.json, under "mcpServers"), through mcp-remote:',
    `    ${JSON.stringify(desktop).slice(1, -1)}`,
    'The token changes with every start; --token-env NAME keeps one of your choosing.',
  ];
}
