import { filter, map, type Observable, type Subscription } from 'rxjs';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { LogMessage, ProgressEvent, ToolProgress } from '../protocol/types.js';
import { ResultCache } from './cache.js';
import { messageOf } from '../util/values.js';
import { isElicitationId } from './questions/elicitation-url.js';

/** The progress reports among the notifications. */
export function progressOf(notifications$: Observable<JsonRpcNotification>): Observable<ProgressEvent> {
  return notifications$.pipe(
    filter((note) => note.method === 'notifications/progress'),
    map((note) => note.params ?? {}),
    filter(
      (params) =>
        (typeof params.progressToken === 'string' || typeof params.progressToken === 'number') &&
        typeof params.progress === 'number',
    ),
    map((params) => {
      const event: ProgressEvent = { progressToken: params.progressToken as string | number, progress: params.progress as number };
      if (typeof params.total === 'number') event.total = params.total;
      if (typeof params.message === 'string') event.message = params.message;
      return event;
    }),
  );
}

/** The log messages among the notifications. */
export function logOf(notifications$: Observable<JsonRpcNotification>): Observable<LogMessage> {
  return notifications$.pipe(
    filter((note) => note.method === 'notifications/message' && typeof note.params?.level === 'string'),
    map((note) => {
      const params = note.params as Record<string, unknown>;
      const message: LogMessage = { level: params.level as LogMessage['level'], data: params.data };
      if (typeof params.logger === 'string') message.logger = params.logger;
      return message;
    }),
  );
}

/** A 2025-11-25 server's word that a person finished the page of one URL elicitation. */
export interface ElicitationComplete {
  elicitationId: string;
}

/**
 * The `notifications/elicitation/complete` among the notifications, each as
 * `{ elicitationId }`. One without a readable id (a string of at most
 * `MAX_ELICITATION_ID_CHARS`) is dropped: it could name no elicitation.
 */
export function elicitationCompleteOf(notifications$: Observable<JsonRpcNotification>): Observable<ElicitationComplete> {
  return notifications$.pipe(
    filter((note) => note.method === 'notifications/elicitation/complete'),
    map((note) => (note.params !== undefined && Object.hasOwn(note.params, 'elicitationId') ? note.params.elicitationId : undefined)),
    filter(isElicitationId),
    map((elicitationId) => ({ elicitationId })),
  );
}

/**
 * Progress tokens the client minted for tool calls, each mapped to the
 * model's tool-call id while its call runs. A report quoting a token that is
 * not (or no longer) here is somebody else's, or late, and is not attributed.
 */
export class ProgressTokens {
  private readonly live = new Map<string, string>();
  private next = 1;

  /** A fresh token, attributed to `toolCallId` when there is one. */
  mint(toolCallId: string | undefined): string {
    const token = `rxmcp-progress-${this.next++}`;
    if (toolCallId !== undefined) this.live.set(token, toolCallId);
    return token;
  }

  /** Forgets a token once its call has ended. */
  release(token: string): void {
    this.live.delete(token);
  }

  /** The tool-call id a report belongs to, if its token is live. */
  owner(token: string | number): string | undefined {
    return typeof token === 'string' ? this.live.get(token) : undefined;
  }
}

/** What the notification watcher feeds. */
export interface WatchContext {
  notifications$: Observable<JsonRpcNotification>;
  cache: ResultCache;
  tokens: ProgressTokens;
  onLog?: (message: LogMessage) => void;
  onProgress?: (progress: ToolProgress) => void;
  warn(message: string): void;
}

const LIST_CHANGED: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

/**
 * One subscription that acts on notifications for the client: it drops
 * cache entries a change notification makes stale, and calls `onLog` and
 * `onProgress`. A hook that throws is reported, and the watch goes on.
 */
export function watchNotifications(context: WatchContext): Subscription {
  const { notifications$, cache, tokens, onLog, onProgress, warn } = context;
  const guarded = <T>(name: string, hook: ((value: T) => void) | undefined) => (value: T) => {
    try {
      hook?.(value);
    } catch (error) {
      warn(`${name} threw: ${messageOf(error)}`);
    }
  };
  const subscription = notifications$.subscribe({
    next: (note) => {
      // Own keys only: a notification named "constructor" must not reach Object's members.
      const changed = Object.hasOwn(LIST_CHANGED, note.method) ? LIST_CHANGED[note.method] : undefined;
      for (const method of changed ?? []) cache.dropMethod(method);
      if (note.method === 'notifications/resources/updated' && typeof note.params?.uri === 'string') {
        cache.drop(ResultCache.key('resources/read', { uri: note.params.uri }));
      }
    },
    error: () => undefined,
  });
  if (onLog) subscription.add(logOf(notifications$).subscribe({ next: guarded('onLog', onLog), error: () => undefined }));
  if (onProgress) {
    const report = guarded('onProgress', onProgress);
    subscription.add(
      progressOf(notifications$).subscribe({
        next: ({ progressToken, ...rest }) => {
          const toolCallId = tokens.owner(progressToken);
          if (toolCallId !== undefined) report({ toolCallId, ...rest });
        },
        error: () => undefined,
      }),
    );
  }
  return subscription;
}
