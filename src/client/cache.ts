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
type Entry = { result: Result; expiresAt: number };
type KeptList = { items: unknown[]; expiresAt: number; untilChanged: boolean };

// The method a key belongs to: keys are the method, a space, then the params (method names hold no space).
function methodOf(key: string): string {
  return key.slice(0, key.indexOf(' '));
}

/**
 * Cacheable results kept for exactly the `ttlMs` the server promised, and
 * identical requests in flight shared. A result without a positive `ttlMs`
 * is not stored. Keys are the method and the params that shape the result.
 *
 * Whole lists may also be kept until they change (`keepList`), for a
 * server that promised to say when they do: every drop of a list's method
 * moves its generation on, so that a list whose walk a change overtook is
 * never kept.
 */
export class ResultCache {
  // Filed by method, so that a forced list drops its method's results in one step, not a scan of every key.
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly inflight = new Map<string, Observable<Result>>();
  private readonly lists = new Map<string, KeptList>();
  // Moved on by every drop of a method: a list read across a drop is not kept.
  private readonly generations = new Map<string, number>();

  /** The cache key of a request. */
  static key(method: string, params: Record<string, unknown> | undefined): string {
    // Most reads are a list's first page, without params: no serialising for those.
    return params === undefined ? `${method} {}` : `${method} ${JSON.stringify(params)}`;
  }

  /**
   * A fresh stored result, else the identical request already in flight,
   * else `load()` (shared with whoever asks the same while it runs). With
   * `bypass`, neither store nor flight is consulted.
   */
  fetch(key: string, load: () => Observable<Result>, bypass = false): Observable<Result> {
    return defer(() => {
      if (bypass) {
        this.drop(key);
        return load();
      }
      const entry = this.entries.get(methodOf(key))?.get(key);
      if (entry && Date.now() < entry.expiresAt) return of(entry.result);
      if (entry) this.drop(key);
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
      const method = methodOf(key);
      let kept = this.entries.get(method);
      if (!kept) this.entries.set(method, (kept = new Map()));
      kept.set(key, { result, expiresAt: Date.now() + ttlMs });
    }
  }

  /**
   * Keeps a whole list, assembled from pages, for as long as every one of its
   * pages is kept; if a page was not stored, neither is the list.
   */
  storeList(method: string, items: unknown[], pageKeys: readonly string[]): void {
    let expiresAt = Infinity;
    const kept = this.entries.get(method);
    for (const key of pageKeys) {
      const entry = kept?.get(key);
      if (!entry) return;
      expiresAt = Math.min(expiresAt, entry.expiresAt);
    }
    this.lists.set(method, { items, expiresAt, untilChanged: false });
  }

  /**
   * Where `method` stands: read it before a list's first page, and hand it
   * to `keepList` once the last page is in.
   */
  generation(method: string): number {
    let generation = this.generations.get(method);
    // Filed at the first read, so that clear() and dropKeptLists() move it on too (list methods are few).
    if (generation === undefined) this.generations.set(method, (generation = 0));
    return generation;
  }

  /**
   * Keeps a whole list until its method is dropped (a change notification,
   * a restart, a lost channel, a forced list), for a server that promised
   * to say when it changes; not if the method was dropped since
   * `generation` was read.
   */
  keepList(method: string, items: unknown[], generation: number): void {
    if (this.generation(method) === generation) this.lists.set(method, { items, expiresAt: Infinity, untilChanged: true });
  }

  /** Drops every list kept until it changes: what would say it changed may no longer arrive. */
  dropKeptLists(): void {
    for (const [method, kept] of this.lists) if (kept.untilChanged) this.lists.delete(method);
    // Nor is a list being read now.
    this.nextGenerations();
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
    this.entries.delete(method);
    this.generations.set(method, (this.generations.get(method) ?? 0) + 1);
  }

  /** Drops one stored result. */
  drop(key: string): void {
    this.entries.get(methodOf(key))?.delete(key);
  }

  /** Drops everything stored. */
  clear(): void {
    this.entries.clear();
    this.lists.clear();
    this.nextGenerations();
  }

  private nextGenerations(): void {
    for (const [method, generation] of this.generations) this.generations.set(method, generation + 1);
  }
}
