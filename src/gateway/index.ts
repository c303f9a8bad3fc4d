// rxmcp/gateway: serves a tool provider stack as one MCP server (Node only).
// The official server SDK, an optional peer, is loaded on first serve; the
// package's root entry never reaches this folder.

export { Gateway } from './gateway.js';
export type { GatewayOptions, GatewayTimeouts } from './gateway.js';
export type { HttpGuardOptions } from './http-guard.js';
export { GATEWAY_URI_SCHEME } from './upstreams.js';
