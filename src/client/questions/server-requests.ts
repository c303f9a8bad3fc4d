import { catchError, filter, map, mergeMap, type Observable, of, race, type Subscription, take, takeUntil } from 'rxjs';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../../protocol/jsonrpc.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { ErrorCode } from '../../protocol/versions.js';
import type { AskingServer, InputHooks } from '../../protocol/input-request.js';
import { isObject, messageOf } from '../../util/values.js';
import { acceptsTaskFor, ClientSideTasks, isTaskMethod } from '../tasks/client-side-tasks.js';
import { askHook, capabilityFor, declaresElicitationMode, elicitationModeOf, screenQuestion } from './input-hooks.js';

/** What answering a legacy server's requests needs. */
export interface ServerRequestContext {
  requests$: Observable<JsonRpcRequest>;
  notifications$: Observable<JsonRpcNotification>;
  send(message: JsonRpcResponse): void;
  /** The hooks that answer this request: the client's own, or those of the call it belongs to. */
  hooksFor(request: JsonRpcRequest): InputHooks;
  declared: ClientCapabilities;
  warn(message: string): void;
  /** Who asks, as the hooks are told it. */
  server?(): AskingServer | undefined;
  /** Emits when the server was replaced (a restart): the tasks it made of its questions are forgotten. */
  restarts$?: Observable<unknown>;
  /** The id of the client's request whose response stream carried this one, when the wire says. */
  carrierOf?(request: JsonRpcRequest): RequestId | undefined;
  /** The ids of the client's requests given up before their answer. */
  abandoned$?: Observable<RequestId>;
}

/** The 2025-11-25 error for a sampling request the user turned down. */
const SAMPLING_REJECTED = -1;

/**
 * Answers the requests a legacy-era server sends: `ping` with `{}`;
 * `elicitation/create`, `sampling/createMessage` and `roots/list` through the
 * same hooks the modern input loop uses (the client's, or those of the call
 * the request belongs to: see `CallInputs`); anything else, or a question for
 * a capability the client did not declare, with an error rather than silence.
 * A request the server cancels (`notifications/cancelled`) stops its hook and
 * gets no answer. A question carried on the response stream of a call the
 * client then gives up (legacy Streamable HTTP) was about that call: its hook
 * is stopped too (a person is no longer asked), and the server is answered
 * `cancel` (an elicitation) or an error. Questions are served concurrently.
 */
export function serveServerRequests(context: ServerRequestContext): Subscription {
  const cancelled$ = context.notifications$.pipe(
    filter((notification) => notification.method === 'notifications/cancelled'),
    map((notification) => notification.params?.requestId),
  );
  // 2025-11-25 tasks: the questions the server made tasks of, when the client declared it takes them.
  const tasks = context.declared.tasks === undefined ? undefined : new ClientSideTasks(context.declared);
  const served = context.requests$
    .pipe(
      mergeMap((request) => {
        const asked = answer(request, context, tasks).pipe(takeUntil(cancelled$.pipe(filter((id) => id === request.id))));
        const carrier = context.carrierOf?.(request);
        if (carrier === undefined || !context.abandoned$) return asked;
        const givenUp = context.abandoned$.pipe(
          filter((id) => id === carrier),
          take(1),
          map(() => withdrawn(request)),
        );
        return race(asked, givenUp);
      }),
    )
    .subscribe({ next: (response) => context.send(response), error: () => undefined });
  if (tasks) {
    served.add(() => tasks.clear());
    if (context.restarts$) served.add(context.restarts$.subscribe({ next: () => tasks.clear(), error: () => undefined }));
  }
  return served;
}

// The answer to a question whose call the client gave up: nobody will answer it now.
function withdrawn({ id, method }: JsonRpcRequest): JsonRpcResponse {
  if (method === 'elicitation/create') return { jsonrpc: '2.0', id, result: { action: 'cancel' } };
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'The call this request belongs to was cancelled by the client' } };
}

function answer(request: JsonRpcRequest, context: ServerRequestContext, tasks: ClientSideTasks | undefined): Observable<JsonRpcResponse> {
  const { id, method } = request;
  const fail = (code: number, message: string): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } });
  if (method === 'ping') return of({ jsonrpc: '2.0', id, result: {} });
  if (tasks && isTaskMethod(method)) return tasks.serve(request);
  const capability = capabilityFor(method);
  if (capability === undefined) {
    context.warn(`the server asked for ${JSON.stringify(method)}, which this client does not serve`);
    return of(fail(ErrorCode.MethodNotFound, `Method not found: ${method}`));
  }
  if (context.declared[capability] === undefined) {
    context.warn(`the server asked for ${JSON.stringify(method)}, but the client did not declare ${capability}`);
    return of(fail(ErrorCode.MethodNotFound, `The client did not declare the ${capability} capability`));
  }
  if (method === 'elicitation/create') {
    // A mode the client never declared MUST be refused (2025-11-25 elicitation, "Error Handling"):
    // a URL question handed to a form hook would be accepted without the URL ever being shown.
    const mode = elicitationModeOf(request.params);
    if (mode === undefined || !declaresElicitationMode(context.declared, mode)) {
      context.warn(`the server asked for an elicitation in ${mode === undefined ? 'an unknown' : mode} mode, which the client did not declare`);
      return of(fail(ErrorCode.InvalidParams, `The client does not support elicitation in ${mode ?? 'this'} mode`));
    }
  }
  // A question made a task (2025-11-25 tasks) is answered with the task at
  // once, its hook running behind it; one the client did not declare it
  // takes as a task is answered as usual, its `task` ignored ("Task Support
  // and Handling"). The hook never sees the `task` member.
  const params = isObject(request.params) ? request.params : undefined;
  const asTask = tasks !== undefined && params !== undefined && Object.hasOwn(params, 'task') && acceptsTaskFor(context.declared, method);
  const { task, ...question } = params ?? {};
  const asked = params !== undefined && Object.hasOwn(params, 'task') ? { ...request, params: question } : request;
  // A sampling request with tools the client never declared, or past the
  // bounds, is refused before any hook sees it (2025-11-25 client/sampling,
  // "Tools in Sampling" and "Error Handling").
  const screened = screenQuestion(asked, context.declared);
  if (!screened.ok) {
    context.warn(`refused the server's ${method}: ${screened.reason}`);
    return of(fail(ErrorCode.InvalidParams, screened.reason));
  }
  const work = askHook(screened.request, context.hooksFor(request), context.warn, `server request ${JSON.stringify(method)}`, undefined, context.server?.()).pipe(
    map((result): JsonRpcResponse =>
      result === undefined ? fail(SAMPLING_REJECTED, 'User rejected sampling request') : { jsonrpc: '2.0', id, result },
    ),
    // An accepted answer that breaks the requestedSchema is never sent. The
    // server asked a fair question and the person did answer, so neither
    // -32602 (blaming the request) nor decline/cancel (saying the person
    // refused) would be true: the client failed to produce a valid answer.
    catchError((error: unknown) => of(fail(ErrorCode.InternalError, messageOf(error)))),
  );
  return asTask ? tasks.create(request, task, work) : work;
}
