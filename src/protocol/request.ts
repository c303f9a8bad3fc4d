import type { JsonRpcNotification, JsonRpcRequest, RequestId } from './jsonrpc.js';
import type { ClientCapabilities, Era, Implementation, LoggingLevel } from './types.js';

/** The per-connection facts every request is stamped with. */
export interface Stamp {
  era: Era;
  protocolVersion: string;
  clientInfo: Implementation;
  clientCapabilities: ClientCapabilities;
  /** The least severe log messages wanted, if any. */
  logLevel?: LoggingLevel;
}

const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/**
 * Builds a request. A modern request carries the protocol version, client
 * identity and capabilities in `params._meta`; a legacy one settled those in
 * the handshake and carries only the caller's own `_meta` keys. The caller's
 * keys never override the protocol's.
 */
export function buildRequest(
  id: RequestId,
  method: string,
  params: Record<string, unknown> | undefined,
  stamp: Stamp | undefined,
  meta?: Record<string, unknown>,
): JsonRpcRequest {
  const stamped = stamp?.era === 'modern' ? protocolMeta(stamp) : undefined;
  const merged = meta === undefined ? stamped : stamped === undefined ? meta : { ...meta, ...stamped };
  const body = merged === undefined ? params : withMeta(params, merged);
  return body === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: body };
}

// `{ ...params, _meta }`, keys in the same order, built key by key: V8 clones
// a spread object at its exact size and then grows it for `_meta`, about 200
// bytes more per request than this, every call. An own `__proto__` key (from
// parsed JSON) stays an own property, as a spread keeps it, never a prototype.
function withMeta(params: Record<string, unknown> | undefined, meta: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    if (key === '__proto__') Object.defineProperty(body, key, { value: params[key], enumerable: true, writable: true, configurable: true });
    else body[key] = params[key];
  }
  body._meta = meta;
  return body;
}

// The protocol's _meta keys are the same for every request of a session:
// built once per stamp and shared (never mutated).
const stampedMeta = new WeakMap<Stamp, Record<string, unknown>>();

function protocolMeta(stamp: Stamp): Record<string, unknown> {
  let meta = stampedMeta.get(stamp);
  if (!meta) {
    meta = {
      [META.protocolVersion]: stamp.protocolVersion,
      [META.clientInfo]: stamp.clientInfo,
      [META.clientCapabilities]: stamp.clientCapabilities,
      ...(stamp.logLevel ? { [META.logLevel]: stamp.logLevel } : {}),
    };
    stampedMeta.set(stamp, meta);
  }
  return meta;
}

/** Builds a notification. */
export function buildNotification(method: string, params?: Record<string, unknown>): JsonRpcNotification {
  return params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method };
}

/** The notification that abandons a request (both eras spell it the same way). */
export function cancelledNotification(requestId: RequestId, reason?: string): JsonRpcNotification {
  return buildNotification('notifications/cancelled', reason ? { requestId, reason } : { requestId });
}
