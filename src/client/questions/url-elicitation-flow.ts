// A 2025-11-25 server may refuse a call with -32042 until a person has been
// to some pages (2025-11-25 client/elicitation, "URL Elicitation Required
// Error"). With onElicitUrl set, the client offers each page, waits for the
// server's word that each is done, and tries the call once more. The client
// never opens or fetches a page itself: the hook (the application) does.
import { concatMap, from, map, Observable, Subscription } from 'rxjs';
import { McpProtocolError, McpUrlElicitationRequiredError } from '../../errors/protocol-errors.js';
import type { InputHooks } from '../../protocol/input-request.js';
import type { ElicitationComplete } from '../streams.js';
import { readRequiredElicitations } from './elicitation-url.js';
import { askHook } from './input-hooks.js';

/** The JSON-RPC code of "URL elicitation required" (2025-11-25 only). */
export const URL_ELICITATION_REQUIRED = -32042;

/**
 * A 2025-11-25 error answer read for what it is: a `-32042` becomes
 * `McpUrlElicitationRequiredError` with its `elicitations` read and bounded
 * (see `readRequiredElicitations`); one whose list cannot be read fails
 * closed as a plain `McpProtocolError` (code -32042, the server's `data`
 * left out, the reason in the message) that nothing retries. Anything else
 * passes as it is.
 */
export function urlElicitationError(error: unknown): unknown {
  if (!(error instanceof McpProtocolError) || error.code !== URL_ELICITATION_REQUIRED || error instanceof McpUrlElicitationRequiredError) return error;
  const { method } = error;
  const read = readRequiredElicitations(error.data);
  if (!read.ok) return new McpProtocolError(`${method} failed: the server requires URL elicitation, but ${read.reason}`, URL_ELICITATION_REQUIRED, undefined, method);
  return new McpUrlElicitationRequiredError(error.message, read.elicitations, error.data, method);
}

/** What following one `-32042` needs. */
export interface UrlElicitationFlow {
  method: string;
  error: McpUrlElicitationRequiredError;
  hooks: InputHooks;
  /** `notifications/elicitation/complete`, read (see `elicitationCompleteOf`). */
  completes$: Observable<ElicitationComplete>;
  warn(message: string): void;
  /** Sends the call again as a new request. */
  retry(): Observable<Record<string, unknown>>;
}

/**
 * Offers each page of the error to `onElicitUrl`, in order (each URL checked
 * first: one that fails is declined without asking); once every one is
 * accepted and the server has said each is complete, retries the call once
 * and emits its answer. A page declined or cancelled fails with an
 * `McpUrlElicitationRequiredError` saying so; so does a second `-32042` on
 * the retry. Unsubscribing stops the hooks, the wait and the retry.
 */
export function followUrlElicitations(flow: UrlElicitationFlow): Observable<Record<string, unknown>> {
  return new Observable<Record<string, unknown>>((subscriber) => {
    const { error, method } = flow;
    const { elicitations } = error;
    const wanted = new Set(elicitations.map((entry) => entry.elicitationId));
    const completed = new Set<string>();
    const all = new Subscription();
    let accepted = false;
    let retried = false;
    const retryWhenDone = (): void => {
      if (!accepted || retried || completed.size < wanted.size) return;
      retried = true;
      all.add(
        flow.retry().subscribe({
          next: (result) => subscriber.next(result),
          error: (failure: unknown) => subscriber.error(onRetry(failure)),
          complete: () => subscriber.complete(),
        }),
      );
    };
    // Listening before the first page is offered: a server may say a page is
    // done before the hook has even answered, and that word must not be lost.
    all.add(
      flow.completes$.subscribe(({ elicitationId }) => {
        // Only ids of this error are kept (at most MAX_REQUIRED_ELICITATIONS); an unknown id changes nothing.
        if (!wanted.has(elicitationId)) return;
        completed.add(elicitationId);
        retryWhenDone();
      }),
    );
    all.add(
      from(elicitations)
        .pipe(
          concatMap((entry, index) =>
            askHook({ method: 'elicitation/create', params: { mode: 'url', ...entry } }, flow.hooks, flow.warn, `${method}'s required URL elicitation ${index}`).pipe(
              map((answer) => {
                const action = answer?.action;
                if (action !== 'accept') {
                  throw new McpUrlElicitationRequiredError(
                    `${method} needs URL elicitation ${JSON.stringify(entry.elicitationId)}, which was ${action === 'cancel' ? 'cancelled' : 'declined'}`,
                    elicitations,
                    error.data,
                    method,
                    { cause: error },
                  );
                }
              }),
            ),
          ),
        )
        .subscribe({
          error: (failure: unknown) => subscriber.error(failure),
          complete: () => {
            accepted = true;
            retryWhenDone();
          },
        }),
    );
    return all;
  });

  // The retry is the one retry: a second -32042 ends the call.
  function onRetry(failure: unknown): unknown {
    const read = urlElicitationError(failure);
    if (!(read instanceof McpUrlElicitationRequiredError)) return read;
    return new McpUrlElicitationRequiredError(
      `${flow.method} asked for URL elicitation again after its pages were completed; not retried twice`,
      read.elicitations,
      read.data,
      flow.method,
      { cause: read },
    );
  }
}
