// Signing in to an MCP server behind OAuth: the first request meets a 401,
// rxmcp finds the authorization server, registers this client, sends you to
// sign in in your browser and takes the answer on 127.0.0.1. The tokens are
// kept (~/.config/rxmcp/tokens, mode 0600), so the next run signs in silently.
//
// Needs: npm install rxmcp rxjs
// Run:   node sign-in.mjs https://your-server.example/mcp [--no-browser]
//        (--no-browser prints the sign-in URL instead of opening a browser)
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';
import { FileTokenStore, loopbackSignIn } from 'rxmcp/node';

const url = process.argv[2];
if (!url?.startsWith('http')) {
  console.error('usage: node sign-in.mjs URL [--no-browser]');
  process.exit(2);
}

const signIn = await loopbackSignIn({ open: !process.argv.includes('--no-browser') }); // a listener on 127.0.0.1 for the browser's return
const mcp = McpClient.connectHttp({
  url,
  auth: {
    redirectUrl: signIn.redirectUrl,
    authorize: signIn.authorize,
    clientMetadata: { client_name: 'rxmcp sign-in example' }, // for servers that register clients on the fly
    tokenStore: new FileTokenStore(),
  },
});
mcp.auth$.subscribe((auth) => console.log(`auth: ${auth.state}`));

try {
  const tools = await firstValueFrom(mcp.listTools()); // signs in on the way, once
  console.log(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);
} finally {
  await mcp.close();
  await signIn.close();
}
