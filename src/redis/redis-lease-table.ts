import { McpClientError } from '../errors/mcp-client-error.js';
import { McpStoreError } from '../errors/store-errors.js';
import type { Lease, LeaseRefusal, LeaseStore } from '../providers/leases/lease-store.js';
import { ACQUIRE, CONFLICT, COVERS, LEASE_KEYS, RELEASE } from './lease-scripts.js';
import { RedisConnection, type RedisStoreOptions } from './redis-connection.js';
import { keysOf } from '../util/option-keys.js';

/** Options of `RedisLeaseTable`. */
export interface RedisLeaseTableOptions extends RedisStoreOptions {
  /** How long a lease lasts when nobody says otherwise, in seconds (default 300). */
  defaultTtlSeconds?: number;
}

// The options of its own, beside the connection's (which RedisConnection checks).
const OWN_KEYS = keysOf<Omit<RedisLeaseTableOptions, keyof RedisStoreOptions>>({ defaultTtlSeconds: true });

/**
 * The lease table of one workspace, kept in Redis so that agents in several
 * processes, containers or hosts share it: give each agent's `Leases` its own
 * `RedisLeaseTable` with the same `namespace`. Same contract as the
 * in-process `LeaseTable` (all or nothing over several paths, a directory
 * covers what is inside it, TTL, re-acquiring refreshes), with every
 * operation one Lua script, atomic on the server, and expiry by the
 * server's clock.
 *
 * Fails closed: when Redis cannot be reached or does not answer within
 * `timeoutMs`, every operation rejects with `McpStoreError` naming the store,
 * which `Leases` turns into a refusal (never a grant). The next operation
 * tries again, so the table recovers by itself when Redis returns. An
 * acquire whose answer was lost may still have taken effect on the server;
 * its lease then lapses at its TTL.
 *
 * @example
 * ```ts
 * import { Leases } from 'rxmcp';
 * import { RedisLeaseTable } from 'rxmcp/redis';
 *
 * const table = new RedisLeaseTable({ url: 'redis://127.0.0.1:6379', namespace: 'checkout-42' });
 * const leases = new Leases({ inner: registry, table, agentId: 'agent-7', roots: { fs: '/srv/work', lock: '/srv/work' } });
 * // … when the run is over:
 * await table.releaseHolder('agent-7');
 * await table.close();
 * ```
 */
export class RedisLeaseTable implements LeaseStore {
  /** How long a lease lasts when nobody says otherwise, in seconds. */
  readonly defaultTtlSeconds: number;
  private readonly redis: RedisConnection;
  private readonly keys: string[];

  /** @throws McpClientError for unknown options, neither or both of client and url, or a bad namespace, TTL or budget. */
  constructor(options: RedisLeaseTableOptions) {
    const ttl = options?.defaultTtlSeconds ?? 300;
    if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0)) {
      throw new McpClientError(`RedisLeaseTable: option defaultTtlSeconds must be a positive number of seconds; got ${JSON.stringify(ttl)}`);
    }
    this.defaultTtlSeconds = ttl;
    this.redis = new RedisConnection('RedisLeaseTable', OWN_KEYS, options);
    this.keys = LEASE_KEYS.map((name) => this.redis.key(name));
  }

  /**
   * Claims every path for `holder`, or none: the first conflicting lease of
   * another holder is answered instead. Paths are normalised absolute paths.
   * @throws McpStoreError when Redis cannot answer (nothing was granted that the caller can rely on).
   */
  async acquire(holder: string, paths: readonly string[], ttlSeconds = this.defaultTtlSeconds): Promise<LeaseRefusal | undefined> {
    const ttlMs = String(Math.max(1, Math.ceil(ttlSeconds * 1000)));
    const reply = await this.redis.script('acquire', ACQUIRE, this.keys, [holder, ttlMs, ...paths]);
    if (reply === null || reply === undefined) return undefined;
    const [path, by, heldFor] = this.row('acquire', reply, 3) as [string, string, string];
    return { path, holder: by, heldForSeconds: Number(heldFor) };
  }

  /**
   * Gives back `holder`'s leases on `paths`, or all of them; answers the paths released.
   * @throws McpStoreError when Redis cannot answer.
   */
  async release(holder: string, paths?: readonly string[]): Promise<string[]> {
    const reply = await this.redis.script('release', RELEASE, this.keys, [holder, paths === undefined ? 'all' : 'some', ...(paths ?? [])]);
    return this.row('release', reply, undefined);
  }

  /**
   * Releases everything an agent holds (when its run has drained).
   * @throws McpStoreError when Redis cannot answer.
   */
  async releaseHolder(holder: string): Promise<void> {
    await this.release(holder);
  }

  /**
   * Releases every lease of this namespace, and nothing of any other (at shutdown).
   * @throws McpStoreError when Redis cannot answer.
   */
  async releaseAll(): Promise<void> {
    await this.redis.command('releaseAll', ['DEL', ...this.keys]);
  }

  /**
   * Another holder's live lease that touches `path`, as `[leased path, lease]`.
   * @throws McpStoreError when Redis cannot answer.
   */
  async conflict(holder: string, path: string): Promise<[string, Lease] | undefined> {
    const reply = await this.redis.script('conflict', CONFLICT, this.keys, [holder, path]);
    if (reply === null || reply === undefined) return undefined;
    const [leased, by, since, expiresAt] = this.row('conflict', reply, 4) as [string, string, string, string];
    return [leased, { holder: by, since: Number(since), expiresAt: Number(expiresAt) }];
  }

  /**
   * Whether `holder` has a live lease on `path` or a directory around it.
   * @throws McpStoreError when Redis cannot answer.
   */
  async covers(holder: string, path: string): Promise<boolean> {
    return (await this.redis.script('covers', COVERS, this.keys, [holder, path])) === 1;
  }

  /** Closes the connection the table made from `url` (a given client stays open). Leases stay in Redis until they expire or are released. */
  close(): Promise<void> {
    return this.redis.close();
  }

  // A script's array reply, as strings, of the length expected.
  private row(operation: string, reply: unknown, length: number | undefined): string[] {
    if (!Array.isArray(reply) || (length !== undefined && reply.length !== length)) {
      throw new McpStoreError('RedisLeaseTable', this.redis.location, operation, `unexpected reply ${JSON.stringify(reply)}`);
    }
    return reply.map((item) => String(item));
  }
}
