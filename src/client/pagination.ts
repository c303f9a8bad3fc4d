import { Observable, type Subscription } from 'rxjs';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { type ListLimits, ListWalk } from '../protocol/list-walk.js';

/**
 * Follows a list's `nextCursor` from page to page and gathers the items
 * under `key` into one array, in time linear in the items. A cursor the
 * server repeats, or a list past `limits`, is an `McpProtocolError`, not a
 * loop. Written out rather than as `expand` and `reduce`: every catalogue
 * read passes through here, most of them one page long. `gathered`, if
 * given, sees the whole list before it is emitted (the caller's bookkeeping,
 * without a stage of its own); if it throws, the list errors with that.
 */
export function allPages<T>(
  method: string,
  key: string,
  limits: ListLimits,
  page: (cursor?: string) => Observable<Record<string, unknown>>,
  gathered?: (items: T[]) => void,
): Observable<T[]> {
  return new Observable<T[]>((subscriber) => {
    const walk = new ListWalk(method, limits);
    const items: T[] = [];
    let current: Subscription | undefined;
    const done = (): void => {
      if (gathered) {
        try {
          gathered(items);
        } catch (error) {
          subscriber.error(error);
          return;
        }
      }
      subscriber.next(items);
      subscriber.complete();
    };
    const read = (cursor?: string): void => {
      let answered = false;
      const subscription = page(cursor).subscribe({
        next: (result) => {
          answered = true;
          const found = result[key];
          const next = result.nextCursor;
          try {
            // Catalogue pages arrive checked; tasks/list pages do not.
            if (!Array.isArray(found)) throw malformed(method, `${key}: expected an array`);
            if (next !== undefined && typeof next !== 'string') throw malformed(method, 'nextCursor: expected a string');
            walk.page(found.length, next);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          // One by one: a spread of a huge page would overflow the call stack.
          for (let i = 0; i < found.length; i++) items.push(found[i] as T);
          if (next === undefined) done();
          else read(next);
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

function malformed(method: string, problem: string): McpProtocolError {
  return new McpProtocolError(`malformed ${method} result: ${problem}`, undefined, { issues: [problem] }, method);
}
