import type { TextMapGetter } from '@opentelemetry/api';
import { loadOtelApi } from '../client/tracing/otel-api.js';
import { isObject } from '../util/values.js';

// The trace context keys of `_meta` (2026-07-28 basic/index) a host's trace is
// continued from, each bounded: W3C caps tracestate at 512 characters, and a
// host may send anything. Not `baggage`: it is the host's own data, which the
// propagator would hand on to every upstream server the call reaches (and a
// span processor may copy into the gateway's telemetry); the gateway's
// application keeps its own baggage.
const TRACE_KEYS = ['traceparent', 'tracestate'] as const;
const MAX_VALUE_CHARS = 8192;

const GETTER: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (Object.hasOwn(carrier, key) ? carrier[key] : undefined),
};

/**
 * Runs a host's request in the trace its `_meta` continues (`traceparent`,
 * `tracestate`, read by the registered propagator; never the host's `baggage`), so that the
 * upstream calls it makes are children of the host's span: one trace from
 * the host to the upstream server. Without `@opentelemetry/api`, a
 * registered propagator or trace keys in `_meta`, `run` as it is.
 */
export async function inHostTrace<T>(meta: unknown, run: () => Promise<T>): Promise<T> {
  if (!isObject(meta)) return run();
  const carrier: Record<string, string> = {};
  let found = false;
  for (const key of TRACE_KEYS) {
    const value = meta[key];
    if (typeof value === 'string' && value.length <= MAX_VALUE_CHARS) {
      carrier[key] = value;
      found = true;
    }
  }
  const api = found ? await loadOtelApi() : undefined;
  if (api === undefined) return run();
  let context: ReturnType<typeof api.context.active>;
  try {
    context = api.propagation.extract(api.context.active(), carrier, GETTER);
  } catch {
    // The application's propagator broke: the call runs in a trace of its own.
    return run();
  }
  return api.context.with(context, run);
}
