import { catchError, EMPTY, filter, map, NEVER, type Observable, share, startWith, switchMap, throttleTime } from 'rxjs';
import type { ListenFilter, McpClient } from 'rxmcp';

/**
 * The server's list-change notifications (their methods), for the lists it
 * promised to announce: one `listen` for them all, shared while any list
 * watches (refCount: a page of one modern server holds one
 * `subscriptions/listen` open, not one per list, since a browser allows
 * few connections to a host). A listen the server refuses announces
 * nothing: the lists stay as first listed.
 */
export function catalogueChanges(mcp: McpClient, wanted: ListenFilter): Observable<string> {
  if (Object.keys(wanted).length === 0) return NEVER;
  return mcp.listen(wanted).pipe(
    map((notification) => notification.method),
    catchError(() => EMPTY),
    share(),
  );
}

/**
 * A list, then the list again each time the server says it changed
 * (`method`, e.g. `notifications/tools/list_changed`). A flood of changes
 * lists at most four times a second, and a listing still running when the
 * next change comes is dropped for the new one.
 *
 * @param list lists once; `refresh` is true for a listing after a change, which must not come from a cache
 */
export function liveList<T>(changes: Observable<string>, method: string, list: (refresh: boolean) => Observable<T[]>): Observable<T[]> {
  return changes.pipe(
    filter((changed) => changed === method),
    throttleTime(250, undefined, { leading: true, trailing: true }),
    map(() => true),
    startWith(false),
    switchMap((refresh) => list(refresh)),
  );
}
