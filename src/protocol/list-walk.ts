import { McpProtocolError } from '../errors/protocol-errors.js';
import { quote } from '../util/quote.js';

/** How far a list may run: every list the client reads, page by page, stays within these. */
export interface ListLimits {
  /** The most pages one list may take (default 1000). */
  maxListPages: number;
  /** The most items one list may hold, all pages together (default 100000). */
  maxListItems: number;
}

/** Generous enough for any real catalogue, small enough that a server cannot grow the client without end. */
export const DEFAULT_LIST_LIMITS: Readonly<ListLimits> = { maxListPages: 1000, maxListItems: 100_000 };

/**
 * The bounds of one list as it is read page by page: a cursor the server
 * repeats, a page past `maxListPages` or an item past `maxListItems` is an
 * `McpProtocolError` naming the method and the limit, not a loop or a client
 * grown without end. One per list read.
 */
export class ListWalk {
  // Made with the first cursor: most lists are one page long and never need it.
  private seen: Set<string> | undefined;
  private pages = 0;
  private items = 0;

  constructor(
    private readonly method: string,
    private readonly limits: ListLimits,
  ) {}

  /**
   * Counts a page of `count` items that points on to `next` (or ends the
   * list), before its items are kept.
   *
   * @throws McpProtocolError when the page breaks a bound.
   */
  page(count: number, next: string | undefined): void {
    const { method, limits } = this;
    this.pages++;
    this.items += count;
    if (this.items > limits.maxListItems) {
      throw new McpProtocolError(`${method} has more than ${limits.maxListItems} items (maxListItems)`, undefined, { maxListItems: limits.maxListItems }, method);
    }
    if (next === undefined) return;
    if (this.seen?.has(next)) throw new McpProtocolError(`${method} repeated the cursor ${quote(next)}`, undefined, { cursor: next }, method);
    if (this.pages >= limits.maxListPages) {
      throw new McpProtocolError(`${method} has more than ${limits.maxListPages} pages (maxListPages)`, undefined, { maxListPages: limits.maxListPages }, method);
    }
    (this.seen ??= new Set()).add(next);
  }
}
