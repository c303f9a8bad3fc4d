import { Observable, Subscription } from 'rxjs';
import type { z } from 'zod';
import { McpProtocolError, McpUnsupportedVersionError } from '../errors/protocol-errors.js';
import { unsupportedVersionData } from '../protocol/schemas.js';
import { ErrorCode } from '../protocol/versions.js';
import { buildRequest } from '../protocol/request.js';
import { checkResult, checkToolResult, resultTypeOf, stripBookkeeping } from '../protocol/shape.js';
import { isTaskHandle } from '../protocol/tasks.js';
import { CACHEABLE_METHODS, ResultCache } from './cache.js';
import type { Correlator } from './correlator.js';
import { continueInputLoop, INPUT_METHODS } from './input-loop.js';
import type { Settings } from './options.js';
import type { Session } from './session.js';

/**
 * Runs calls from request to shaped result: served from the cache or shared
 * with an identical call in flight when the method is cacheable; sent through
 * the correlator, with the input loop for the methods that may ask; checked
 * once as it arrives and kept for its `ttlMs` when a modern server allows it
 * (never after a retried round, whose answer depends on inputs outside the
 * key); and handed over without protocol bookkeeping.
 */
export class CallPipeline {
  constructor(
    private readonly correlator: Correlator,
    private readonly cache: ResultCache,
    private readonly settings: Settings,
  ) {}

  /**
   * One call; `refresh` bypasses (and drops) a cached copy. With
   * `acceptTask`, a `tools/call` answered with a task handle emits the handle
   * as the server sent it (never cached), for the caller to follow.
   */
  run<T>(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: z.ZodType,
    refresh = false,
    acceptTask = false,
  ): Observable<T> {
    const key = CACHEABLE_METHODS.includes(method) ? ResultCache.key(method, params) : undefined;
    // One exchange with the server, written out as a single Observable (every
    // call passes through it): the request, the input loop if the server asks
    // for input, and the result checked as it arrives (so that what the cache
    // keeps is checked) and stored when it may be.
    const exchange = (shape: (result: Record<string, unknown>) => Record<string, unknown>): Observable<Record<string, unknown>> =>
      new Observable<Record<string, unknown>>((subscriber) => {
        let retried = false;
        const send = (extra: Record<string, unknown> | undefined): Observable<Record<string, unknown>> => {
          const body = extra === undefined ? params : ((retried = true), { ...params, ...extra });
          return this.correlator.request(method, (id) => buildRequest(id, method, body, session.stamp, meta));
        };
        const fail = (error: unknown): void => subscriber.error(versionError(error));
        const deliver = (result: Record<string, unknown>): void => {
          if (acceptTask && isTaskHandle(result)) {
            subscriber.next(result);
            subscriber.complete();
            return;
          }
          let shaped: Record<string, unknown>;
          try {
            const checked = check(method, schema, finalResult(method, result));
            if (key !== undefined && !retried && session.description.era === 'modern') this.cache.store(key, checked);
            shaped = shape(checked);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.next(shaped);
          subscriber.complete();
        };
        const work = new Subscription();
        work.add(
          send(undefined).subscribe({
            next: (result) => {
              if (resultTypeOf(result) !== 'input_required' || !INPUT_METHODS.includes(method)) {
                deliver(result);
                return;
              }
              const { hooks, maxInputRounds, warn } = this.settings;
              work.add(continueInputLoop({ method, send, hooks, maxInputRounds, warn }, result).subscribe({ next: deliver, error: fail }));
            },
            error: fail,
          }),
        );
        return work;
      });
    if (key === undefined) return exchange(stripBookkeeping) as Observable<T>;
    return settle(
      this.cache.fetch(key, () => exchange((result) => result), refresh),
      (result) => stripBookkeeping(result) as T,
    );
  }
}

/**
 * `map` written out: the few stages every call passes through are plain
 * Observables, not operators. Errors arrive already translated by `exchange`.
 */
function settle<T, R>(source: Observable<T>, project: (value: T) => R): Observable<R> {
  return new Observable<R>((subscriber) =>
    source.subscribe({
      next: (value) => {
        let projected: R;
        try {
          projected = project(value);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        subscriber.next(projected);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}

// A tool result is checked by hand: it is the one result on the hot path of
// an agent loop, and its shape is small. The rest go through their schemas.
function check(method: string, schema: z.ZodType, result: Record<string, unknown>): Record<string, unknown> {
  return method === 'tools/call' ? checkToolResult(result) : checkResult<Record<string, unknown>>(method, schema, result);
}

// After the probe, "unsupported protocol version" means the server stopped
// speaking the version it agreed to: say so with the versions it names.
function versionError(error: unknown): unknown {
  if (!(error instanceof McpProtocolError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return error;
  const { supported, requested } = unsupportedVersionData(error.data);
  return new McpUnsupportedVersionError(supported, requested ? [requested] : [], error.message);
}

/** A result that is final, or an error saying why it is not. */
function finalResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const type = resultTypeOf(result);
  if (type === 'complete') return result;
  if (type === 'input_required') {
    throw new McpProtocolError(
      `${method} answered input_required, which only tools/call, resources/read and prompts/get may`,
      undefined,
      { resultType: type },
      method,
    );
  }
  throw new McpProtocolError(`${method} answered with unknown resultType ${JSON.stringify(type)}`, undefined, { resultType: type }, method);
}
