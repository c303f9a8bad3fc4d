import { defer, finalize, type Observable, of, share } from 'rxjs';

/** The methods whose results a modern server may let a client keep (`ttlMs`). */
export const CACHEABLE_METHODS: readonly string[] = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
];

type Result = Record<string, unknown>;

/**
 * Cacheable results kept for exactly the `ttlMs` the server promised, and
 * identical requests in flight shared. A result without a positive `ttlMs`
 * is not stored. Keys are the method and the params that shape the result.
 */
export class ResultCache {
  private readonly entries = new Map<string, { result: Result; expiresAt: number }>();
  private readonly inflight = new Map<string, Observable<Result>>();
  private readonly lists = new Map<string, { items: unknown[]; expiresAt: number }>();

  /** The cache key of a request. */
  static key(method: string, params: Record<string, unknown> | undefined): string {
    return `${method} ${JSON.stringify(params ?? {})}`;
  }

  /**
   * A fresh stored result, else the identical request already in flight,
   * else `load()` (shared with whoever asks the same while it runs). With
   * `bypass`, neither store nor flight is consulted.
   */
  fetch(key: string, load: () => Observable<Result>, bypass = false): Observable<Result> {
    return defer(() => {
      if (bypass) {
        this.entries.delete(key);
        return load();
      }
      const entry = this.entries.get(key);
      if (entry && Date.now() < entry.expiresAt) return of(entry.result);
      if (entry) this.entries.delete(key);
      let flight = this.inflight.get(key);
      if (!flight) {
        // Dropped from the table when it ends or when every caller has left.
        flight = load().pipe(
          finalize(() => this.inflight.delete(key)),
          share(),
        );
        this.inflight.set(key, flight);
      }
      return flight;
    });
  }

  /** Stores a result for its `ttlMs`, if that is a positive number of milliseconds. */
  store(key: string, result: Result): void {
    const ttlMs = result.ttlMs;
    if (typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0) {
      this.entries.set(key, { result, expiresAt: Date.now() + ttlMs });
    }
  }

  /**
   * Keeps a whole list, assembled from pages, for as long as every one of its
   * pages is kept; if a page was not stored, neither is the list.
   */
  storeList(method: string, items: unknown[], pageKeys: readonly string[]): void {
    let expiresAt = Infinity;
    for (const key of pageKeys) {
      const entry = this.entries.get(key);
      if (!entry) return;
      expiresAt = Math.min(expiresAt, entry.expiresAt);
    }
    this.lists.set(method, { items, expiresAt });
  }

  /** A whole list of `method` still fresh, or `undefined`. Do not modify it. */
  list(method: string): readonly unknown[] | undefined {
    const kept = this.lists.get(method);
    if (kept && Date.now() < kept.expiresAt) return kept.items;
    if (kept) this.lists.delete(method);
    return undefined;
  }

  /** Drops every stored result of `method`. */
  dropMethod(method: string): void {
    this.lists.delete(method);
    const prefix = `${method} `;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Drops one stored result. */
  drop(key: string): void {
    this.entries.delete(key);
  }

  /** Drops everything stored. */
  clear(): void {
    this.entries.clear();
    this.lists.clear();
  }
}
