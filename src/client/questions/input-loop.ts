import { Observable, of, Subscription, throwError } from 'rxjs';
import { McpInputLoopExceededError } from '../../errors/call-errors.js';
import { McpProtocolError } from '../../errors/protocol-errors.js';
import { resultTypeOf } from '../../protocol/shape.js';
import { type Answering, answerInputRequests } from './input-hooks.js';

/** The methods a server may answer with `input_required`. */
export const INPUT_METHODS: readonly string[] = ['tools/call', 'resources/read', 'prompts/get'];

/** What the loop needs: a way to send one round, who answers (the hooks; `server` is read at each question, as a registry may set its prefix late), and the budget. */
export interface InputLoop extends Answering {
  method: string;
  /** Sends the original request again with this round's extra params; each send is a new JSON-RPC id. */
  send(extra: Record<string, unknown> | undefined): Observable<Record<string, unknown>>;
  maxInputRounds: number;
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
  return answerInputRequests(Object.entries(inputRequests as Record<string, unknown>), loop, (key) => `input request ${JSON.stringify(key)}`);
}
