import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpClientError } from '../errors/mcp-client-error.js';

/** The largest request body read (the SDK's own bound is 4 MiB; this one stops a body that never ends). */
const MAX_BODY_BYTES = 4 * 1024 * 1024 + 1;

/**
 * Serves a fetch-style handler on a Node HTTP listener, at one path: each
 * request becomes a `Request` (aborted when the client hangs up), each
 * `Response` is streamed back (SSE included). `refuse` is asked first, from
 * the request's head alone: a request it answers has its body never read.
 *
 * @throws McpClientError (as a rejection) when the port cannot be bound.
 */
export async function serveNodeHttp(
  where: { port: number; host: string; path: string },
  handle: (request: Request) => Promise<Response>,
  refuse: (request: Request) => Response | undefined = () => undefined,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    answerNodeRequest(incoming, outgoing, where.path, handle, refuse).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(500).end();
      else outgoing.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new McpClientError(`could not listen on ${where.host}:${where.port}: ${error.message}`, { cause: error })));
    server.listen(where.port, where.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const shownHost = where.host.includes(':') && !where.host.startsWith('[') ? `[${where.host}]` : where.host;
  return {
    url: `http://${shownHost}:${port}${where.path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Answers one Node request with a fetch-style handler, as `serveNodeHttp`
 * does for each (for a server that routes other paths itself): 404 off
 * `path`, `refuse` asked from the head alone, the body bounded, the response
 * streamed back and dropped when the client hangs up.
 */
export async function answerNodeRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  path: string,
  handle: (request: Request) => Promise<Response>,
  refuse: (request: Request) => Response | undefined,
): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://gateway.invalid');
  if (url.pathname !== path) {
    outgoing.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const hangUp = new AbortController();
  outgoing.on('close', () => hangUp.abort());
  const method = incoming.method ?? 'GET';
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // Whoever may not be served is answered before a byte of the body is
  // buffered (up to 4 MiB a connection, otherwise), and the connection closed.
  const refused = refuse(new Request(`http://gateway.invalid${url.pathname}`, { method: 'HEAD', headers }));
  if (refused) {
    outgoing.writeHead(refused.status, { ...Object.fromEntries(refused.headers), connection: 'close' }).end(await refused.text());
    return;
  }
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    body = await readBody(incoming);
    if (!body) {
      outgoing.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' }).end('Payload too large');
      return;
    }
  }
  // The URL's authority is a placeholder: the Host header, which the guard checks, travels as sent.
  const request = new Request(`http://gateway.invalid${url.pathname}${url.search}`, {
    method,
    headers,
    signal: hangUp.signal,
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
  const response = await handle(request);
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  hangUp.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    outgoing.write(value);
  }
  outgoing.end();
}

// The body, or `undefined` when it passes the bound.
function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        incoming.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}
