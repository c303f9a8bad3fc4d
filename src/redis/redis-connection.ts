import { createHash } from 'node:crypto';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpStoreError } from '../errors/store-errors.js';
import { checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { messageOf } from '../util/values.js';
import { loadOptionalPeer } from '../util/optional-peer.js';

/**
 * The calls the Redis stores make on a node-redis client: what
 * `createClient()` from `redis` (v6) returns fits.
 */
export interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  sendCommand(args: ReadonlyArray<string>, options?: { timeout?: number }): Promise<unknown>;
  duplicate(overrides?: { disableOfflineQueue?: boolean }): RedisClientLike;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  close(): Promise<void>;
  destroy(): void;
}

/** Where a Redis store lives: a client of yours, or a URL for one of its own. */
export interface RedisStoreOptions {
  /**
   * A connected node-redis client. It stays yours: the store sends commands
   * on it (and subscribes on a duplicate it owns) but never connects or
   * closes it. Give either `client` or `url`.
   */
  client?: RedisClientLike;
  /** A Redis URL (`redis://host:6379`, `rediss://…` for TLS); the store connects, reconnects and closes its own client. */
  url?: string;
  /** Whose data this is: stores with different namespaces share nothing, stores with the same one share everything. */
  namespace: string;
  /** How long one operation may take before it fails with `McpStoreError`, in milliseconds (default 2000). */
  timeoutMs?: number;
}

/** A Lua script, sent by its digest and loaded on demand. */
export interface LuaScript {
  source: string;
  sha: string;
}

/** Makes a `LuaScript` of its source. */
export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const OPTION_KEYS = keysOf<RedisStoreOptions>({ client: true, url: true, namespace: true, timeoutMs: true });
const DEFAULT_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * One Redis store's link to the server: the client (given or owned), the
 * budget of every operation, and the typed errors that name the store. An
 * owned client reconnects for ever, and while it is known to be down an
 * operation fails at once instead of waiting out its budget. It is made once
 * `redis`, an optional peer, has loaded: the constructor stays synchronous,
 * and where `redis` is not installed every operation fails saying so.
 */
export class RedisConnection {
  /** The server (credentials left out) and the namespace, for messages. */
  readonly location: string;
  readonly namespace: string;
  readonly timeoutMs: number;
  // The given client, or the owned one once made.
  private client: RedisClientLike | undefined;
  private readonly owned: boolean;
  // The owned client made, then connected: both reject where redis is not installed.
  private readonly made: Promise<RedisClientLike> | undefined;
  private readonly started: Promise<RedisClientLike> | undefined;
  private readonly extras: RedisClientLike[] = [];
  private down: string | undefined;
  private closed = false;

  /** @throws McpClientError for unknown options, neither or both of client and url, or a bad namespace or budget. */
  constructor(
    private readonly store: string,
    extraKeys: readonly string[],
    options: RedisStoreOptions,
  ) {
    refuseUnknown(options ?? {}, [...OPTION_KEYS, ...extraKeys]);
    const { client, url, namespace } = options;
    if ((client === undefined) === (url === undefined)) throw new McpClientError(`${store}: give either client or url`);
    if (typeof namespace !== 'string' || namespace === '') throw new McpClientError(`${store}: option namespace must be a non-empty string`);
    if (client !== undefined && typeof client.sendCommand !== 'function') throw new McpClientError(`${store}: option client must be a node-redis client`);
    this.namespace = namespace;
    this.timeoutMs = checkTimerDuration('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
    if (this.timeoutMs === 0) throw new McpClientError(`${store}: option timeoutMs must be more than 0: a store that hangs must not hang its callers`);
    if (url !== undefined) {
      if (typeof url !== 'string') throw new McpClientError(`${store}: option url must be a string`);
      this.location = `${withoutCredentials(url)} (namespace ${JSON.stringify(namespace)})`;
      this.owned = true;
      this.made = this.make(url);
      this.started = this.made.then(async (client) => {
        await client.connect();
        return client;
      });
      this.made.catch(() => undefined);
      this.started.catch(() => undefined);
    } else {
      this.location = `${describeClient(client as RedisClientLike)} (namespace ${JSON.stringify(namespace)})`;
      this.client = client as RedisClientLike;
      this.owned = false;
    }
  }

  // Loads redis, then makes the owned client; not once closed.
  private async make(url: string): Promise<RedisClientLike> {
    const { createClient } = await loadOptionalPeer('rxmcp/redis', 'redis', () => import('redis'));
    if (this.closed) throw new McpClientError(`${this.store}: the store is closed`);
    let made: RedisClientLike;
    try {
      made = createClient({
        url,
        // Fail fast while the server is known to be down (see run), rather
        // than queue commands that might run long after their caller gave up.
        disableOfflineQueue: true,
        socket: { connectTimeout: this.timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) },
      }) as unknown as RedisClientLike;
    } catch (error) {
      // Node's URL error keeps the whole URL, password and all, as `input`,
      // which a logged error shows through its cause: only the message is kept.
      throw new McpClientError(`the url cannot be used: ${messageOf(error)}`);
    }
    const client = this.own(made);
    this.client = client;
    return client;
  }

