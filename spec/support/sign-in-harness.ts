import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

/** The sign-in specs' page server, on 127.0.0.1. */
export interface SignInPages {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  stop(): Promise<void>;
}

/** Bundles spec/support/sign-in-page.ts for the browser. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [join(__dirname, 'sign-in-page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: ['node:*'],
    logLevel: 'warning',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * Registers a public client for the sign-in pages at `issuer`, as the web
 * app's developer does beforehand: browsers may not call this authorization
 * server's registration endpoint (it sends no CORS headers), as is common.
 */
export async function registerWebClient(issuer: string, origin: string): Promise<string> {
  const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`, { signal: AbortSignal.timeout(5000) })).json()) as { registration_endpoint: string };
  const response = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'rxmcp browser sign-in',
      application_type: 'native',
      redirect_uris: [`${origin}/popup/signed-in`, `${origin}/redirect`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
    signal: AbortSignal.timeout(5000),
  });
  const client = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || !client.client_id) throw new Error(`registering the web client answered ${response.status}`);
  return client.client_id;
}

/**
 * Serves the sign-in page at /popup, /popup/signed-in and /redirect (any
 * query), each calling the MCP server at `mcpUrl` as the client that
 * `register` answers (given this server's origin), and an empty page at /blank.
 */
export async function startSignInPages(mcpUrl: string, register: (origin: string) => Promise<string>): Promise<SignInPages> {
  const code = await bundlePage();
  let html = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET') res.writeHead(405).end();
    else if (path === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(code);
    else if (path === '/popup' || path === '/popup/signed-in' || path === '/redirect') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/blank') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><title>blank</title>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const attribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  html =
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>sign-in spec</title>' +
    `<meta name="mcp-url" content="${attribute(mcpUrl)}"><meta name="client-id" content="${attribute(await register(origin))}"></head>` +
    '<body><button id="call">List tools</button><button id="sign-in" hidden>Sign in</button><script type="module" src="/page.js"></script></body></html>';
  return {
    origin,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
