// Talks to an MCP server over stdio and shows what rxmcp hands you.
//
//   npm run demo:quick                   the bundled server-everything (legacy era)
//   npm run demo:quick -- modern         the bundled SDK v2 fixture (modern era)
//   npm run demo:quick -- node my-server.js  any stdio server you name
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError } from 'rxmcp';

const root = join(__dirname, '..');
const bundled: Record<string, string[]> = {
  everything: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  modern: [join(root, 'spec/fixtures/modern-server.mjs')],
};

function server(argv: string[]): { command: string; args: string[] } {
  const [first = 'everything', ...rest] = argv;
  const known = bundled[first];
  return known ? { command: process.execPath, args: known } : { command: first, args: rest };
}

async function main(): Promise<void> {
  const mcp = McpClient.connectStdio({ ...server(process.argv.slice(2)), clientName: 'rxmcp-demo' });
  try {
    const description = await firstValueFrom(mcp.describe());
    console.log(`${description.serverInfo?.name ?? 'server'} speaks ${description.protocolVersion} (${description.era} era)`);

    const tools = await firstValueFrom(mcp.listTools());
    console.log(`\n${tools.length} tools:`);
    for (const tool of tools) console.log(`  ${tool.name.padEnd(32)} ${(tool.description ?? '').split('\n')[0]?.slice(0, 60)}`);

    const echo = tools.find((tool) => tool.name === 'echo');
    const argument = Object.keys((echo?.inputSchema.properties as object | undefined) ?? {})[0];
    if (echo && argument) {
      const result = await firstValueFrom(mcp.callTool('echo', { [argument]: 'hello from rxmcp' }));
      console.log(`\necho → ${result.content.map((block) => block.text ?? `[${block.type}]`).join(' ')}`);
    }

    const resources = await firstValueFrom(mcp.listResources());
    console.log(`\n${resources.length} resources; ${(await firstValueFrom(mcp.listPrompts())).length} prompts`);
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    console.error(`MCP failure: ${error.name}: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await mcp.close();
  }
}

void main();
