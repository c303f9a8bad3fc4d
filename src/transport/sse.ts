// Reading an HTTP response body as Server-Sent Events, whatever fetch
// produced it (see http/body.ts).
import { BOM, chunksOf, MessageTooLongError, textOf } from '../http/body.js';
import { longerInUtf8 } from '../util/utf8-length.js';

/** One Server-Sent Event: its data, and its id and type when the server gave them. */
export interface SseEvent {
  data: string;
  id?: string;
  /** The `event:` field; absent for the default type, `message`. */
  event?: string;
}

/** How to read an SSE body. */
export interface SseOptions {
  /** The most bytes one event's data may take in UTF-8 (default: no limit). */
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
  // far and the line not yet ended), comments and keep-alives left out, in
  // UTF-16 units: as each unit is at least a byte, what it refuses is over
  // the limit in bytes too. Each event is measured in bytes as it comes out,
  // which also catches one that arrived whole in one chunk.
  let tooLong = false;
  const parser = createParser({
    onEvent: (event) => {
      if (longerInUtf8(event.data, limit)) tooLong = true;
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
