// A gateway served behind a `ToolSearch` gives each host a conversation of its own: the tools its
// searches load are its alone, and it is told (tools/list_changed) when they change. Hosts come and
// go, and a 2026-07-28 host has no session to end, so the conversations kept are bounded.
import { distinctUntilChanged, map, skip, type Subscription } from 'rxjs';
import type { ToolSearch } from '../providers/tool-search.js';

/** The most hosts whose loaded tools are kept; past it, the one heard from least recently starts afresh. */
export const MAX_HOST_SEARCHES = 1000;

/**
 * One `ToolSearch` fork per host principal, made on the host's first list or
 * call, forgotten with the host (or, past `MAX_HOST_SEARCHES`, the least
 * recently used first). `onChange` is told the principal whose set of loaded
 * tools changed (a tool joined or left: a call that only moves one to the
 * front is no change to the host's list).
 */
export class HostSearches {
  private readonly hosts = new Map<string, { search: ToolSearch; watching: Subscription }>();

  constructor(
    private readonly base: ToolSearch,
    private readonly onChange: (principal: string) => void,
  ) {}

  /** The host's own search, made now if it has none. */
  of(principal: string): ToolSearch {
    const known = this.hosts.get(principal);
    if (known) {
      // Kept in the order last used: a Map iterates in insertion order.
      this.hosts.delete(principal);
      this.hosts.set(principal, known);
      return known.search;
    }
    const search = this.base.fork();
    const watching = search.loaded$
      .pipe(
        map((names) => JSON.stringify([...names].sort())),
        distinctUntilChanged(),
        skip(1),
      )
      .subscribe(() => this.onChange(principal));
    this.hosts.set(principal, { search, watching });
    for (const [oldest] of this.hosts) {
      if (this.hosts.size <= MAX_HOST_SEARCHES) break;
      this.forget(oldest);
    }
    return search;
  }

  /** How many hosts have a search kept. */
  get size(): number {
    return this.hosts.size;
  }

  /** Forgets a host that went away, and what its searches loaded. */
  forget(principal: string): void {
    const known = this.hosts.get(principal);
    if (!known) return;
    known.watching.unsubscribe();
    this.hosts.delete(principal);
  }

  /** Forgets every host: the gateway closed. */
  close(): void {
    for (const principal of [...this.hosts.keys()]) this.forget(principal);
  }
}
