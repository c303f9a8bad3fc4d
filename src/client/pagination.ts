import { EMPTY, expand, type Observable, reduce, throwError } from 'rxjs';
import { McpProtocolError } from '../errors/protocol-errors.js';

/**
 * Follows a list's `nextCursor` from page to page and gathers the items
 * under `key` into one array. A cursor the server repeats is an error, not a
 * loop.
 */
export function allPages<T>(method: string, key: string, page: (cursor?: string) => Observable<Record<string, unknown>>): Observable<T[]> {
  const seen = new Set<string>();
  return page().pipe(
    expand((result) => {
      const next = result.nextCursor as string | undefined;
      if (next === undefined) return EMPTY;
      if (seen.has(next)) {
        return throwError(() => new McpProtocolError(`${method} repeated the cursor ${JSON.stringify(next)}`, undefined, { cursor: next }, method));
      }
      seen.add(next);
      return page(next);
    }),
    reduce((all: T[], result) => all.concat(result[key] as T[]), []),
  );
}
