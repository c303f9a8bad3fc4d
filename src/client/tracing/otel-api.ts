// `@opentelemetry/api` is an optional peer: nothing here imports it
// statically, so the root entry loads (and bundles) without it. The first
// client that may trace asks for it with import(); until that resolves, and
// for good when it is not installed, tracing is off and costs a field read.
import type * as Otel from '@opentelemetry/api';

/** The OpenTelemetry API module, as loaded. */
export type OtelApi = typeof Otel;

let loaded: OtelApi | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/** The API once `loadOtelApi` has found it; `undefined` before, or when it is not installed. */
export function otelApi(): OtelApi | undefined {
  return loaded;
}

/**
 * Loads `@opentelemetry/api` once per process (every client shares the
 * attempt). Resolves to `undefined`, never rejects, when it is not installed.
 */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => (loaded = api),
    () => undefined,
  );
  return loading;
}

/**
 * `fn`, to be run later in the trace context active now: a call that waits
 * for the probe is sent from the answer's callback, whose context is not
 * the caller's. Without the API, `fn` itself.
 */
export function inCallerContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const api = loaded;
  return api === undefined ? fn : api.context.bind(api.context.active(), fn);
}
