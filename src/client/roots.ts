// Roots the client offers servers: the `roots` option (a list, or an
// Observable of lists), the checks every root passes before a server sees
// it (whichever hook gave it), and `notifications/roots/list_changed`.
import { filter, isObservable, type Observable, type Subscription } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { InputHook } from '../protocol/input-request.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { buildNotification } from '../protocol/request.js';
import type { ClientCapabilities, Root } from '../protocol/types.js';
import { quote } from '../util/quote.js';
import { isObject, messageOf } from '../util/values.js';
import type { Session } from './session.js';

/** The most roots one list may hold; a longer list is refused (the option) or cut short (a hook's answer). */
export const MAX_ROOTS = 1000;
/** The longest root URI, in UTF-16 code units. */
export const MAX_ROOT_URI_LENGTH = 4096;
/** The longest root name. */
export const MAX_ROOT_NAME_LENGTH = 1024;

// C0 and C1 controls, and the bidirectional overrides that make a name or
// path read differently on a terminal from what it is.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why a root may not be offered to a server, or `undefined` when it may.
 * The spec (2025-11-25 client/roots, "Data Types") wants `file://` URIs
 * only, and its "Security Considerations" want every root URI validated
 * against path traversal: so no other scheme, no `.` or `..` segment (plain
 * or percent-encoded), no encoded slash, no query or fragment, and no
 * control characters in the URI or the name.
 */
export function rootProblem(root: unknown): string | undefined {
  if (!isObject(root)) return 'is not an object';
  const uri = Object.hasOwn(root, 'uri') ? root.uri : undefined;
  if (typeof uri !== 'string') return 'has no uri string';
  if (uri.length > MAX_ROOT_URI_LENGTH) return `has a uri longer than ${MAX_ROOT_URI_LENGTH} characters`;
  if (CONTROL.test(uri)) return 'has control characters in its uri';
  if (!/^file:\/\//i.test(uri)) return 'is not a file:// URI (roots must be file:// URIs)';
  if (/[?#]/.test(uri)) return 'has a query or a fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a valid URI';
  }
  if (url.protocol !== 'file:') return 'is not a file:// URI (roots must be file:// URIs)';
  // The raw path, before URL resolves the dots away: a root must say plainly where it is.
  const path = uri.replace(/^file:\/\/[^/]*/i, '');
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'has a malformed percent-escape';
    }
    if (decoded === '.' || decoded === '..') return 'has a . or .. segment (path traversal)';
    if (/[/\\]/.test(decoded)) return 'has an encoded slash or backslash';
    if (CONTROL.test(decoded)) return 'has an encoded control character';
  }
  const name = Object.hasOwn(root, 'name') ? root.name : undefined;
  if (name !== undefined) {
    if (typeof name !== 'string') return 'has a name that is not a string';
    if (name.length > MAX_ROOT_NAME_LENGTH) return `has a name longer than ${MAX_ROOT_NAME_LENGTH} characters`;
    if (CONTROL.test(name)) return 'has control characters in its name';
  }
  const meta = Object.hasOwn(root, '_meta') ? root._meta : undefined;
  if (meta !== undefined && !isObject(meta)) return 'has a _meta that is not an object';
  return undefined;
}

/** A checked root copied from its own keys, so that the caller changing its object later changes nothing offered. */
function copyRoot(root: Record<string, unknown>): Root {
  const copy: Root = { uri: root.uri as string };
  if (root.name !== undefined) copy.name = root.name as string;
  if (root._meta !== undefined) copy._meta = JSON.parse(JSON.stringify(root._meta)) as Root['_meta'];
  return copy;
}

/**
 * Checks a list of roots the user gave (the `roots` option, or one list of
 * its Observable) and copies it.
 *
 * @throws McpClientError naming the first root refused, or a list too long.
 */
export function checkRoots(list: unknown, label: string): Root[] {
  if (!Array.isArray(list)) throw new McpClientError(`${label} must be a list of roots ({ uri: 'file://…', name? })`);
  if (list.length > MAX_ROOTS) throw new McpClientError(`${label} holds ${list.length} roots; at most ${MAX_ROOTS} may be offered`);
  return list.map((root: unknown, index) => {
    const problem = rootProblem(root);
    if (problem === undefined) {
      try {
        return copyRoot(root as Record<string, unknown>);
      } catch (error) {
        throw new McpClientError(`${label}: root ${index} has a _meta that is not JSON data (${messageOf(error)})`);
      }
    }
    const uri = isObject(root) && Object.hasOwn(root, 'uri') ? ` ${quote(root.uri)}` : '';
    throw new McpClientError(`${label}: root ${index}${uri} ${problem}`);
  });
}

/**
 * A hook's `roots/list` answer with only the roots that may be offered: a
 * root that fails `rootProblem` is left out (one warning says how many and
 * why the first was), and a list longer than `MAX_ROOTS` is cut short. The
 * rest of the answer is kept. Leaving out rather than declining the whole
 * answer keeps the server working in the roots that are fine.
 */
