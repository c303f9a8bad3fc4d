import { catchError, map, type Observable, tap, throwError } from 'rxjs';
import type { z } from 'zod';
import { McpProtocolError, McpUnsupportedVersionError } from '../errors/protocol-errors.js';
import { unsupportedVersionDataSchema } from '../protocol/schemas.js';
import { ErrorCode } from '../protocol/versions.js';
import { buildRequest } from '../protocol/request.js';
import { checkResult, resultTypeOf, stripBookkeeping } from '../protocol/shape.js';
import { CACHEABLE_METHODS, ResultCache } from './cache.js';
import type { Correlator } from './correlator.js';
import { INPUT_METHODS, runInputLoop } from './input-loop.js';
import type { Settings } from './options.js';
import type { Session } from './session.js';

/** One protocol call, as the client makes it. */
export interface Call {
  method: string;
  params: Record<string, unknown> | undefined;
  meta: Record<string, unknown> | undefined;
  /** The shape the final result must have. */
  schema: z.ZodType;
  /** Bypass (and drop) a cached copy. */
  refresh?: boolean;
}

/** What a call runs through. */
export interface Pipeline {
  correlator: Correlator;
  cache: ResultCache;
  settings: Settings;
}

/**
 * Runs one call from request to shaped result: served from the cache or
 * shared with an identical call in flight when the method is cacheable; sent
 * through the correlator, with the input loop for the methods that may ask;
 * kept for its `ttlMs` when a modern server allows it (never after a retried
 * round, whose answer depends on inputs outside the key); checked, and
 * stripped of protocol bookkeeping.
 */
export function runCall<T>(pipeline: Pipeline, session: Session, call: Call): Observable<T> {
  const { correlator, cache, settings } = pipeline;
  const { method, params, meta, schema } = call;
  const key = ResultCache.key(method, params);
  const load = (): Observable<Record<string, unknown>> => {
    let retried = false;
    const once = (extra: Record<string, unknown>): Observable<Record<string, unknown>> => {
      retried ||= Object.keys(extra).length > 0;
      return correlator.request(method, (id) => buildRequest(id, method, { ...params, ...extra }, session.stamp, meta));
    };
    const { hooks, maxInputRounds, warn } = settings;
    const answer = INPUT_METHODS.includes(method) ? runInputLoop({ method, send: once, hooks, maxInputRounds, warn }) : once({});
    return answer.pipe(
      tap((result) => {
        if (!retried && session.description.era === 'modern' && resultTypeOf(result) === 'complete') cache.store(key, result);
      }),
    );
  };
  const answer = CACHEABLE_METHODS.includes(method) ? cache.fetch(key, load, call.refresh) : load();
  return answer.pipe(
    map((result) => stripBookkeeping(checkResult<Record<string, unknown>>(method, schema, finalResult(method, result))) as T),
    catchError((error: unknown) => throwError(() => versionError(error))),
  );
}

// After the probe, "unsupported protocol version" means the server stopped
// speaking the version it agreed to: say so with the versions it names.
function versionError(error: unknown): unknown {
  if (!(error instanceof McpProtocolError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return error;
  const data = unsupportedVersionDataSchema.safeParse(error.data);
  const supported = data.success ? data.data.supported : [];
  return new McpUnsupportedVersionError(supported, data.success && data.data.requested ? [data.data.requested] : [], error.message);
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
