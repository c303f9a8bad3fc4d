// Reading a response body within a limit, whatever fetch produced it: a web
// ReadableStream (browsers, undici), a Node stream (node-fetch, under
// cross-fetch), or any async iterable of chunks (rxmcp's own node:http
// requests).
import type { FetchResponse } from './fetch-like.js';

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
export function chunksOf(body: unknown): AsyncIterable<Uint8Array | string> {
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

export const BOM = 0xfeff;
/** How `decode` is told that more bytes follow: one object for every chunk rather than one each. */
const STREAMING = { stream: true };

// A chunk as text: a body may hand out strings already decoded (rxmcp's own
// node:http bodies, node-fetch's once set to an encoding); bytes are decoded
// with `decoder`, which keeps a character split across chunks for the next.
export function textOf(chunk: Uint8Array | string, decoder: TextDecoder): string {
  return typeof chunk === 'string' ? chunk : decoder.decode(chunk, STREAMING);
}
