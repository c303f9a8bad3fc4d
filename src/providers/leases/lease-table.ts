import type { Lease, LeaseRefusal, LeaseStore } from './lease-store.js';

/**
 * The lease table of one workspace, shared by every agent's `Leases` layer:
 * advisory, in-process, bounded. A path is held by at most one agent; a
 * lease on a directory also covers everything inside it. Leases expire after
 * their TTL; a holder re-acquiring a path refreshes it. Every operation
 * answers at once, with a plain value. For agents in several processes or on
 * several machines, `RedisLeaseTable` from `rxmcp/redis` keeps the same
 * contract (`LeaseStore`).
 */
export class LeaseTable implements LeaseStore {
  /** How long a lease lasts when nobody says otherwise, in seconds (default 300). */
  readonly defaultTtlSeconds: number;
  private readonly leases = new Map<string, Lease>();

  constructor(options: { defaultTtlSeconds?: number } = {}) {
    this.defaultTtlSeconds = options.defaultTtlSeconds ?? 300;
  }

  /**
   * Claims every path for `holder`, or none: the first conflicting lease of
   * another holder is returned instead. Paths are normalised absolute paths.
   */
  acquire(holder: string, paths: readonly string[], ttlSeconds = this.defaultTtlSeconds): LeaseRefusal | undefined {
    const now = Date.now();
    this.expire(now);
    for (const path of paths) {
      const conflict = this.conflict(holder, path);
      if (conflict) return { path: conflict[0], holder: conflict[1].holder, heldForSeconds: Math.floor((now - conflict[1].since) / 1000) };
    }
    for (const path of paths) {
      const since = this.leases.get(path)?.since ?? now;
      this.leases.set(path, { holder, since, expiresAt: now + ttlSeconds * 1000 });
    }
    return undefined;
  }

  /** Gives back `holder`'s leases on `paths`, or all of them; returns the paths released. */
  release(holder: string, paths?: readonly string[]): string[] {
    const released: string[] = [];
    for (const [path, lease] of this.leases) {
      if (lease.holder === holder && (paths === undefined || paths.includes(path))) {
        this.leases.delete(path);
        released.push(path);
      }
    }
    return released;
  }

  /** Releases everything an agent holds (when its run has drained). */
  releaseHolder(holder: string): void {
    this.release(holder);
  }

  /** Empties the table (at shutdown). */
  releaseAll(): void {
    this.leases.clear();
  }

  /** Another holder's live lease that touches `path` (on it, inside it, or a directory around it). */
  conflict(holder: string, path: string): [string, Lease] | undefined {
    this.expire(Date.now());
    for (const entry of this.leases) {
      if (entry[1].holder !== holder && overlaps(entry[0], path)) return entry;
    }
    return undefined;
  }

  /** Whether `holder` has a live lease on `path` or a directory around it. */
  covers(holder: string, path: string): boolean {
    this.expire(Date.now());
    for (const [leased, lease] of this.leases) if (lease.holder === holder && within(path, leased)) return true;
    return false;
  }

  private expire(now: number): void {
    for (const [path, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(path);
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

function overlaps(a: string, b: string): boolean {
  return within(a, b) || within(b, a);
}
