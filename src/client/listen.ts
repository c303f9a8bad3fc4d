import { catchError, EMPTY, filter, ignoreElements, merge, Observable, startWith, switchMap, throwError } from 'rxjs';
import { McpCapabilityError } from '../errors/capability-errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import { buildRequest, type Stamp } from '../protocol/request.js';
import type { ListenFilter } from '../protocol/types.js';
import { keysOf } from '../util/option-keys.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { messageOf } from '../util/values.js';
import type { CallStarter } from './calls/call-starter.js';
import { capabilityRefusal } from './capability-gate.js';
import type { Session } from './session.js';
import type { Correlator } from './correlator.js';
import { CALL_KEYS, type CallOptions } from './options.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const LISTEN_KEYS = keysOf<ListenFilter>({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: true });
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** What listening needs from the client. */
export interface ListenContext {
  notifications$: Observable<JsonRpcNotification>;
  request(method: string, build: (id: RequestId) => JsonRpcRequest): Observable<Record<string, unknown>>;
  warn(message: string): void;
}

/**
 * A modern `subscriptions/listen` stream: the request stays open while the
 * server pushes the notifications it asked for, each tagged with the
 * request's id as its subscription id. The acknowledgment is checked, not
 * passed on. Unsubscribing abandons the request (stdio sends
 * `notifications/cancelled`); the server ending it gracefully (answering the
 * request) completes the stream.
 */
export function listenModern(context: ListenContext, stamp: Stamp, wanted: ListenFilter): Observable<JsonRpcNotification> {
  return new Observable<JsonRpcNotification>((subscriber) => {
    let subscriptionId: RequestId | undefined;
    const notes = context.notifications$.subscribe({
      next: (note) => {
        const meta = note.params?._meta as Record<string, unknown> | undefined;
        if (subscriptionId === undefined || meta?.[SUBSCRIPTION_ID] !== subscriptionId) return;
        if (note.method === ACKNOWLEDGED) checkAcknowledged(context, wanted, note.params?.notifications);
        else subscriber.next(note);
      },
      error: () => undefined,
    });
    const open = context
      .request('subscriptions/listen', (id) => {
        subscriptionId = id;
        return buildRequest(id, 'subscriptions/listen', { notifications: wanted }, stamp);
      })
      .subscribe({ next: () => subscriber.complete(), error: (error: unknown) => subscriber.error(error) });
    return () => {
      open.unsubscribe();
      notes.unsubscribe();
    };
  });
}

function checkAcknowledged(context: ListenContext, wanted: ListenFilter, granted: unknown): void {
  const got = (typeof granted === 'object' && granted !== null ? granted : {}) as Record<string, unknown>;
  const grantedUris = Array.isArray(got.resourceSubscriptions) ? got.resourceSubscriptions : [];
  const refused: string[] = LEGACY_METHODS.map(([key]) => key).filter((key) => wanted[key] === true && got[key] !== true);
  for (const uri of wanted.resourceSubscriptions ?? []) if (!grantedUris.includes(uri)) refused.push(`updates of ${uri}`);
  if (refused.length > 0) context.warn(`the server will not send everything listen asked for: ${refused.join(', ')}`);
}

const LEGACY_METHODS: Array<[keyof ListenFilter, string]> = [
  ['toolsListChanged', 'notifications/tools/list_changed'],
  ['promptsListChanged', 'notifications/prompts/list_changed'],
  ['resourcesListChanged', 'notifications/resources/list_changed'],
];

/** Per-URI counts of `resources/subscribe`, so one listener leaving does not end another's updates. */
export class ResourceSubscriptions {
  private readonly counts = new Map<string, number>();

  /** Counts one more listener; true when it is the first, so the server must be asked. */
  add(uri: string): boolean {
    const count = (this.counts.get(uri) ?? 0) + 1;
    this.counts.set(uri, count);
    return count === 1;
  }

  /** Counts one listener less; true when it was the last, so the server may be told. */
  remove(uri: string): boolean {
    const count = (this.counts.get(uri) ?? 1) - 1;
    if (count > 0) this.counts.set(uri, count);
    else this.counts.delete(uri);
    return count <= 0;
  }
}

