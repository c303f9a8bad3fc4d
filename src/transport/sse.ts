// Reading an HTTP response body as Server-Sent Events, whatever fetch
// produced it: a web ReadableStream (browsers, undici) or a Node stream
// (node-fetch, under cross-fetch), or any async iterable of chunks (rxmcp's
// own node:http requests).

/** The part of a fetch Response this transport reads. */
export interface FetchResponse {
  status: number;
  ok: boolean;
  /** `'opaqueredirect'` when a browser's fetch hid a redirect it was told not to follow. */
  type?: string;
  /** The URL the response came from, when the fetch says (after redirects it followed on its own). */
  url?: string;
  /** `true` when the fetch followed a redirect on its own; `false` when it says it did not. */
  redirected?: boolean;
  headers: { get(name: string): string | null };
  body: unknown;
  text(): Promise<string>;
  /** The whole body as text within `limit` characters, when the fetch can read it more cheaply than chunk by chunk (rxmcp's own node:http requests). */
  textWithin?(limit: number): Promise<string>;
}

/** The part of `fetch` this transport calls. */
export type FetchLike = (url: string, init: Record<string, unknown>) => Promise<FetchResponse>;

/** One Server-Sent Event: its data, and its id and type when the server gave them. */
export interface SseEvent {
  data: string;
  id?: string;
  /** The `event:` field; absent for the default type, `message`. */
  event?: string;
}

/** How to read an SSE body. */
export interface SseOptions {
  /** The most characters one event may take (default: no limit). */
  limit?: number;
  /** Called with each `retry` advice the server sends, in milliseconds. */
  onRetry?: (ms: number) => void;
}

// Loaded once: an import() of a module already loaded still costs a lookup in the loader, for every stream.
let parserModule: Promise<typeof import('eventsource-parser')> | undefined;
// The module once loaded, taken without an await (a promise hop per stream).
let parserLoaded: typeof import('eventsource-parser') | undefined;

/**
 * Each event of an SSE body, in order. Comments (keep-alives) are skipped;
 * multi-line data is joined with newlines; events may be split across chunks
 * anywhere. Parsing is eventsource-parser's, loaded on first use.
 */
export async function* readSse(body: unknown, options: SseOptions = {}): AsyncGenerator<SseEvent> {
  const { createParser } = (parserLoaded ??= await (parserModule ??= import('eventsource-parser')));
  const limit = options.limit ?? Infinity;
  const ready: SseEvent[] = [];
  // The parser measures what it holds for the event under way (its data so
  // far and the line not yet ended), comments and keep-alives left out; an
  // event that arrived whole in one chunk is measured as it comes out.
  let tooLong = false;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data.length > limit) tooLong = true;
      const read: SseEvent = { data: event.data };
      if (event.id !== undefined) read.id = event.id;
      if (event.event !== undefined) read.event = event.event;
      ready.push(read);
    },
    onRetry: (ms) => options.onRetry?.(ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLong = true;
    },
    ...(limit === Infinity ? {} : { maxBufferSize: limit }),
  });
  const decoder = new TextDecoder();
  let started = false;
  for await (const chunk of chunksOf(body)) {
    let text = textOf(chunk, decoder);
    if (!started && text !== '') {
      // A stream may begin with a byte order mark, which is not part of its first event (a TextDecoder drops it by itself).
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
      started = true;
    }
    parser.feed(text);
    if (tooLong) throw new MessageTooLongError(limit);
    while (ready.length > 0) yield ready.shift() as SseEvent;
  }
  parser.feed(decoder.decode());
  if (tooLong) throw new MessageTooLongError(limit);
  while (ready.length > 0) yield ready.shift() as SseEvent;
}

/** A whole body as text, refusing to hold more than `limit` characters. */
export async function readText(response: FetchResponse, limit: number): Promise<string> {
  if (response.body === null || response.body === undefined || limit === Infinity) return response.text();
  if (response.textWithin) return response.textWithin(limit);
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of chunksOf(response.body)) {
    text += textOf(chunk, decoder);
    if (text.length > limit) throw new MessageTooLongError(limit);
  }
  text += decoder.decode();
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/** Why a request sent with a `deadline` (rxmcp's own node:http requests) failed: no response came in time. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
  constructor() {
    super('no response before the deadline');
  }
}

/** A message (a body, or one SSE event) longer than the transport's limit. */
export class MessageTooLongError extends Error {
  override name = 'MessageTooLongError';
  constructor(readonly limit: number) {
    super(`a message longer than ${limit} characters`);
  }
}

// The chunks of a body: a web stream's, read through a generator, or an
// async iterable's (rxmcp's own node:http requests, node-fetch) iterated
// directly, one generator layer fewer for every body.
function chunksOf(body: unknown): AsyncIterable<Uint8Array | string> {
  if (body === null || body === undefined) return [] as unknown as AsyncIterable<Uint8Array>;
  if (typeof (body as { getReader?: unknown }).getReader === 'function') return webChunks(body as { getReader(): ReadableStreamDefaultReader<Uint8Array> });
  return body as AsyncIterable<Uint8Array | string>;
}

async function* webChunks(body: { getReader(): ReadableStreamDefaultReader<Uint8Array> }): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const BOM = 0xfeff;
/** How `decode` is told that more bytes follow: one object for every chunk rather than one each. */
const STREAMING = { stream: true };

// A chunk as text: a body may hand out strings already decoded (rxmcp's own
// node:http bodies, node-fetch's once set to an encoding); bytes are decoded
// with `decoder`, which keeps a character split across chunks for the next.
function textOf(chunk: Uint8Array | string, decoder: TextDecoder): string {
  return typeof chunk === 'string' ? chunk : decoder.decode(chunk, STREAMING);
}
