// Reading a response body within a limit, whatever fetch produced it: a web
// ReadableStream (browsers, undici), a Node stream (node-fetch, given
// as the fetch option), or any async iterable of chunks (rxmcp's own node:http
// requests).
import type { FetchResponse } from './fetch-like.js';
import { utf8Length } from '../util/utf8-length.js';

/**
 * A whole body as text, refusing one of more than `limit` bytes. Bytes are
 * counted as they come, before they are decoded; a body handed out as
 * strings is counted in their UTF-8 bytes, lazily (see `StringBytes`).
 */
export function readText(response: FetchResponse, limit: number): Promise<string> {
  // Handed on, not awaited (an async function that returns a promise costs
  // turns of the microtask queue), and still a promise whatever the fetch's
  // own methods do: one that throws is a rejection, as in an async function.
  try {
    if (response.body === null || response.body === undefined || limit === Infinity) return Promise.resolve(response.text());
    if (response.textWithin) return Promise.resolve(response.textWithin(limit));
  } catch (error) {
    return Promise.reject(error);
  }
  return readChunks(response.body, limit);
}

// A body read chunk by chunk, counting its bytes as they come.
async function readChunks(body: unknown, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let strings: StringBytes | undefined;
  for await (const chunk of chunksOf(body)) {
    if (typeof chunk === 'string') {
      text += chunk;
      strings ??= new StringBytes(text.length - chunk.length);
      // A UTF-16 unit is at least one byte: a text longer than the limit is over it, counted or not.
      if (text.length > limit || (bytes + strings.most(text) > limit && bytes + strings.count(text) > limit)) throw new MessageTooLongError(limit);
    } else {
      bytes += chunk.byteLength;
      if (bytes > limit) throw new MessageTooLongError(limit);
      text += decoder.decode(chunk, STREAMING);
    }
  }
  // A high surrogate held back from the count, its pair never having come.
  if (strings !== undefined && bytes + strings.most(text) > limit && bytes + strings.count(text, true) > limit) throw new MessageTooLongError(limit);
  text += decoder.decode();
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/**
 * The UTF-8 bytes of the text a body handed out as strings, counted only
 * when the most they could be passes the limit: a body well within it is
 * never counted, and no character is counted twice.
 */
class StringBytes {
  private bytes = 0;

  /** `counted`: where in the text the strings began (a body hands out strings or bytes, not both). */
  constructor(private counted: number) {}

  /** The most bytes the text could take: those counted, and 3 for each UTF-16 unit not yet. */
  most(text: string): number {
    return this.bytes + 3 * (text.length - this.counted);
  }

  /** The bytes of the text, counted up to its end (short of a high surrogate whose pair may be in the next chunk, unless `last`). */
  count(text: string, last = false): number {
    let end = text.length;
    if (!last && end > this.counted && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    this.bytes += utf8Length(text, this.counted, end);
    this.counted = end;
    return this.bytes;
  }
}

/** A message (a body, or one SSE event) longer than the transport's limit. */
export class MessageTooLongError extends Error {
  override name = 'MessageTooLongError';
  constructor(readonly limit: number) {
    super(`a message longer than ${limit} bytes`);
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
export const STREAMING = { stream: true };
