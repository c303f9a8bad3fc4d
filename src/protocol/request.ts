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
  const body: Record<string, unknown> = { ...params };
  const merged: Record<string, unknown> = { ...meta };
  if (stamp?.era === 'modern') {
    merged[META.protocolVersion] = stamp.protocolVersion;
    merged[META.clientInfo] = stamp.clientInfo;
    merged[META.clientCapabilities] = stamp.clientCapabilities;
    if (stamp.logLevel) merged[META.logLevel] = stamp.logLevel;
  }
  if (Object.keys(merged).length > 0) body._meta = merged;
  return Object.keys(body).length > 0 ? { jsonrpc: '2.0', id, method, params: body } : { jsonrpc: '2.0', id, method };
}

/** Builds a notification. */
export function buildNotification(method: string, params?: Record<string, unknown>): JsonRpcNotification {
  return params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method };
}

/** The notification that abandons a request (both eras spell it the same way). */
export function cancelledNotification(requestId: RequestId, reason?: string): JsonRpcNotification {
  return buildNotification('notifications/cancelled', reason ? { requestId, reason } : { requestId });
}
