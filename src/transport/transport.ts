import type { Observable, Observer } from 'rxjs';
import type { AuthState } from '../auth/auth-options.js';
import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';
import type { ListLimits } from '../protocol/list-walk.js';
import type { Wire } from '../protocol/types.js';

/**
 * A wire that carries JSON-RPC messages between this client and one server.
 *
 * rxmcp ships `StdioTransport`; implement this interface to bring your own
 * (a socket, a worker, a test double) and pass it as `new McpClient({ transport })`.
 *
 * The contract:
 * - `inbound` is hot. It emits every well-formed JSON-RPC message the server
 *   sends (decode with `decodeLine` or `classify`; report and skip anything
 *   else). It errors when the wire dies (`McpServerGoneError`,
 *   `McpSpawnFailedError`) and completes after `close()`; a subscriber that
 *   arrives later receives that ending at once.
 * - `outbound.next(message)` sends one message. Sending starts the wire if it
 *   is not started yet, so constructing a transport sends nothing.
 * - `cancel(id)` abandons one request the way the wire defines: stdio sends
 *   `notifications/cancelled`; HTTP aborts that request's response stream
 *   (and, in the 2025-11-25 era, sends `notifications/cancelled` first).
 * - `close()` shuts the wire down, is idempotent, and resolves once it is down.
 * - `failures$`, for wires whose failures belong to one request (HTTP: a
 *   status without a JSON-RPC answer, a broken stream), names the request a
 *   local error ends. The wire as a whole goes on.
 * - `restarts$`, for wires that start their server again (or, like
 *   HTTP+SSE, a session), emits when the server died (or forgot the
 *   session) and the next message will reach a fresh one: the client
 *   forgets the session (and probes again) and re-opens `listen` streams.
 * - `auth$`, for wires that sign in, reports where signing in stands. While
 *   it says `signing-in` a person is at work, and the client stops the
 *   clocks of its calls' budgets.
 * - `limitLists(limits)`, for wires that read lists of their own (HTTP in
 *   the 2026-07-28 era reads `tools/list` again after a header mismatch),
 *   is called once by the client with its `maxListPages` and `maxListItems`.
 * - `wire` names how messages travel, for `describe()`. A transport that
 *   says `sse` speaks only the handshake era: the client skips its probe.
 * - `unsolicited$`, for wires on which the server cannot always speak
 *   first (2025-11-25 Streamable HTTP, whose GET stream may be refused or
 *   lost), says whether what the server sends outside any request (a list
 *   change, say) can reach the client now: true while such a channel is
 *   open, false otherwise, the current state given to each new subscriber.
 *   A wire without it is taken to carry those messages whenever it is up
 *   (stdio, a socket). The client keeps a server's lists until it says they
 *   changed only while this is true, and reads them again after a false.
 * - `carrierOf(request)`, for wires that carry the server's requests on the
 *   response streams of the client's own (2025-11-25 Streamable HTTP), names
 *   the client request whose stream carried one; the client answers it with
 *   that call's own hooks, if it has any (see `CallToolOptions.input`).
 */
export interface Transport {
  /** Every message the server sends, hot. */
  readonly inbound: Observable<JsonRpcMessage>;
  /** Messages to send to the server. */
  readonly outbound: Observer<JsonRpcMessage>;
  /** Tells the server the request with this id is abandoned. */
  cancel(id: RequestId, reason?: string): void;
  /** Shuts the wire down; idempotent. */
  close(): Promise<void>;
  /** Local failures of single requests, hot. */
  readonly failures$?: Observable<RequestFailure>;
  /** Each time the server died and will be started afresh, hot. */
  readonly restarts$?: Observable<void>;
  /** Where signing in stands, hot. */
  readonly auth$?: Observable<AuthState>;
  /** The bounds of the lists the wire reads by itself, from the client's options. */
  limitLists?(limits: ListLimits): void;
  /** Whether the server's messages outside any request can reach the client now; hot, replays the current state. */
  readonly unsolicited$?: Observable<boolean>;
  /** How messages travel, as far as the transport knows yet. */
  readonly wire?: Wire;
  /** The id of the client request on whose response stream this server request arrived, if one did. */
  carrierOf?(request: JsonRpcMessage): RequestId | undefined;
}

/** The largest message a server may send when `maxMessageBytes` is not given: 64 MiB. */
export const DEFAULT_MAX_MESSAGE = 64 * 1024 * 1024;

/** A request that failed on the wire, without an answer from the server. */
export interface RequestFailure {
  id: RequestId;
  error: Error;
}
