import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Url from 'node:url';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';
import { Deadlines } from '../util/deadlines.js';
import { VERSION } from '../version.js';
import { MessageTooLongError } from './body.js';
import { CLOSED_EARLY, ChunkReader } from './chunk-reader.js';
import { headerLines } from './header-lines.js';
import { DeadlinePassed, type FetchLike, type FetchResponse } from './fetch-like.js';

/** node:http, node:https and node:url, which the caller loads (by dynamic import, so that no browser bundle ever imports them). */
export interface NodeHttpModules {
  http: typeof Http;
  https: typeof Https;
  url: typeof Url;
}

/** The headers every request carries unless the caller gives its own: who asks, and the content codings asked for (as node-fetch, the fetch used before this one, asked for them). */
const DEFAULT_HEADERS = ['User-Agent', `rxmcp/${VERSION}`, 'Accept-Encoding', 'gzip, deflate'];
/**
 * How long, and how far, the rest of a body its reader left is read on (and
 * dropped): a 2025-11-25 server ends a request's stream just after the
 * answer the reader stopped at, and a response read to its end leaves its
 * connection for the next request instead of closing it. One that goes on
 * longer, or sends more, is cut: a server cannot make the client read on.
 */
export const DRAIN_MS = 1000;
const DRAIN_BYTES = 64 * 1024;
/** The least room a body of more than one chunk is given to grow in. */
const MIN_HELD = 16 * 1024;

/**
 * The requests rxmcp makes on Node when the caller gave no `fetch`, sent with
 * node:http and node:https directly: a fetch's Request, Headers and body
 * streams cost more CPU per call than the exchange itself. It does what the
 * HTTP wire and the OAuth client ask of a fetch and no more: one request per
 * call (redirects come back as they are, to be judged by the caller), abort
 * by `signal` before the response and while its body is read, a body that is
 * the response stream itself (inflated when the server compressed it),
 * headers read case-insensitively. Errors are node:http's own (a refused
 * connection, a reset socket), or the signal's reason once it aborted.
 *
 * `init.deadline` (a `Date.now()` time) bounds the wait for the response
 * itself, with no AbortController of its own: past it the request is cut
 * off (the server sees the hang-up) and the promise rejects with
 * DeadlinePassed. The clock stops once the response starts, except for a
 * redirect, whose body the caller reads before its next hop: that runs on
 * the same clock until it ends. Every request's clock, and every drain's,
 * is kept on one `Deadlines` timer: a timer set and cleared per request
 * cost a sequence of calls more than any other part of sending one (each
 * made Node's timer list for its duration anew, once the one before was
 * cleared).
 */
export class NodeHttpFetch {
  /** The kept-alive agents, for http: and https:, each made when first needed (an idle connection keeps what is made). */
  private readonly agents: [Http.Agent | undefined, Https.Agent | undefined] = [undefined, undefined];
  private zlib: Promise<typeof Zlib> | undefined;
  /** The wait for each response, and each body left to drain: one timer for all, which never holds the process open. */
  private readonly clock = new Deadlines();
  /** The URL last asked for, parsed once (with its request options): every request goes to the same endpoint. */
  private last: Target | undefined;

  /** `keepAlive` false closes each connection after its response (`persistent: false`). */
  constructor(
    private readonly modules: NodeHttpModules,
    private readonly keepAlive: boolean,
  ) {}

