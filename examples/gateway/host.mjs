// The gateway: `rxmcp serve` serves the servers of servers.json as one MCP
// server, with the rules of policy.json in front. Any MCP host can start it
// (Claude Desktop, an IDE: see docs/gateway.md); here rxmcp's own client
// plays the host, over stdio.
//
// Needs: npm install rxmcp rxjs @modelcontextprotocol/server @modelcontextprotocol/server-everything
//        (@modelcontextprotocol/server is the official server SDK, which rxmcp serve serves through)
// Run:   node host.mjs
// The same from a terminal: npx rxmcp tools -- npx rxmcp serve --config servers.json --policy policy.json
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
// The rxmcp this folder installed, started by path: `npx rxmcp` would fetch
// whatever the registry holds under that name where none is installed.
const rxmcp = join(dirname(createRequire(import.meta.url).resolve('rxmcp/package.json')), 'bin', 'rxmcp.mjs');
const gateway = McpClient.connectStdio({
  command: process.execPath,
  args: [rxmcp, 'serve', '--config', here('servers.json'), '--policy', here('policy.json')],
});
const text = (result) => result.content.map((block) => block.text ?? `[${block.type}]`).join('');

try {
  const tools = await firstValueFrom(gateway.listTools());
  console.log(`the gateway serves ${tools.length} tools, among them ${tools.filter((tool) => /get-sum|echo$/.test(tool.name)).map((tool) => tool.name).join(', ')}`);

  // Allowed by a rule. Every tool gains a `reason` parameter: why the call is made.
  console.log(text(await firstValueFrom(gateway.callTool('everything_get-sum', { a: 2, b: 40, reason: 'to check the sum' }))));
  // Denied by a rule: the tool's error carries the rule's note.
  const denied = await firstValueFrom(gateway.callTool('everything_get-env', { reason: 'curious' }));
  console.log(`${denied.isError ? 'refused' : 'allowed'}: ${text(denied)}`);
  // No rule: the gateway asks the host, and a host that answers no questions is refused.
  const asked = await firstValueFrom(gateway.callTool('everything_get-tiny-image', { reason: 'to see it' }));
  console.log(`${asked.isError ? 'refused' : 'allowed'}: ${text(asked)}`);
} finally {
  await gateway.close(); // the gateway stops, and stops the servers it started
}
