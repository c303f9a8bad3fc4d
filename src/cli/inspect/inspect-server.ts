import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { McpClientError } from '../../errors/mcp-client-error.js';
import { answerNodeRequest } from '../../gateway/node-http.js';
import { registerInspectClient } from './client-registration.js';
import { probeConnection, type ProbeRequest } from './connection-probe.js';
import { inspectGuard } from './inspect-guard.js';
import { SANDBOX_PATH, startSandboxServer } from './sandbox-server.js';

/** What the page connects to first, as `GET /api/target` tells it. */
export type InspectTarget =
  /** Nothing: the page opens on its connect form. */
  | { kind: 'none' }
  /** An HTTP server, which the page calls itself. */
  | { kind: 'url'; url: string; transport: ProbeRequest['transport']; headers: Record<string, string> }
  /** A stdio server behind the gateway at this server's `/mcp`, which wants the page's token as a bearer token. */
  | { kind: 'gateway'; command: string };

/** The running inspector's server. */
export interface InspectServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  /** The port of the second origin, where MCP Apps views run (see `startSandboxServer`). */
  sandboxPort: number;
  close(): Promise<void>;
}

/** The largest probe request read: a URL and a few headers. */
const MAX_PROBE_BYTES = 64 * 1024;

// The page may connect anywhere over HTTP (that is its job), run only its
// own script and frame only the views' sandbox (at the name the page was
// loaded by); nothing frames it, and its address (which holds the token) is
// never sent on as a Referer.
function pageHeaders(frames: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'self' http: https:; frame-src ${frames}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** The sign-in window's last page, which the authorization server sends it to: its script hands the answer to the page. */
const SIGNED_IN_PATH = '/signed-in';
const SIGNED_IN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head><body>Signing in…<script type="module" src="/signed-in.js"></script></body></html>';
// Its address holds the authorization code: no Referer carries it on, nothing frames the page.
const SIGNED_IN_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * Starts the server of `rxmcp inspect` on 127.0.0.1 at a free port: the page
 * (`pageDir`'s index.html, page.js and signed-in.js, built by scripts/build.mjs), the
 * page's target (`GET /api/target`), a probe that classifies a failed
 * connection (`POST /api/probe`, see `probeConnection`), where the views'
 * sandbox is (`GET /api/views`: a second port, see `startSandboxServer`),
 * the registration of the page as an OAuth client (`POST /api/register`,
 * see `registerInspectClient`), the sign-in window's redirect page
 * (`GET /signed-in`, with its script) and, once `mcp` is set, a stdio
 * server behind the gateway at `/mcp`. Every request passes `inspectGuard`
 * first: loopback Host, no foreign Origin, the token (but for the redirect
 * page and its script, which hold no secret).
 *
 * `mcp` is set after the server listens (the gateway's checks need the port),
 * with what the stdio server says it is (`GET /api/upstream`).
 *
 * @throws McpClientError (as a rejection) when the page's files are missing or no port can be bound.
 */
export async function startInspectServer(options: {
  token: string;
  target: InspectTarget;
  pageDir: string;
  mcp?: (request: Request) => Promise<Response>;
}): Promise<InspectServer & { setMcp(handle: (request: Request) => Promise<Response>, upstream: () => Promise<unknown>): void }> {
  const { token, target, pageDir } = options;
  let mcp = options.mcp;
  let html: string;
  let script: string;
  let signedInScript: string;
  try {
    [html, script, signedInScript] = await Promise.all(['index.html', 'page.js', 'signed-in.js'].map((name) => readFile(join(pageDir, name), 'utf8')) as [Promise<string>, Promise<string>, Promise<string>]);
  } catch (error) {
    throw new McpClientError(`the inspector's page is missing from ${JSON.stringify(pageDir)} (npm run build makes it)`, { cause: error });
  }
  // The script is loaded with the token, like every request; the token is base64url, safe in an attribute.
  const page = html.replace('src="page.js"', `src="page.js?token=${token}"`);
  let refuse: (request: IncomingMessage) => ReturnType<ReturnType<typeof inspectGuard>> = () => ({ status: 403, reason: 'not listening yet' });
  let origin = '';
  let sandboxPort = 0;
  let upstream: (() => Promise<unknown>) | undefined;
  const server = createServer((request, response) => {
    route(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refuse(request);
    if (refused) {
      response.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${refused.reason}\n`);
      return;
    }
    const path = (request.url ?? '/').split('?', 1)[0];
    const method = request.method ?? 'GET';
    // The guard let only loopback names through; the page frames the sandbox at the name it was loaded by.
    const name = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (method === 'GET' && path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders(name.startsWith('[') ? "'none'" : `http://${name}:${sandboxPort}`) }).end(page);
    } else if (method === 'GET' && path === SIGNED_IN_PATH) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...SIGNED_IN_HEADERS }).end(SIGNED_IN_PAGE);
    } else if (method === 'GET' && path === '/signed-in.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(signedInScript);
    } else if (method === 'GET' && path === '/api/views') {
      json(response, 200, { sandboxPort, sandboxPath: SANDBOX_PATH });
    } else if (method === 'POST' && path === '/api/register') {
      await register(request, response, `http://${name}:${port}${SIGNED_IN_PATH}`);
    } else if (method === 'GET' && path === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(script);
    } else if (method === 'GET' && path === '/api/upstream' && upstream) {
      // What the stdio server behind the gateway said it is: the page, talking to the gateway, cannot ask it.
      const described = await upstream().then(
        (found) => ({ status: 200, found }),
        (error: Error) => ({ status: 502, found: { error: error.message.slice(0, 500) } }),
      );
      json(response, described.status, described.found);
    } else if (method === 'GET' && path === '/api/target') {
      json(response, 200, target);
    } else if (method === 'POST' && path === '/api/probe') {
      const asked = probeRequestOf(await bodyOf(request));
      if (asked === undefined) json(response, 400, { error: 'a probe takes { url: an http(s) URL, transport, headers }' });
      else json(response, 200, await probeConnection(asked, origin));
    } else if (path === '/mcp' && mcp) {
      await answerNodeRequest(request, response, '/mcp', mcp, () => undefined);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new McpClientError(`could not listen on 127.0.0.1: ${error.message}`, { cause: error })));
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  // Nothing is served before the port is known, so no request goes unchecked.
  let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
  try {
    sandbox = await startSandboxServer(port);
  } catch (error) {
    server.close();
    throw error;
  }
  sandboxPort = sandbox.port;
  // The redirect page and its script hold no secret, and the authorization server's redirect carries no token.
  refuse = inspectGuard(port, token, [SIGNED_IN_PATH, '/signed-in.js']);
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    port,
    sandboxPort,
    setMcp: (handle, describe) => {
      mcp = handle;
      upstream = describe;
    },
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        sandbox.close(),
      ]);
    },
  };
}

