import { McpClientError } from './mcp-client-error.js';

/**
 * The server answered with a JSON-RPC error, or with something that is not a
 * valid answer. For a JSON-RPC error, `code` and `data` are the server's; for
 * a malformed answer `code` is `undefined` and `data` describes the problem.
 */
export class McpProtocolError extends McpClientError {
  override name: 'McpProtocolError' | 'McpUrlElicitationRequiredError' = 'McpProtocolError';

  /** The stable code of this class's errors. */
  static override readonly code: string = 'MCP_PROTOCOL';

  constructor(
    message: string,
    /**
     * The JSON-RPC error code, or `undefined` for a malformed answer. It is
     * the server's number rather than the class's string (`MCP_PROTOCOL`,
     * on the class): the field kept its meaning when the other errors gained
     * theirs.
     */
    override readonly code: number | undefined,
    /** The error's `data` member, as the server sent it. */
    readonly data?: unknown,
    /** The method of the request that failed. */
    readonly method?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The error for an answer the client failed on while reading it: whatever
 * was thrown, as an `McpProtocolError` naming the method (an `McpClientError`
 * passes as it is). An answer, however hostile, ends its own call and no more.
 */
export function unreadableAnswer(method: string, error: unknown): McpClientError {
  if (error instanceof McpClientError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new McpProtocolError(`${method}: the answer could not be read (${reason})`, undefined, undefined, method, { cause: error });
}

/**
 * No protocol version both sides speak: a legacy version was named in
 * `protocolVersions`, or the server offered only versions this client does not
 * speak.
 */
export class McpUnsupportedVersionError extends McpClientError {
  override name = 'McpUnsupportedVersionError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_UNSUPPORTED_VERSION';
  declare readonly code: typeof McpUnsupportedVersionError.code;

  constructor(
    /** The versions the other side supports. */
    readonly supported: readonly string[],
    /** The version or versions that were asked for. */
    readonly requested: readonly string[],
    message?: string,
  ) {
    super(
      message ??
        `no common protocol version: asked for ${JSON.stringify(requested)}, supported ${JSON.stringify(supported)}`,
    );
  }
}

/** One page a 2025-11-25 server needs a person to visit before it can go on (`-32042`). */
export interface RequiredElicitation {
  /** The page to send the person to: untrusted, as the server sent it. */
  url: string;
  /** Why the server wants it, in the server's words. */
  message: string;
  /** The id a later `notifications/elicitation/complete` names. */
  elicitationId: string;
}

/**
 * A 2025-11-25 server answered `-32042` (URL elicitation required): the call
 * can go on only after a person has visited the pages in `elicitations`.
 * Without `onElicitUrl` the call fails with it; with the hook set, the
 * client asks it first and retries the call once. `code` stays the server's
 * number, as on every `McpProtocolError`.
 */
export class McpUrlElicitationRequiredError extends McpProtocolError {
  override name = 'McpUrlElicitationRequiredError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_URL_ELICITATION_REQUIRED';

  constructor(
    message: string,
    /** The pages the server named, each read and bounded. */
    readonly elicitations: readonly RequiredElicitation[],
    data?: unknown,
    method?: string,
    options?: { cause?: unknown },
  ) {
    super(message, -32042, data, method, options);
  }
}
