import { Observable, type Observer, type Subscriber, type Unsubscribable } from 'rxjs';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { type ListLimits, ListWalk } from '../protocol/list-walk.js';

type Page = Record<string, unknown>;

/**
 * Asks for the page at `cursor` (the first page when `undefined`) and reports
 * its answer to `observer`: a result, then completion, or an error. Returns
 * what abandons the page.
 */
export type PageSource = (cursor: string | undefined, observer: Observer<Page>) => Unsubscribable;

/**
 * Follows a list's `nextCursor` from page to page and gathers the items
 * under `key` into one array, in time linear in the items. A cursor the
 * server repeats, or a list past `limits`, is an `McpProtocolError`, not a
 * loop. `gathered`, if given, sees the whole list before it is emitted (the
 * caller's bookkeeping, without a stage of its own); if it throws, the list
 * errors with that.
 */
export function allPages<T>(
  method: string,
  key: string,
  limits: ListLimits,
  page: (cursor?: string) => Observable<Page>,
  gathered?: (items: T[]) => void,
): Observable<T[]> {
  return new Observable<T[]>((subscriber) => walkPages(subscriber, method, key, limits, (cursor, observer) => page(cursor).subscribe(observer), gathered));
}

/**
 * `allPages` begun at once for `subscriber`, with pages asked of `source`
 * rather than subscribed to as Observables; returns what ends the walk.
 * Every catalogue read passes through here, most of them one page long, and
 * a forced read runs it on every call: the walk and each page's answer are
 * one object each, with no Observable, subscriber or closure of their own
 * in between (each of those is code the engine compiles again for the list
 * path, and a process that lists a few thousand times pays for that
 * compilation in its timed CPU).
 */
export function walkPages<T>(
  subscriber: Subscriber<T[]>,
  method: string,
  key: string,
  limits: ListLimits,
  source: PageSource,
  gathered?: (items: T[]) => void,
): Unsubscribable {
  return new PageWalk<T>(subscriber, method, key, source, gathered, new ListWalk(method, limits)).start();
}

class PageWalk<T> implements Unsubscribable {
  private readonly items: T[] = [];
  private current: Unsubscribable | undefined;

  constructor(
    private readonly subscriber: Subscriber<T[]>,
    private readonly method: string,
    private readonly key: string,
    private readonly source: PageSource,
    private readonly gathered: ((items: T[]) => void) | undefined,
    private readonly walk: ListWalk,
  ) {}

  start(): this {
    this.read(undefined);
    return this;
  }

  unsubscribe(): void {
    this.current?.unsubscribe();
  }

  /** A page's result: its items kept, then the next page asked for or the list handed over. */
  take(result: Page): void {
    const { method, key } = this;
    const found = result[key];
    const next = result.nextCursor;
    try {
      // Catalogue pages arrive checked; tasks/list pages do not.
      if (!Array.isArray(found)) throw malformed(method, `${key}: expected an array`);
      if (next !== undefined && typeof next !== 'string') throw malformed(method, 'nextCursor: expected a string');
      this.walk.page(found.length, next);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    // One by one: a spread of a huge page would overflow the call stack.
    const { items } = this;
    for (let i = 0; i < found.length; i++) items.push(found[i] as T);
    if (next === undefined) this.done();
    else this.read(next);
  }

  fail(error: unknown): void {
    this.subscriber.error(error);
  }

  done(): void {
    const { gathered, items, subscriber } = this;
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
  }

  private read(cursor: string | undefined): void {
    const answer = new PageAnswer(this);
    let asked: Unsubscribable;
    try {
      asked = this.source(cursor, answer);
    } catch (error) {
      // A page that could not be asked for ends the list with why, not the caller that answered the page before.
      this.subscriber.error(error);
      return;
    }
    // A page answered at once (from the cache) has already handed over to the next.
    if (!answer.answered) this.current = asked;
  }
}

// What one page's answer goes to.
class PageAnswer implements Observer<Page> {
  answered = false;

  constructor(private readonly walk: { take(result: Page): void; fail(error: unknown): void; done(): void }) {}

  next(result: Page): void {
    this.answered = true;
    this.walk.take(result);
  }

  error(error: unknown): void {
    this.walk.fail(error);
  }

  // A page that ends without an answer ends the list where it is.
  complete(): void {
    if (!this.answered) this.walk.done();
  }
}

function malformed(method: string, problem: string): McpProtocolError {
  return new McpProtocolError(`malformed ${method} result: ${problem}`, undefined, { issues: [problem] }, method);
}
