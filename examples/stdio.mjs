// A first call over stdio: start server-everything as a child process, say
// which server and era it is, list its tools, call two of them, and close.
//
// Needs: npm install rxmcp rxjs @modelcontextprotocol/server-everything
//        (without the last one, npx downloads the server on first use)
// Run:   node stdio.mjs
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const mcp = McpClient.connectStdio({
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  clientName: 'stdio-example',
});

try {
  const server = await firstValueFrom(mcp.describe());
  console.log(`${server.serverInfo?.name} speaks ${server.protocolVersion} (${server.era} era)`);

  const tools = await firstValueFrom(mcp.listTools());
  console.log(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);

  const sum = await firstValueFrom(mcp.callTool('get-sum', { a: 2, b: 40 }));
  console.log(sum.content.filter((block) => block.type === 'text').map((block) => block.text).join(''));

  const echo = await firstValueFrom(mcp.callTool('echo', { message: 'hello from rxmcp' }));
  if (echo.isError) console.error('the tool refused:', echo.content);
  else console.log(echo.content.filter((block) => block.type === 'text').map((block) => block.text).join(''));
} finally {
  await mcp.close(); // ends the child process
}
