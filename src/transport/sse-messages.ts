import { McpNetworkError } from '../errors/transport-errors.js';
import { MessageTooLongError } from '../http/body.js';
import { decodeLine, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { AbortLike } from '../util/light-abort.js';
import type { SseReader } from './sse.js';

/** Where an SSE stream got to: the last event id and the server's `retry` advice, for resuming it. */
export interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
}

/** What the messages' errors and warnings need of the HTTP wire. */
interface WireOfMessages {
  readonly url: string;
  warn(message: string): void;
  tooLong(): Error;
}

/** One JSON-RPC message from a body or an event; anything else is undefined. */
export function decodeMessage(text: string): JsonRpcMessage | undefined {
  const decoded = decodeLine(text);
  return decoded.kind === 'invalid' ? undefined : decoded.message;
}

/**
 * The JSON-RPC messages of an SSE response, one per event: `cursor`
 * follows the event ids, an event without data is only an id to resume
 * from, and one that is not JSON-RPC is skipped with a warning. Its errors
 * are the wire's: the signal's reason once it aborted, the wire's
 * `tooLong()` for an event over the limit, McpNetworkError for a stream
 * that broke. `return` (a `for await` that stops early) lets go of the body.
 *
 * An iterator of its own, taking the reader's events a chunk at a time,
 * rather than an async generator over `readSse`: every 2025-11-25 request
 * reads its answer through one, and two layers of generators cost more per
 * answer than reading the event.
 */
export class SseMessages implements AsyncIterableIterator<JsonRpcMessage> {
  constructor(
    private readonly events: SseReader,
    private readonly wire: WireOfMessages,
    private readonly signal: AbortLike,
    private readonly cursor?: StreamCursor,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<JsonRpcMessage> {
    return this;
  }

  async next(): Promise<IteratorResult<JsonRpcMessage>> {
    for (;;) {
      const event = this.events.shift();
      if (event === undefined) {
        let more: boolean;
        try {
          more = await this.events.more();
        } catch (error) {
          if (this.signal.aborted) throw this.signal.reason;
          if (error instanceof MessageTooLongError) throw this.wire.tooLong();
          throw new McpNetworkError(this.wire.url, `the response stream broke: ${(error as Error).message}`, { cause: error });
        }
        if (!more) return { done: true, value: undefined };
        continue;
      }
      if (this.cursor && event.id !== undefined) this.cursor.lastEventId = event.id;
      // An event without data primes the client with an id to resume from.
      if (event.data === '') continue;
      const message = decodeMessage(event.data);
      if (message) return { done: false, value: message };
      this.wire.warn(`skipped an SSE event that is not JSON-RPC: ${JSON.stringify(event.data.slice(0, 200))}`);
    }
  }

  return(): Promise<IteratorResult<JsonRpcMessage>> {
    // The reader's own end, handed on: it holds no event by then.
    return this.events.return() as Promise<IteratorResult<never>>;
  }
}