/**
 * The legacy form of `listen`: the session's own change notifications, and
 * `resources/subscribe` for the URIs asked for (unsubscribed when the last
 * listener for a URI leaves). Never completes on its own.
 */
export function listenLegacy(
  context: ListenContext,
  stamp: Stamp,
  wanted: ListenFilter,
  subscriptions: ResourceSubscriptions,
): Observable<JsonRpcNotification> {
  const methods = new Set(LEGACY_METHODS.filter(([key]) => wanted[key] === true).map(([, method]) => method));
  const uris = [...new Set(wanted.resourceSubscriptions ?? [])];
  const send = (method: string, uri: string): Observable<never> =>
    context.request(method, (id) => buildRequest(id, method, { uri }, stamp)).pipe(
      ignoreElements(),
      catchError((error: unknown) => {
        context.warn(`${method} ${JSON.stringify(uri)} failed: ${messageOf(error)}`);
        return EMPTY;
      }),
    );
  return new Observable<JsonRpcNotification>((subscriber) => {
    const notes = context.notifications$
      .pipe(
        filter(
          (note) =>
            methods.has(note.method) ||
            (note.method === 'notifications/resources/updated' && uris.includes(note.params?.uri as string)),
        ),
      )
      .subscribe(subscriber);
    const subscribing = merge(...uris.filter((uri) => subscriptions.add(uri)).map((uri) => send('resources/subscribe', uri))).subscribe();
    return () => {
      notes.unsubscribe();
      subscribing.unsubscribe();
      const leaving = uris.filter((uri) => subscriptions.remove(uri));
      if (leaving.length > 0) merge(...leaving.map((uri) => send('resources/unsubscribe', uri))).subscribe();
    };
  });
}


/**
 * Updates of resources need the server's `resources.subscribe`: without it,
 * a listen that names URIs fails before anything is sent, in either era (a
 * legacy server would be sent `resources/subscribe`; a modern one a
 * `subscriptions/listen` asking for `resourceSubscriptions`). The list
 * notifications need no gate: a server that never sends them sends nothing.
 */
function subscribeRefusal(session: Session, wanted: ListenFilter): McpCapabilityError | undefined {
  if (!wanted.resourceSubscriptions || wanted.resourceSubscriptions.length === 0) return undefined;
  const refused = capabilityRefusal(session, 'resources/subscribe');
  if (!refused || session.description.era === 'legacy') return refused;
  return new McpCapabilityError(refused.capability, 'subscriptions/listen');
}

/** What a `Listener` is built from: the client's streams and parts. */
export interface ListenerParts {
  notifications$: Observable<JsonRpcNotification>;
  correlator: Correlator;
  starter: CallStarter;
  warn(message: string): void;
  /** Whether the connection is between a crash and its next probe. */
  isRestarting(): boolean;
  /** The transport's restarts, for a transport that restarts. */
  restarts$: Observable<unknown> | undefined;
}

/** `McpClient#listen`: one stream of change notifications, in either era, opened again after each restart. */
export class Listener {
  private readonly subscriptions = new ResourceSubscriptions();
  private readonly context: ListenContext;

  constructor(private readonly parts: ListenerParts) {
    this.context = {
      notifications$: parts.notifications$,
      // A listener torn down by a restart has nothing to undo on the new
      // server, and must not send it requests before the new probe.
      request: (method, build) => (parts.isRestarting() ? EMPTY : parts.correlator.request(method, build)),
      warn: parts.warn,
    };
  }

  listen(wanted: ListenFilter, options: CallOptions): Observable<JsonRpcNotification> {
    refuseUnknown(wanted, LISTEN_KEYS);
    const open = this.parts.starter.run('subscriptions/listen', { timeoutMs: 0, ...options }, CALL_KEYS, (session) => {
      const refused = subscribeRefusal(session, wanted);
      if (refused) return throwError(() => refused);
      return session.description.era === 'modern'
        ? listenModern(this.context, session.stamp, wanted)
        : listenLegacy(this.context, session.stamp, wanted, this.subscriptions);
    });
    // After a restart the stream is opened again on the fresh server; the
    // restart is announced before the old request fails, so that failure
    // never reaches the subscriber.
    const { restarts$ } = this.parts;
    return restarts$ ? restarts$.pipe(startWith(undefined), switchMap(() => open)) : open;
  }
}
