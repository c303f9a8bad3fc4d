// Reading an HTTP response body as Server-Sent Events, whatever fetch
// produced it (see http/body.ts).
import type { EventSourceParser } from 'eventsource-parser';
import { BOM, chunksOf, MessageTooLongError, STREAMING } from '../http/body.js';
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
 * anywhere. Parsing is eventsource-parser's, loaded on first use. A reader
 * that stops early (`return`, as `break` in a `for await` calls it) lets go
 * of the body; one that met an error leaves the body as the error left it.
 */
export function readSse(body: unknown, options: SseOptions = {}): AsyncIterableIterator<SseEvent> {
  return new SseReader(body, options);
}

const DONE: IteratorResult<never> = { done: true, value: undefined };

/**
 * `readSse`'s iterator, which also hands out its events a chunk at a time
 * (`shift`, then `more`): every HTTP request of the 2025-11-25 era reads its
 * answer through one, and a class costs less per answer than an async
 * generator's machinery (its request queue, an await on each value it
 * yields), which cost more than parsing the event.
 */
export class SseReader implements AsyncIterableIterator<SseEvent> {
  private readonly limit: number;
  private readonly ready: SseEvent[] = [];
  private chunks: AsyncIterator<Uint8Array | string> | undefined;
  private parser: EventSourceParser | undefined;
  /** Made for the first chunk of bytes: a body read as text (rxmcp's own requests) needs none. */
  private decoder: TextDecoder | undefined;
  private started = false;
  /** The body ended, broke, or was let go: nothing more comes from it. */
  private ended = false;
  private tooLong = false;

  constructor(
    private readonly body: unknown,
    private readonly options: SseOptions,
  ) {
    this.limit = options.limit ?? Infinity;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<SseEvent> {
    return this;
  }

  async next(): Promise<IteratorResult<SseEvent>> {
    for (;;) {
      const event = this.shift();
      if (event !== undefined) return { done: false, value: event };
      if (!(await this.more())) return DONE;
    }
  }

  /** The next event of those read so far, if any. */
  shift(): SseEvent | undefined {
    return this.ready.shift();
  }

  /**
   * Reads the body's next chunk, whose events `shift` then hands out; false
   * once the body has ended (or was let go).
   *
   * @throws MessageTooLongError for an event over the limit (the rest of the
   *   body is let go); whatever the body threw when it broke.
   */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    // Taken without an await once the parser is loaded: a turn of the microtask queue per response.
    const chunks = this.chunks ?? (parserLoaded ? this.open(parserLoaded) : this.open(await loadParser()));
    let read: IteratorResult<Uint8Array | string>;
    try {
      read = await chunks.next();
    } catch (error) {
      this.ended = true;
      throw error;
    }
    if (read.done) {
      this.ended = true;
      // A character the last bytes left unfinished.
      const rest = this.decoder?.decode();
      if (rest) this.feed(rest);
    } else {
      this.feed(typeof read.value === 'string' ? read.value : (this.decoder ??= new TextDecoder()).decode(read.value, STREAMING));
    }
    if (this.tooLong) {
      // Whatever the chunk held besides is dropped with it, and the rest of the body let go.
      this.ready.length = 0;
      if (!this.ended) {
        this.ended = true;
        await chunks.return?.();
      }
      throw new MessageTooLongError(this.limit);
    }
    return true;
  }

  // Not an async function: every answer of the 2025-11-25 era ends its stream's reading here.
  return(): Promise<IteratorResult<SseEvent>> {
    this.ready.length = 0;
    if (this.ended) return Promise.resolve(DONE);
    this.ended = true;
    const closing = this.chunks?.return?.();
    return closing ? closing.then(() => DONE) : Promise.resolve(DONE);
  }

  private open({ createParser }: typeof import('eventsource-parser')): AsyncIterator<Uint8Array | string> {
    const { limit, ready, options } = this;
    // The parser measures what it holds for the event under way (its data so
    // far and the line not yet ended), comments and keep-alives left out, in
    // UTF-16 units: as each unit is at least a byte, what it refuses is over
    // the limit in bytes too. Each event is measured in bytes as it comes out,
    // which also catches one that arrived whole in one chunk.
    this.parser = createParser({
      onEvent: (event) => {
        if (longerInUtf8(event.data, limit)) this.tooLong = true;
        const read: SseEvent = { data: event.data };
        if (event.id !== undefined) read.id = event.id;
        if (event.event !== undefined) read.event = event.event;
        ready.push(read);
      },
      onRetry: (ms) => options.onRetry?.(ms),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.tooLong = true;
      },
      ...(limit === Infinity ? {} : { maxBufferSize: limit }),
    });
    this.chunks = chunksOf(this.body)[Symbol.asyncIterator]();
    return this.chunks;
  }

  private feed(text: string): void {
    if (!this.started && text !== '') {
      // A stream may begin with a byte order mark, which is not part of its first event (a TextDecoder drops it by itself).
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
      this.started = true;
    }
    (this.parser as EventSourceParser).feed(text);
  }
}

async function loadParser(): Promise<typeof import('eventsource-parser')> {
  parserLoaded = await (parserModule ??= import('eventsource-parser'));
  return parserLoaded;
}
