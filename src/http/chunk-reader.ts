import type { Readable } from 'node:stream';
import { STREAMING } from './body.js';

/** Why a body's reading ends when its stream closes before its end. */
export const CLOSED_EARLY = 'the response closed before its body ended';

/**
 * A body's chunks, read by the stream's own events (node's async iterator
 * for streams costs several µs more a body than the rest of reading it).
 * The stream is paused while a chunk waits for its reader. An error ends the
 * reading with it; a stream that closes before its end ends it with an
 * error too. A reader that stops early calls `leave` (the rest is drained).
 *
 * A chunk that ends on a whole character (its last byte ASCII, as an SSE
 * event's blank line is) is decoded by itself, as most are; from the first
 * that does not, a decoder keeps what is unfinished for the chunk after. A
 * stream's own decoder (`setEncoding`) cost a Buffer and a native call
 * more for every response.
 */
export class ChunkReader implements AsyncIterator<string> {
  private readonly queue: string[] = [];
  private decoder: TextDecoder | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiting: { resolve(result: IteratorResult<string>): void; reject(error: unknown): void } | undefined;

  constructor(
    private readonly stream: Readable,
    private readonly leave: () => void,
  ) {
    if (stream.destroyed) {
      this.failure = { error: stream.errored ?? new Error(CLOSED_EARLY) };
      return;
    }
    stream.on('data', this.onData);
    stream.on('end', this.onEnd);
    stream.on('error', this.onError);
    stream.on('close', this.onClose);
  }

  next(): Promise<IteratorResult<string>> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      if (this.queue.length === 0 && !this.ended) this.stream.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure) {
      const { error } = this.failure;
      this.failure = undefined;
      this.ended = true;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<string>> {
    this.stop();
    this.leave();
    return Promise.resolve({ done: true, value: undefined });
  }

  private readonly onData = (chunk: Buffer): void => {
    // A byte order mark stays (the SSE reader drops one that begins the stream).
    const text = this.decoder === undefined && (chunk[chunk.length - 1] ?? 0) < 0x80 ? chunk.toString('utf8') : (this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(chunk, STREAMING);
    const { waiting } = this;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: text });
      return;
    }
    this.queue.push(text);
    this.stream.pause();
  };

  private readonly onEnd = (): void => {
    this.stop();
    this.ended = true;
    // A character the last bytes left unfinished, as the decoder ends it.
    const rest = this.decoder?.decode();
    const { waiting } = this;
    this.waiting = undefined;
    if (rest) {
      if (waiting) waiting.resolve({ done: false, value: rest });
      else this.queue.push(rest);
      return;
    }
    waiting?.resolve({ done: true, value: undefined });
  };

  private readonly onError = (error: unknown): void => this.fail(error);

  private readonly onClose = (): void => this.fail(new Error(CLOSED_EARLY));

  private fail(error: unknown): void {
    this.stop();
    const { waiting } = this;
    this.waiting = undefined;
    if (waiting) {
      this.ended = true;
      waiting.reject(error);
    } else this.failure = { error };
  }

  private stop(): void {
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('error', this.onError);
    this.stream.off('close', this.onClose);
  }
}
