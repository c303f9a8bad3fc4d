import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A hand-written HTTP+SSE (2024-11-05) server on 127.0.0.1, in the spec's own
// process, for answers no real server sends: by default it behaves as the
// SDK v1's SSEServerTransport does (GET /sse opens a stream whose first event
// names /message; a POST there is answered 202 and its answer follows on the
// stream), and a spec scripts where it goes wrong.

/** One GET stream, as the script writes to it. */
export interface SseStream {
  /** Writes one event: `type` as its `event:` field (none when undefined), each line of `data` as a `data:` line. */
  event(type: string | undefined, data: string): void;
  /** Writes text as it is, such as an event cut short or a comment. */
  write(text: string): void;
  /** Ends the stream from the server's side. */
  end(): void;
  /** True once the stream has ended, from either side. */
  readonly closed: boolean;
}

/** A JSON-RPC message as the client POSTed it. */
export interface Posted {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** What a script may do with one POST to the endpoint. */
export interface PostReply {
  /** The POST's own response: answer it, or leave it hanging. */
  res: ServerResponse;
  /** The stream the answer goes on (the latest one opened). */
  stream: SseStream;
  /** Does what an honest server does: 202, then the benign answer on the stream. */
  benign(): void;
}

/** Where the scripted server goes wrong; each part left out behaves as the SDK v1 does. */
export interface SseScript {
  /** Answers the GET itself instead of opening a stream (a redirect, say); returning false opens the stream after all. */
  get?(res: ServerResponse): void | boolean;
  /** What a new stream carries first (by default the event naming /message); `origin` is the server's. */
  open?(stream: SseStream, origin: string): void;
  /** Handles a POST to /message; the benign answer when it returns false. */
  post?(message: Posted, reply: PostReply): boolean;
}

/** A request the scripted server received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running scripted server. */
export interface ScriptedSseServer {
  /** The stream's URL: `http://127.0.0.1:PORT/sse`. */
  url: string;
  origin: string;
  /** Every request received, in order. */
  seen: SeenRequest[];
  /** The GET streams opened so far. */
  streams: SseStream[];
  /** The paths POSTs went to, in order. */
  posts(): string[];
  close(): Promise<void>;
}

/** The answer an honest server gives to each method the specs call. */
export function benignResult(message: Posted): Record<string, unknown> | undefined {
  switch (message.method) {
    case 'initialize':
      return { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'scripted-sse', version: '1.0.0' } };
    case 'tools/list':
      return { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] };
    case 'tools/call':
      return { content: [{ type: 'text', text: String((message.params?.arguments as { text?: unknown } | undefined)?.text ?? 'ok') }] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

/** The benign answer to a request, as the JSON text of a message. */
export function benignAnswer(message: Posted): string {
  const result = benignResult(message);
  return JSON.stringify(
    result === undefined
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: message.id, result },
  );
}

/** Starts a scripted server; `close()` ends it and every stream it holds. */
export async function scriptedSseServer(script: SseScript = {}): Promise<ScriptedSseServer> {
  const seen: SeenRequest[] = [];
  const streams: SseStream[] = [];
  let origin = '';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (req.method === 'GET' && path === '/sse') {
      if (script.get && script.get(res) !== false) return;
      const stream = openStream(res);
      streams.push(stream);
      return (script.open ?? ((opened) => opened.event('endpoint', '/message')))(stream, origin);
    }
    const stream = streams.at(-1);
    if (req.method !== 'POST' || path !== '/message' || !stream) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('Not Found');
    }
    let message: Posted;
    try {
      message = JSON.parse(seen.at(-1)?.body ?? '') as Posted;
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      return res.end('Invalid message');
    }
    const benign = (): void => {
      res.writeHead(202, { 'Content-Type': 'text/plain' });
      res.end('Accepted');
      if (message.id !== undefined && message.method !== undefined) stream.event('message', benignAnswer(message));
    };
    if (!script.post?.(message, { res, stream, benign })) benign();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/sse`,
    origin,
    seen,
    streams,
    posts: () => seen.filter((request) => request.method === 'POST').map((request) => request.path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function openStream(res: ServerResponse): SseStream {
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  // Headers out now: the client sees the stream open before any event.
  res.flushHeaders();
  return {
    event: (type, data) => {
      if (closed) return;
      res.write(`${type === undefined ? '' : `event: ${type}\n`}${data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join('')}\n`);
    },
    write: (text) => {
      if (!closed) res.write(text);
    },
    end: () => {
      if (!closed) res.end();
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}

/** A listener on another port of 127.0.0.1 that records every request it gets: the "elsewhere" nothing may reach. */
export async function elsewhere(): Promise<{ origin: string; seen: Array<{ method?: string; url?: string }>; close(): Promise<void> }> {
  const seen: Array<{ method?: string; url?: string }> = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url });
    req.resume();
    res.writeHead(202, { 'Content-Type': 'text/plain' });
    res.end('Accepted');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Scripts the answer to the first tools/call with `act`; every other message is answered benignly. */
export function onFirstCall(act: (message: Posted, reply: PostReply) => void): SseScript {
  let done = false;
  return {
    post: (message, reply) => {
      if (message.method !== 'tools/call' || done) return false;
      done = true;
      act(message, reply);
      return true;
    },
  };
}
