import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpClientError } from '../errors/mcp-client-error.js';

/** The SDK's own bound on a request body, which it answers 413 past. */
const SDK_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The largest request body read: one byte past the SDK's bound, so that the SDK still answers such a body; this one stops a body that never ends. */
const MAX_BODY_BYTES = SDK_MAX_BODY_BYTES + 1;

/**
 * A POST body read as JSON once, as the SDK reads it (UTF-8, a BOM dropped,
 * bad bytes replaced), for the handler to hand on (`parsedBody`) rather than
 * have every step that looks at the request clone and parse it again.
 */
export interface ParsedBody {
  json: unknown;
}

// A decode without `stream` keeps no state between calls: one decoder serves every request.
const UTF8 = new TextDecoder();

/** A fetch-style handler that may be handed the request's body already parsed. */
export type NodeHandler = (request: Request, body?: ParsedBody) => Promise<Response>;

/**
 * Serves a fetch-style handler on a Node HTTP listener, at one path: each
 * request becomes a `Request` (aborted when the client hangs up before its
 * answer is written), each `Response` is streamed back (SSE included).
 * `refuse` is asked first, from the request's head alone: a request it
 * answers has its body never read. A POST body that is JSON within the
 * SDK's bound is handed to `handle` parsed (`ParsedBody`).
 *
 * @throws McpClientError (as a rejection) when the port cannot be bound.
 */
export async function serveNodeHttp(
  where: { port: number; host: string; path: string },
  handle: NodeHandler,
  refuse: (request: Pick<Request, 'headers'>) => Response | undefined = () => undefined,
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
  handle: NodeHandler,
  refuse: (request: Pick<Request, 'headers'>) => Response | undefined,
): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://gateway.invalid');
  if (url.pathname !== path) {
    outgoing.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const hangUp = new AbortController();
  // A response written to its end closes too: only a client gone before then has hung up (an abort
  // is no free event: it makes an error with a stack, and the SDK tears down what listened).
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) hangUp.abort();
  });
  const method = incoming.method ?? 'GET';
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // Whoever may not be served is answered before a byte of the body is
  // buffered (up to 4 MiB a connection, otherwise), and the connection closed.
  const refused = refuse({ headers });
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
  const response = await handle(request, method === 'POST' && body ? parsedJson(body) : undefined);
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

// The body as JSON, read as the SDK reads it; `undefined` for one the SDK is left to answer (empty, not JSON, past its bound).
function parsedJson(body: Buffer): ParsedBody | undefined {
  if (body.length === 0 || body.length > SDK_MAX_BODY_BYTES) return undefined;
  try {
    return { json: JSON.parse(UTF8.decode(body)) as unknown };
  } catch {
    return undefined;
  }
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