// Registers the page as a client at the authorization server of the MCP
// server the page names, with this server's redirect page as its redirect
// URI; only the client's identity goes back.
async function register(request: IncomingMessage, response: ServerResponse, redirectUrl: string): Promise<void> {
  const url = urlOf(await bodyOf(request));
  if (url === undefined) {
    json(response, 400, { error: 'a registration takes { url: the MCP server, an http(s) URL }' });
    return;
  }
  try {
    json(response, 200, await registerInspectClient(url, redirectUrl));
  } catch (error) {
    json(response, 502, { error: (error as Error).message.slice(0, 500) });
  }
}

function urlOf(body: string | undefined): URL | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  const url = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).url : undefined;
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(value));
}

// The body, or undefined past the bound.
async function bodyOf(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PROBE_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// The page's probe request, checked: an http(s) URL, a known transport, string headers (at most 50).
function probeRequestOf(body: string | undefined): ProbeRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { url, transport = 'auto', headers = {} } = value as Record<string, unknown>;
  if (typeof url !== 'string' || !URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) return undefined;
  if (transport !== 'auto' && transport !== 'streamable-http' && transport !== 'sse') return undefined;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined;
  const entries = Object.entries(headers);
  if (entries.length > 50 || !entries.every(([name, text]) => typeof text === 'string' && !/[\r\n\0]/.test(text) && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))) return undefined;
  return { url, transport, headers: Object.fromEntries(entries) as Record<string, string> };
}