export function keepOfferableRoots(answer: Record<string, unknown>, warn: (message: string) => void): Record<string, unknown> {
  const given = Array.isArray(answer.roots) ? (answer.roots as unknown[]) : [];
  const kept: Root[] = [];
  let refused = 0;
  let first = '';
  for (const root of given) {
    if (kept.length === MAX_ROOTS) break;
    const problem = rootProblem(root);
    let copy: Root | undefined;
    try {
      copy = problem === undefined ? copyRoot(root as Record<string, unknown>) : undefined;
    } catch {
      copy = undefined;
    }
    if (copy) kept.push(copy);
    else {
      refused += 1;
      first ||= `${isObject(root) ? quote(root.uri) : quote(root)} ${problem ?? 'has a _meta that is not JSON data'}`;
    }
  }
  if (refused > 0) warn(`left out ${refused} root(s) onListRoots gave; the first: ${first}`);
  if (given.length > kept.length + refused) warn(`offered the first ${MAX_ROOTS} of the ${given.length} roots onListRoots gave`);
  return { ...answer, roots: kept };
}

/**
 * The `roots` option, resolved: the hook that answers `roots/list` with the
 * latest list, and for an Observable, the lists it will bring.
 *
 * @throws McpClientError for a list with a root that may not be offered, a
 * value that is neither a list nor an Observable, or `roots` set beside
 * `onListRoots` (both would answer the same question).
 */
export class RootsOption {
  /** Answers `roots/list` with the latest list: `[]` until an Observable's first one. */
  readonly onListRoots: InputHook = () => ({ roots: this.latest });
  /** The lists an Observable `roots` brings; `undefined` for a fixed list. */
  readonly lists$: Observable<unknown> | undefined;
  private latest: readonly Root[] = [];
  private latestText = '[]';

  constructor(option: unknown, onListRoots: unknown) {
    if (onListRoots !== undefined) {
      throw new McpClientError('options roots and onListRoots both answer roots/list: set one (onListRoots with notifyRootsChanged(), or roots)');
    }
    if (isObservable(option)) this.lists$ = option;
    else this.offer(checkRoots(option, 'option roots'));
  }

  /**
   * Offers a new list from the Observable: `true` when it differs from the
   * one offered, `false` when it is the same or was refused (then the
   * previous list stays, and `warn` says why).
   */
  update(list: unknown, warn: (message: string) => void): boolean {
    let checked: Root[];
    try {
      checked = checkRoots(list, 'a list from option roots');
    } catch (error) {
      warn(`${messageOf(error)}; the previous list stays offered`);
      return false;
    }
    const text = JSON.stringify(checked);
    if (text === this.latestText) return false;
    this.offer(checked, text);
    return true;
  }

  private offer(list: Root[], text = JSON.stringify(list)): void {
    this.latest = Object.freeze(list);
    this.latestText = text;
  }
}

/** What telling servers about changed roots needs from the client. */
export interface RootsContext {
  option: RootsOption | undefined;
  declared: ClientCapabilities;
  /** The session once the era is known; `undefined` before the handshake and after a restart. */
  session(): Session | undefined;
  send(message: JsonRpcNotification): void;
  serverRequests$: Observable<JsonRpcRequest>;
  warn(message: string): void;
}

/**
 * Tells a 2025-11-25 server its roots changed (2025-11-25 client/roots,
 * "Root List Changes"), when the client declared `roots.listChanged`:
 *
 * - before the handshake there is nothing to send: the server asks for the
 *   roots once it is initialized, and gets the latest list;
 * - a 2026-07-28 server is never told: that revision removed the
 *   notification, and a server asks for roots inside each request's
 *   `input_required` round, so the next one gets the latest list;
 * - at most one notification is unanswered per session: once one is sent,
 *   the next change is announced only after the server has asked for the
 *   roots again (its answer carries every change up to then). A flood of
 *   changes thus sends one notification per `roots/list` the server makes,
 *   plus one.
 */
export class ClientRoots {
  private announcedTo: Session | undefined = undefined;
  private watchingReads: Subscription | undefined = undefined;
  private readonly lists: Subscription | undefined;

  constructor(private readonly context: RootsContext) {
    const { option, warn } = context;
    this.lists = option?.lists$?.subscribe({
      next: (list) => {
        if (option.update(list, warn)) this.announce();
      },
      error: (error: unknown) => warn(`option roots failed: ${messageOf(error)}; the last list stays offered`),
    });
  }

  /** See `McpClient.notifyRootsChanged`. */
  announce(): void {
    const { declared, session, send } = this.context;
    const current = session();
    if (!isObject(declared.roots) || declared.roots.listChanged !== true) return;
    if (current?.description.era !== 'legacy' || this.announcedTo === current) return;
    // Watched from the first announcement on: the connection is up by then,
    // so subscribing starts nothing; before it nothing is pending anyway.
    this.watchingReads ??= this.context.serverRequests$
      .pipe(filter((request) => request.method === 'roots/list'))
      .subscribe({ next: () => (this.announcedTo = undefined), error: () => undefined });
    this.announcedTo = current;
    send(buildNotification('notifications/roots/list_changed'));
  }

  /** Stops following the Observable (on `close()`). */
  stop(): void {
    this.lists?.unsubscribe();
    this.watchingReads?.unsubscribe();
  }
}
