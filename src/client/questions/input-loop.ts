import { forkJoin, map, Observable, of, Subscription, throwError } from 'rxjs';
import { McpInputLoopExceededError } from '../../errors/call-errors.js';
import { McpProtocolError } from '../../errors/protocol-errors.js';
import { resultTypeOf } from '../../protocol/shape.js';
import type { AskingServer, InputHooks } from '../../protocol/input-request.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { askHook, screenQuestion } from './input-hooks.js';

/** The methods a server may answer with `input_required`. */
export const INPUT_METHODS: readonly string[] = ['tools/call', 'resources/read', 'prompts/get'];

/** What the loop needs: a way to send one round, the hooks, and the budget. */
export interface InputLoop {
  method: string;
  /** Sends the original request again with this round's extra params; each send is a new JSON-RPC id. */
  send(extra: Record<string, unknown> | undefined): Observable<Record<string, unknown>>;
  hooks: InputHooks;
  maxInputRounds: number;
  warn(message: string): void;
  /** What the client declared: a sampling question with tools is declined unless it names `sampling.tools`. */
  declared?: ClientCapabilities;
  /** Who asks, as the hooks are told it (read at each question: a registry may set its prefix late). */
  server?(): AskingServer | undefined;
}

/**
 * Carries a request that answered `input_required` on to its final result.
 * Each round asks the hooks every question at once, then retries with the
 * answers keyed as the server keyed its questions and the server's
 * `requestState` echoed untouched (left out when the server sent none). No
 * questions means retry at once. After `maxInputRounds` retries it gives up
 * with `McpInputLoopExceededError`. Unsubscribing abandons the round in
 * flight, hooks included.
 */
export function continueInputLoop(loop: InputLoop, first: Record<string, unknown>): Observable<Record<string, unknown>> {
  return new Observable<Record<string, unknown>>((subscriber) => {
    const rounds = new Subscription();
    const fail = (error: unknown): void => subscriber.error(error);
    const handle = (result: Record<string, unknown>, retries: number): void => {
      if (resultTypeOf(result) !== 'input_required') {
        subscriber.next(result);
        subscriber.complete();
        return;
      }
      if (retries >= loop.maxInputRounds) {
        fail(new McpInputLoopExceededError(loop.method, retries));
        return;
      }
      const { requestState, inputRequests } = result;
      if (requestState !== undefined && typeof requestState !== 'string') {
        fail(new McpProtocolError(`${loop.method} sent a requestState that is not a string`, undefined, { requestState }, loop.method));
        return;
      }
      rounds.add(
        answerAll(loop, inputRequests).subscribe({
          next: (inputResponses) => {
            const extra = { ...(inputResponses === undefined ? {} : { inputResponses }), ...(requestState === undefined ? {} : { requestState }) };
            rounds.add(loop.send(extra).subscribe({ next: (next) => handle(next, retries + 1), error: fail }));
          },
          error: fail,
        }),
      );
    };
    handle(first, 0);
    return rounds;
  });
}

function answerAll(loop: InputLoop, inputRequests: unknown): Observable<Record<string, unknown> | undefined> {
  if (inputRequests === undefined) return of(undefined);
  if (typeof inputRequests !== 'object' || inputRequests === null || Array.isArray(inputRequests)) {
    return throwError(
      () => new McpProtocolError(`${loop.method} sent inputRequests that is not an object`, undefined, { inputRequests }, loop.method),
    );
  }
  const entries = Object.entries(inputRequests as Record<string, unknown>);
  if (entries.length === 0) return of({});
  return forkJoin(
    entries.map(([key, request]) => {
      const label = `input request ${JSON.stringify(key)}`;
      const screened = screenQuestion(typeof request === 'object' && request !== null ? request : {}, loop.declared);
      if (!screened.ok) {
        loop.warn(`declined ${label}: ${screened.reason}`);
        return of([key, undefined] as const);
      }
      return askHook(screened.request, loop.hooks, loop.warn, label, key, loop.server?.()).pipe(map((answer) => [key, answer] as const));
    }),
  ).pipe(
    // fromEntries defines each key: a server's "__proto__" stays a key, never the prototype.
    map((answers) => Object.fromEntries(answers.filter(([, answer]) => answer !== undefined))),
  );
}
