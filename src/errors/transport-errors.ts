import { shownUrl, withShownUrl } from '../util/shown-url.js';
import { McpClientError } from './mcp-client-error.js';

/**
 * The server process could not be started: the command does not exist, is not
 * executable, or its command line holds a NUL byte (refused before anything
 * runs).
 */
export class McpSpawnFailedError extends McpClientError {
  override name = 'McpSpawnFailedError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_SPAWN_FAILED';
  declare readonly code: typeof McpSpawnFailedError.code;

  constructor(
    /** The command that could not be started. */
    readonly command: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot start ${JSON.stringify(command)}: ${reason}`, options);
  }
}

/**
 * The server process exited while the connection was open, or the
 * connection to it ended for good (it closed its stdout, or it wrote only
 * lines that are not MCP). Every call pending at that moment, and every call
 * made later, fails with this error. `stderrTail` usually holds the server's
 * own account of what went wrong; `stdoutHead`, for a program that never
 * spoke MCP, what it wrote instead.
 */
export class McpServerGoneError extends McpClientError {
  override name = 'McpServerGoneError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_SERVER_GONE';
  declare readonly code: typeof McpServerGoneError.code;

  constructor(
    /** The exit code, or `null` when the process was killed by a signal. */
    readonly exitCode: number | null,
    /** The signal that ended the process, or `null`. */
    readonly signal: string | null,
    /** The last lines the server wrote to stderr, joined with newlines. */
    readonly stderrTail: string,
    /** What happened, when it was not an exit (default: how the process exited). */
    what?: string,
    /**
     * The first lines (at most 200 characters, joined with newlines) the
     * server wrote on stdout that were not JSON-RPC, when it never sent a
     * JSON-RPC message: what a program that is not an MCP server printed.
     * The server's text, unescaped: quote it before showing it.
     */
    readonly stdoutHead?: string,
  ) {
    const how = what ?? (signal === null ? `the server exited with code ${exitCode}` : `the server exited on signal ${signal}`);
    super(how + (stdoutHead ? `; it wrote on stdout: ${JSON.stringify(stdoutHead)}` : '') + (stderrTail ? `; its last words: ${JSON.stringify(stderrTail)}` : ''));
  }
}

/** The call was made on, or was pending when, the connection was closed with `close()`. */
export class McpTransportClosedError extends McpClientError {
  override name = 'McpTransportClosedError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_TRANSPORT_CLOSED';
  declare readonly code: typeof McpTransportClosedError.code;

  constructor(
    /** The JSON-RPC method that was cut off, when there was one. */
    readonly method?: string,
  ) {
    super(method ? `${method} failed: the connection is closed` : 'the connection is closed');
  }
}

/**
 * An HTTP exchange failed at the HTTP level: a status that is not a JSON-RPC
 * answer, or a redirect the client would not follow (then `location` names
 * where it led).
 */
export class McpHttpError extends McpClientError {
  override name = 'McpHttpError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_HTTP';
  declare readonly code: typeof McpHttpError.code;

  /** Where a redirect that was not followed pointed, as the server sent it. */
  readonly location?: string;

  constructor(
    /** The HTTP status code (0 for a redirect a browser's fetch kept hidden). */
    readonly status: number,
    /** The response body, as text (possibly cut short). */
    readonly body: string,
    url: string,
    /** Why the response was refused, when its status alone does not say; the location of a redirect. */
    detail?: { reason?: string; location?: string },
  ) {
    // The message shows the URL without user info or query string: errors end up in logs.
    super(`HTTP ${status} from ${shownUrl(url)}` + (detail?.reason ? `: ${withShownUrl(detail.reason, url)}` : '') + (body ? `: ${JSON.stringify(body.slice(0, 200))}` : ''));
    if (detail?.location !== undefined) this.location = detail.location;
  }
}

/**
 * An HTTP server could not be reached, did not answer within
 * `connectTimeoutMs`, or its response stream broke before the answer. The
 * request is lost; the client stays usable and the call may be made again.
 */
export class McpNetworkError extends McpClientError {
  override name = 'McpNetworkError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_NETWORK';
  declare readonly code: typeof McpNetworkError.code;

  constructor(
    /** The endpoint that failed (whole; the message shows it without user info or query string). */
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${shownUrl(url)}: ${withShownUrl(reason, url)}`, options);
  }
}