  /** Sends one request: the `fetch` of `HttpWire` and the OAuth client. */
  readonly fetch: FetchLike = (url, init) =>
    new Promise((resolve, reject) => {
      const signal = init.signal as AbortSignal | undefined;
      if (signal?.aborted) return reject(signal.reason);
      const deadline = init.deadline as number | undefined;
      const left = deadline === undefined ? Infinity : deadline - Date.now();
      if (left <= 0) return reject(new DeadlinePassed());
      const payload = init.body as string | undefined;
      let request: Http.ClientRequest;
      try {
        const { secure, options: target, host, basic } = this.parse(url);
        const headers = headerLines(DEFAULT_HEADERS, (init.headers ?? {}) as Record<string, string>, host, basic, payload);
        const { protocol, hostname, port, path } = target;
        const options: Http.RequestOptions & { servername?: string } = { protocol, hostname, port, path, method: init.method as string, headers, agent: this.agent(secure) };
        // node:https names the TLS server after a Host header set with setHeader, and cannot see one in raw lines.
        if (secure) {
          const given = givenHost(init.headers as Record<string, string> | undefined);
          if (given !== undefined) options.servername = serverNameOf(given);
        }
        request = secure ? this.modules.https.request(options) : this.modules.http.request(options);
      } catch (error) {
        // A URL that does not parse, or a header node:http refuses.
        return reject(error);
      }
      let body: NodeBody | undefined;
      const cut = (reason: unknown): void => {
        reject(reason);
        if (body) body.abort(reason);
        else request.destroy();
      };
      const abort = (): void => cut(signal?.reason);
      const stopClock = left === Infinity ? noClock : this.clock.add(left, () => cut(new DeadlinePassed()));
      const release = (): void => {
        stopClock();
        signal?.removeEventListener('abort', abort);
      };
      signal?.addEventListener('abort', abort, { once: true });
      // node:http may report an error after the response too (the socket
      // broke mid-body, which breaks the body as well): the listener stays
      // so that nothing goes unhandled.
      request.on('error', (error) => {
        release();
        reject(error);
      });
      request.on('response', (response: Http.IncomingMessage) => {
        // Read to its end, the response let its socket go back to the pool: aborting now must not take it away.
        response.on('end', release);
        const status = response.statusCode ?? 0;
        // A redirect's clock runs on while the caller reads its body (a redirect it refuses is never read, and the clock holds nothing open).
        if (status < 300 || status >= 400) stopClock();
        else response.once('close', stopClock);
        const coding = codingOf(response);
        if (coding === undefined) {
          body = new NodeBody(request, response, this.clock, response);
          return resolve(new NodeResponse(url, response, body));
        }
        this.inflated(response, coding).then((inflated) => {
          body = new NodeBody(request, inflated, this.clock);
          if (signal?.aborted) body.abort(signal.reason);
          resolve(new NodeResponse(url, response, body));
        }, reject);
      });
      request.end(payload);
    });

  /** Lets go of the kept-alive connections, and of any still in use. */
  close(): void {
    for (const agent of this.agents) agent?.destroy();
    this.clock.clear();
  }

  private agent(secure: boolean): Http.Agent {
    const { keepAlive } = this;
    if (secure) return (this.agents[1] ??= new this.modules.https.Agent({ keepAlive }));
    return (this.agents[0] ??= new this.modules.http.Agent({ keepAlive }));
  }

  // node:http's options for a URL (as it would make them from the URL itself,
  // each request), and the Host and Authorization headers it would add.
  private parse(url: string): Target {
    if (this.last?.href === url) return this.last;
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') throw new TypeError(`only http: and https: URLs can be fetched, not ${JSON.stringify(target.protocol)}`);
    const options = this.modules.url.urlToHttpOptions(target);
    const basic = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : undefined;
    this.last = { href: url, secure, options, host: target.host, basic };
    return this.last;
  }

  // The body of a response the server compressed, inflated; zlib loads the first time one comes.
  private async inflated(response: Http.IncomingMessage, coding: Coding): Promise<Readable> {
    const zlib = await (this.zlib ??= import('node:zlib'));
    // Flushing as data comes keeps an SSE stream's events moving, and a body cut short is read as far as it got.
    const flushing = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
    const inflate = coding === 'br' ? zlib.createBrotliDecompress() : coding === 'gzip' ? zlib.createGunzip(flushing) : zlib.createInflate(flushing);
    // zlib streams, unlike node:http's response, emit 'error' with no one
    // listening: a body that breaks (bytes that do not inflate, a reset
    // socket) while nobody reads it (left to drain, aborted before its reader
    // came) would throw out of the process. Its reader still sees the error.
    inflate.on('error', () => undefined);
    response.on('error', (error) => inflate.destroy(error));
    inflate.on('close', () => response.destroy());
    return response.pipe(inflate);
  }
}

type Coding = 'gzip' | 'deflate' | 'br';

/** A URL as node:http is given it: its request options, its `Host` header, and the `Authorization` its credentials make. */
interface Target {
  href: string;
  secure: boolean;
  options: Http.RequestOptions;
  host: string;
  basic: string | undefined;
}

// The clock of a request with no deadline.
const noClock = (): void => undefined;

// The coding a response's body must be inflated from; undefined for a body
// to read as it came (not compressed, no body, or a coding fetch would not
// know either).
function codingOf(response: Http.IncomingMessage): Coding | undefined {
  const header = response.headers['content-encoding'];
  if (header === undefined || response.statusCode === 204 || response.statusCode === 304) return undefined;
  const coding = header.trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'x-deflate') return 'deflate';
  return coding === 'br' ? 'br' : undefined;
}

/**
 * A response body, read by iterating its chunks. A reader that stops before
 * the end (it found the answer it wanted, or gave up on the body) leaves the
 * rest to be drained for up to DRAIN_MS (and 64 KiB); an abort while it still reads, or
 * before it starts, cuts the response off (the server sees the connection close).
 */
class NodeBody implements AsyncIterable<string> {
  private left = false;

  /** `clock`: where a drain's deadline is kept; `plain`: the response itself, when the body is read as it came (not inflated). */
  constructor(
    private readonly request: Http.ClientRequest,
    private readonly stream: Readable,
    private readonly clock: Deadlines,
    private readonly plain?: Http.IncomingMessage,
  ) {}

