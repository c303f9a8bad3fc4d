/** An agent's claim on a path, until it expires. Times are milliseconds since the epoch, by the table's clock. */
export interface Lease {
  holder: string;
  since: number;
  expiresAt: number;
}

/** Why an acquire was refused: who holds what, and for how long already. */
export interface LeaseRefusal {
  path: string;
  holder: string;
  heldForSeconds: number;
}

/**
 * What `Leases` needs from a lease table: the contract both the in-process
 * `LeaseTable` and `RedisLeaseTable` (from `rxmcp/redis`) keep. Any operation
 * may answer with a plain value or a Promise; `Leases` awaits them.
 *
 * Paths are normalised absolute paths. A path is held by at most one holder;
 * a lease on a directory covers everything inside it; leases expire after
 * their TTL; a holder acquiring a path again refreshes its lease. A store
 * that cannot answer must throw or reject (preferably with `McpStoreError`),
 * never report a path as free: `Leases` turns the failure into a refusal.
 */
export interface LeaseStore {
  /** How long a lease lasts when nobody says otherwise, in seconds. */
  readonly defaultTtlSeconds: number;
  /** Claims every path for `holder`, or none: a conflicting lease of another holder is returned instead. */
  acquire(holder: string, paths: readonly string[], ttlSeconds?: number): LeaseRefusal | undefined | Promise<LeaseRefusal | undefined>;
  /** Gives back `holder`'s leases on `paths`, or all of them; answers the paths released. */
  release(holder: string, paths?: readonly string[]): string[] | Promise<string[]>;
  /** Releases everything a holder has (when its run has drained). */
  releaseHolder(holder: string): void | Promise<void>;
  /** Releases every lease of this table (at shutdown). */
  releaseAll(): void | Promise<void>;
  /** Another holder's live lease that touches `path` (on it, inside it, or a directory around it), as `[leased path, lease]`. */
  conflict(holder: string, path: string): [string, Lease] | undefined | Promise<[string, Lease] | undefined>;
  /** Whether `holder` has a live lease on `path` or a directory around it. */
  covers(holder: string, path: string): boolean | Promise<boolean>;
}
