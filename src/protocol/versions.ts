/** The modern protocol revisions this client speaks, best first. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

/**
 * The handshake-era revisions this client accepts back from `initialize`. It
 * asks for the first; a server may answer with any of them.
 */
export const LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** The JSON-RPC error codes that only a modern server emits. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