  /** The chunks as text. */
  [Symbol.asyncIterator](): AsyncIterator<string> {
    return new ChunkReader(this.stream, () => this.drain());
  }

  /**
   * The whole body as text, refusing more than `limit` bytes (the rest is
   * then drained). Read by its 'data' events as bytes, counted as they come
   * and decoded once at the end: a stream's async iterator and a TextDecoder
   * per chunk cost more than the rest of reading a small JSON answer. What is
   * held is the bytes so far, never more than `limit` and a chunk: a body of
   * one chunk as it came, a longer one copied into one growing buffer, as a
   * server that sends a body in many tiny chunks (one byte each, in chunked
   * encoding) would otherwise have a Buffer of a few hundred bytes kept for
   * each of its bytes.
   */
  readAll(limit: number): Promise<string> {
    const { stream } = this;
    return new Promise((resolve, reject) => {
      // Cut off (aborted) before its reader came: its events are over.
      if (stream.destroyed) return reject(stream.errored ?? new Error(CLOSED_EARLY));
      // The first chunk as it came (most bodies are one); from the second on, `held` with room to grow.
      let first: Buffer | undefined;
      let held: Buffer | undefined;
      let bytes = 0;
      const settle = (): void => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onError);
        stream.off('close', onClose);
      };
      const onData = (chunk: Buffer): void => {
        const total = bytes + chunk.length;
        if (total <= limit) {
          if (held === undefined && first === undefined) first = chunk;
          else {
            if (held === undefined || total > held.length) {
              // Doubling keeps the copying linear in the body; never past the limit.
              const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(total, 2 * (held?.length ?? bytes), MIN_HELD)));
              (held ?? (first as Buffer)).copy(grown, 0, 0, bytes);
              held = grown;
              first = undefined;
            }
            chunk.copy(held, bytes);
          }
          bytes = total;
          return;
        }
        settle();
        this.drain();
        reject(new MessageTooLongError(limit));
      };
      const onEnd = (): void => {
        settle();
        const text = held ? held.toString('utf8', 0, bytes) : (first?.toString('utf8') ?? '');
        // As a TextDecoder reads it: a byte order mark is not part of the text.
        resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      };
      const onError = (error: Error): void => {
        settle();
        reject(error);
      };
      const onClose = (): void => {
        settle();
        reject(new Error(CLOSED_EARLY));
      };
      stream.on('data', onData);
      stream.on('end', onEnd);
      stream.on('error', onError);
      stream.on('close', onClose);
    });
  }

  /** Cuts the response off, unless its reader already let it go to be drained. */
  abort(reason: unknown): void {
    if (this.left) return;
    this.request.destroy();
    this.stream.destroy(reason as Error);
  }

  private drain(): void {
    if (this.left || this.stream.readableEnded) return;
    this.left = true;
    // All of an uncompressed body is in already (the usual case: the answer
    // came with the body's end): what is left of it is only let go.
    if (this.plain?.complete) {
      this.stream.resume();
      return;
    }
    // 'close' follows 'end', and comes without it to a stream cut off.
    this.stream.on('close', this.clock.add(DRAIN_MS, () => this.stream.destroy()));
    let drained = 0;
    // A 'data' listener sets the stream flowing: what comes is counted and dropped.
    this.stream.on('data', (chunk: Buffer | string) => {
      drained += chunk.length;
      if (drained > DRAIN_BYTES) this.stream.destroy();
    });
    this.stream.resume();
  }
}

/** A node:http response as the part of a fetch Response the transport reads. */
class NodeResponse implements FetchResponse {
  readonly status: number;
  readonly ok: boolean;
  /** Never redirected on its own: redirects come back as they are. */
  readonly redirected = false;
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly url: string,
    response: Http.IncomingMessage,
    readonly body: NodeBody,
  ) {
    this.status = response.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    const fields = response.headers;
    this.headers = {
      get: (name) => {
        const value = fields[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  text(): Promise<string> {
    return this.body.readAll(Infinity);
  }

  textWithin(limit: number): Promise<string> {
    return this.body.readAll(limit);
  }
}

// The Host header a caller gave, in whatever case, if any.
function givenHost(headers: Record<string, string> | undefined): string | undefined {
  if (headers === undefined) return undefined;
  for (const name of Object.keys(headers)) if (name.length === 4 && name.toLowerCase() === 'host') return headers[name];
  return undefined;
}

// The TLS server name node:https takes from a Host header: the name without its port or brackets, none for an address.
function serverNameOf(host: string): string {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']')) : (host.split(':', 1)[0] as string);
  return /^[0-9.]+$/.test(name) || name.includes(':') ? '' : name;
}