  /** A key of this namespace; the hash tag keeps a namespace's keys in one cluster slot. */
  key(name: string): string {
    return `rxmcp:{${this.namespace}}:${name}`;
  }

  /**
   * Runs a script atomically on the server, within the budget.
   * @throws McpStoreError naming the store, the operation and why.
   */
  script(operation: string, script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    return this.run(operation, async (client, timeout) => {
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await client.sendCommand(['EVALSHA', script.sha, ...tail], { timeout: timeout() });
      } catch (error) {
        if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
        return client.sendCommand(['EVAL', script.source, ...tail], { timeout: timeout() });
      }
    });
  }

  /**
   * Sends one command, within the budget.
   * @throws McpStoreError naming the store, the operation and why.
   */
  command(operation: string, args: readonly string[]): Promise<unknown> {
    return this.run(operation, (client, timeout) => client.sendCommand(args, { timeout: timeout() }));
  }

  /**
   * Subscribes to a channel on a client of its own (a subscribed connection
   * can do nothing else). `onReady` runs whenever that client (re)connects,
   * since messages published while it was away are lost. An owned client
   * not made yet subscribes once it is (never where redis is not installed).
   */
  subscribe(channel: string, onMessage: (message: string) => void, onReady: () => void): void {
    if (this.client === undefined) {
      this.made?.then((client) => this.listen(client, channel, onMessage, onReady)).catch(() => undefined);
      return;
    }
    this.listen(this.client, channel, onMessage, onReady);
  }

  private listen(client: RedisClientLike, channel: string, onMessage: (message: string) => void, onReady: () => void): void {
    if (this.closed) return;
    const subscriber = this.own(client.duplicate({ disableOfflineQueue: false }));
    this.extras.push(subscriber);
    subscriber.on('ready', onReady);
    subscriber.connect().catch(() => undefined);
    subscriber.subscribe(channel, (message) => onMessage(message)).catch(() => undefined);
  }

  /** Closes what the store owns (its client when it made it, and its subscriber); a given client stays open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // An owned client still being made is not made at all (see make).
    const owned = this.owned && this.client !== undefined ? [this.client, ...this.extras] : this.extras;
    await Promise.all(owned.map((client) => this.shut(client)));
  }

  // Closes gracefully when the server answers, within the budget; otherwise drops the socket.
  private async shut(client: RedisClientLike): Promise<void> {
    if (client.isReady) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timeoutMs)));
      await Promise.race([client.close().catch(() => undefined), late]);
      clearTimeout(timer);
    }
    if (client.isOpen) client.destroy();
  }

  // Bounds an operation by the budget, and turns whatever went wrong into a
  // McpStoreError. A command still in flight at the deadline is left to
  // settle on its own, its outcome ignored.
  private async run(operation: string, send: (client: RedisClientLike, timeout: () => number) => Promise<unknown>): Promise<unknown> {
    const fail = (reason: string, cause?: unknown) => new McpStoreError(this.store, this.location, operation, reason, { cause });
    if (this.closed) throw fail('the store is closed');
    if (this.client === undefined && this.made !== undefined) {
      // Loading redis is no wait on the server: the budget starts once the client is made.
      const unmade = await this.made.then(
        () => undefined,
        (error: unknown) => error ?? new Error('unknown failure'),
      );
      if (this.closed) throw fail('the store is closed');
      if (unmade !== undefined) throw fail(messageOf(unmade), unmade);
    }
    const deadline = Date.now() + this.timeoutMs;
    const timeout = () => Math.max(1, deadline - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(fail(`no answer within ${this.timeoutMs} ms${this.down ? `; Redis is unreachable (${this.down})` : ''}`)), this.timeoutMs);
      timer.unref?.();
    });
    try {
      let client = this.client;
      if (this.owned && !client?.isReady) {
        if (this.down !== undefined) throw fail(`Redis is unreachable (${this.down})`);
        client = await Promise.race([this.started as Promise<RedisClientLike>, expired]);
      }
      const sent = send(client as RedisClientLike, timeout);
      sent.catch(() => undefined);
      return await Promise.race([sent, expired]);
    } catch (error) {
      if (error instanceof McpStoreError) throw error;
      const reason = messageOf(error) || (error as Error)?.name || 'unknown failure';
      throw fail(/timeout/i.test(reason) ? `no answer within ${this.timeoutMs} ms` : reason, error);
    } finally {
      clearTimeout(timer);
    }
  }

  // A client this store made: its connection errors are remembered for the
  // messages (an EventEmitter without an error listener would throw them).
  private own(client: RedisClientLike): RedisClientLike {
    client.on('error', (error: unknown) => {
      if (client === this.client) this.down = messageOf(error) || 'connection lost';
    });
    client.on('ready', () => {
      if (client === this.client) this.down = undefined;
    });
    return client;
  }
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'an unreadable Redis URL';
  }
}

function describeClient(client: RedisClientLike): string {
  const options = (client as { options?: { url?: unknown; socket?: { host?: unknown; port?: unknown } } }).options;
  if (typeof options?.url === 'string') return withoutCredentials(options.url);
  const socket = options?.socket;
  if (socket && (socket.host !== undefined || socket.port !== undefined)) return `redis://${String(socket.host ?? 'localhost')}:${String(socket.port ?? 6379)}`;
  return 'a given Redis client';
}
