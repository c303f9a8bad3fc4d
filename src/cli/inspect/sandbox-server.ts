import { createServer, type IncomingMessage } from 'node:http';
import { sandboxProxyHtml } from '../../apps/sandbox-proxy.js';
import { McpClientError } from '../../errors/mcp-client-error.js';

/** The path the MCP Apps sandbox proxy page is served at. */
export const SANDBOX_PATH = '/sandbox.html';

/** The inspector's second origin, running. */
export interface SandboxServer {
  port: number;
  close(): Promise<void>;
}

// The names a browser on this machine may give both servers. [::1] is left
// out: both listen on 127.0.0.1 alone, and CSP has no syntax for an IPv6 host.
const NAMES = ['127.0.0.1', 'localhost'];

/**
 * Serves the MCP Apps sandbox proxy page (`sandboxProxyHtml`) on 127.0.0.1
 * at a free port of its own: a view runs on an origin other than the
 * page's (another port is another origin), so it reaches neither the page's
 * DOM nor its token nor, through it, the server the page is connected to.
 *
 * Each answer is made for the name the browser used (Host, a loopback name
 * at this port, else 403): the proxy takes orders from the page at that
 * name and `pagePort` alone, and only that page may frame it
 * (`frame-ancestors`), so no other site can hand it a view and play host.
 * No token is asked: the page holds one file, the same for everyone, and
 * the run's token is kept out of the frame a server's view runs in.
 *
 * @throws McpClientError (as a rejection) when no port can be bound.
 */
export async function startSandboxServer(pagePort: number): Promise<SandboxServer> {
  let port = 0;
  const pageOrigin = (request: IncomingMessage): string | undefined => {
    const name = NAMES.find((one) => request.headers.host?.toLowerCase() === `${one}:${port}`);
    return name === undefined ? undefined : `http://${name}:${pagePort}`;
  };
  const pages = new Map(NAMES.map((name) => [`http://${name}:${pagePort}`, sandboxProxyHtml({ hostOrigin: `http://${name}:${pagePort}` })]));
  const server = createServer((request, response) => {
    const origin = pageOrigin(request);
    const from = request.headers.origin?.toLowerCase();
    if (origin === undefined || (from !== undefined && !pages.has(from))) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('not for this server\n');
      return;
    }
    if (request.method !== 'GET' || request.url !== SANDBOX_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    // No script-src here: the proxy's own script is inline, and the view's
    // document inherits this policy, which must not narrow what it declared.
    response
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `frame-ancestors ${origin}`,
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .end(pages.get(origin));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new McpClientError(`could not listen on 127.0.0.1 for the views' sandbox: ${error.message}`, { cause: error })));
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
