import type { AuthOptions } from '../auth/auth-options.js';
import type { ReconnectOptions } from './reconnect-backoff.js';
import type { FetchLike } from '../http/fetch-like.js';
import { keysOf } from '../util/option-keys.js';

/** Which HTTP transport a server speaks: found out by trying (`auto`), or named. */
export type HttpTransportKind = 'auto' | 'streamable-http' | 'sse';

/** How to reach an MCP server over HTTP. */
export interface HttpTransportOptions {
  /**
   * The MCP endpoint, such as `https://tools.example.com/mcp`. A redirect is
   * followed only within its origin (scheme, host and port), and the URL it
   * leads to is used from then on.
   */
  url: string;
  /** Headers for every request, such as static credentials. They cannot replace the protocol's own headers. */
  headers?: Readonly<Record<string, string>>;
  /**
   * A fetch implementation (a browser's, undici's, a test double); by default
   * rxmcp's own requests over node:http on Node (loaded on first use), the
   * platform's global `fetch` elsewhere. It is called with `redirect: 'manual'` and must hand
   * redirects back rather than follow them.
   */
  fetch?: FetchLike;
  /** How long to wait for a response to start (default 30000; 0 = no limit; at most 2^31 − 1, the longest a timer waits). */
  connectTimeoutMs?: number;
  /** Reuse connections between requests (keep-alive) when rxmcp supplies the fetch on Node (default true). */
  persistent?: boolean;
  /** Called with problems that were papered over, such as a tool rejected for a bad `x-mcp-header`. */
  onWarn?: (message: string) => void;
  /** The largest message (a JSON body, or one SSE event) the server may send, in bytes of UTF-8 as received (default 64 MiB); a longer one fails with McpProtocolError. */
  maxMessageBytes?: number;
  /** How a 2025-11-25 server's dropped streams are re-opened, and how soon a new HTTP+SSE session follows a dropped one: see docs/transports.md. */
  reconnect?: ReconnectOptions;
  /** Sign in with OAuth when the server asks for it (a 401, or a 403 for more scopes). See docs/signing-in.md. */
  auth?: AuthOptions;
  /**
   * The transport the URL serves (default `auto`): Streamable HTTP is tried
   * first, and HTTP+SSE (protocol 2024-11-05) when the `initialize` POST is
   * refused with 400, 404 or 405. `streamable-http` never tries HTTP+SSE;
   * `sse` speaks only HTTP+SSE, with no POST to the URL and no era probe.
   */
  httpTransport?: HttpTransportKind;
}

/** The option names `HttpTransport` understands. */
export const HTTP_OPTION_KEYS = keysOf<HttpTransportOptions>({
  url: true,
  headers: true,
  fetch: true,
  connectTimeoutMs: true,
  persistent: true,
  onWarn: true,
  maxMessageBytes: true,
  reconnect: true,
  auth: true,
  httpTransport: true,
});
