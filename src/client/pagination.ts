import { Observable, type Subscription } from 'rxjs';
import { McpProtocolError } from '../errors/protocol-errors.js';

/**
 * Follows a list's `nextCursor` from page to page and gathers the items
 * under `key` into one array. A cursor the server repeats is an error, not a
 * loop. Written out rather than as `expand` and `reduce`: every catalogue
 * read passes through here, most of them one page long.
 */
export function allPages<T>(method: string, key: string, page: (cursor?: string) => Observable<Record<string, unknown>>): Observable<T[]> {
  return new Observable<T[]>((subscriber) => {
    const seen = new Set<string>();
    let items: T[] = [];
    let current: Subscription | undefined;
    const done = (): void => {
      subscriber.next(items);
      subscriber.complete();
    };
    const read = (cursor?: string): void => {
      let answered = false;
      const subscription = page(cursor).subscribe({
        next: (result) => {
          answered = true;
          items = items.concat(result[key] as T[]);
          const next = result.nextCursor as string | undefined;
          if (next === undefined) {
            done();
          } else if (seen.has(next)) {
            subscriber.error(new McpProtocolError(`${method} repeated the cursor ${JSON.stringify(next)}`, undefined, { cursor: next }, method));
          } else {
            seen.add(next);
            read(next);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        // A page that ends without an answer ends the list where it is.
        complete: () => {
          if (!answered) done();
        },
      });
      // A page answered at once (from the cache) has already handed over to the next.
      if (!answered) current = subscription;
    };
    read();
    return () => current?.unsubscribe();
  });
}
