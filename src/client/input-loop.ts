import { forkJoin, map, mergeMap, type Observable, of, throwError } from 'rxjs';
import { McpInputLoopExceededError } from '../errors/call-errors.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { resultTypeOf } from '../protocol/shape.js';
import { askHook, type InputHooks } from './input-hooks.js';

/** The methods a server may answer with `input_required`. */
export const INPUT_METHODS: readonly string[] = ['tools/call', 'resources/read', 'prompts/get'];

/** What the loop needs: a way to send one round, the hooks, and the budget. */
export interface InputLoop {
  method: string;
  /** Sends the original request once more, with this round's extra params; each send is a new JSON-RPC id. */
  send(extra: Record<string, unknown>): Observable<Record<string, unknown>>;
  hooks: InputHooks;
  maxInputRounds: number;
  warn(message: string): void;
}

/**
 * Runs a multi round-trip request to its final result. On `input_required`
 * it asks the hooks every question of the round at once, then retries with
 * the answers keyed as the server keyed its questions and the server's
 * `requestState` echoed untouched (left out when the server sent none). No
 * questions means retry at once. After `maxInputRounds` retries it gives up
 * with `McpInputLoopExceededError`. Unsubscribing abandons the round in
 * flight, hooks included.
 */
export function runInputLoop(loop: InputLoop): Observable<Record<string, unknown>> {
  const round = (retries: number, extra: Record<string, unknown>): Observable<Record<string, unknown>> =>
    loop.send(extra).pipe(
      mergeMap((result) => {
        if (resultTypeOf(result) !== 'input_required') return of(result);
        if (retries >= loop.maxInputRounds) return throwError(() => new McpInputLoopExceededError(loop.method, retries));
        const { requestState, inputRequests } = result;
        if (requestState !== undefined && typeof requestState !== 'string') {
          return throwError(() => new McpProtocolError(`${loop.method} sent a requestState that is not a string`, undefined, { requestState }, loop.method));
        }
        return answerAll(loop, inputRequests).pipe(
          mergeMap((inputResponses) =>
            round(retries + 1, {
              ...(inputResponses === undefined ? {} : { inputResponses }),
              ...(requestState === undefined ? {} : { requestState }),
            }),
          ),
        );
      }),
    );
  return round(0, {});
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
    entries.map(([key, request]) =>
      askHook(typeof request === 'object' && request !== null ? request : {}, loop.hooks, loop.warn, `input request ${JSON.stringify(key)}`).pipe(
        map((answer) => [key, answer] as const),
      ),
    ),
  ).pipe(
    map((answers) => {
      const responses: Record<string, unknown> = {};
      for (const [key, answer] of answers) if (answer !== undefined) responses[key] = answer;
      return responses;
    }),
  );
}
