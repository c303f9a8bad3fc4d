import type { Observable } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { InputHook, InputHooks } from '../protocol/input-request.js';
import type { ClientCapabilities, LoggingLevel, LogMessage, ProgressEvent, Root, ToolProgress } from '../protocol/types.js';
import type { Transport } from '../transport/transport.js';
import { type KeyRecord, keysOf } from '../util/option-keys.js';
import type { TracingOptions } from './tracing/tracing-options.js';

/** Options of the client itself, whatever the transport. */
export interface ClientOptions {
  /** The name this client reports to servers (default `rxmcp`). */
  clientName?: string;
  /** The version this client reports to servers (default: rxmcp's version). */
  clientVersion?: string;
  /** Modern protocol versions to speak, best first (default `['2026-07-28']`). Legacy is reached by handshake and must not be named here. */
  protocolVersions?: readonly string[];
  /**
   * The era a server is known to speak, such as `describe().era` from an
   * earlier connection, kept to save the probe: `'legacy'` goes straight to
   * the `initialize` handshake; `'modern'` never falls back to it, so a
   * server that does not answer as a modern one fails with
   * `McpUnsupportedVersionError`. Without it, the client probes.
   */
  era?: 'modern' | 'legacy';
  /** Budget of the era probe (default 5000). Separate from `requestTimeoutMs` because a legacy server may never answer it. */
  probeTimeoutMs?: number;
  /** Default budget of every call, overridable per call (default 60000; 0 = none). */
  requestTimeoutMs?: number;
  /** The capabilities to declare to servers, overriding those derived from the hooks. */
  clientCapabilities?: ClientCapabilities;
  /**
   * Answers elicitation questions (form mode). An accepted answer with no
   * `content` gets the schema's `default`s; one with `content` is sent as it
   * is (a field it leaves out stays out). An accepted answer that breaks the
   * `requestedSchema` is never sent: the call that asked fails with
   * `McpClientError` (a 2025-11-25 server's own request gets error -32603).
   * `request.server` says which server asks. Setting it declares the
   * elicitation capability.
   */
  onElicit?: InputHook;
  /**
   * Answers URL-mode elicitations: the server wants a person sent to a page
   * (a sign-in, a payment) that must not pass through the client. Setting it
   * declares `elicitation.url`; without it such a question is refused.
   */
  onElicitUrl?: InputHook;
  /** Answers sampling requests. Setting it declares the sampling capability. */
  onSample?: InputHook;
  /**
   * Let sampling requests carry `tools` and `toolChoice` (SEP-1577):
   * declares `sampling.tools`. Without it such a request is refused.
   */
  sampleWithTools?: boolean;
  /**
   * Answers roots listings. Setting it declares the roots capability with
   * `listChanged`: call `notifyRootsChanged()` when its answer changes. Only
   * valid `file://` roots of its answer reach the server (others are left
   * out, with a warning), at most 1000.
   */
  onListRoots?: InputHook;
  /**
   * The roots to offer servers, instead of `onListRoots` (setting both is an
   * error): a list, or an Observable whose latest list is offered (`[]`
   * before its first). Declares `roots.listChanged`. Each root must be a
   * `file://` URI without `.`/`..` segments, query, fragment or control
   * characters, at most 4096 characters, in a list of at most 1000: a bad
   * list throws `McpClientError` here, and a bad list from the Observable is
   * not offered (`onWarn` says why; the previous list stays). A new,
   * different list is announced to a 2025-11-25 server with
   * `notifications/roots/list_changed` (see `notifyRootsChanged`); a
   * 2026-07-28 server gets it the next time it asks.
   *
   * @example
   * ```ts
   * const roots = new BehaviorSubject([{ uri: 'file:///work/a', name: 'A' }]);
   * const mcp = McpClient.connectStdio({ command: 'srv', roots });
   * roots.next([{ uri: 'file:///work/b', name: 'B' }]); // the server is told
   * ```
   */
  roots?: readonly Root[] | Observable<readonly Root[]>;
  /** How many times one call may be retried with answers before `McpInputLoopExceededError` (default 8). */
  maxInputRounds?: number;
  /**
   * The least severe log messages wanted. Modern requests carry it in `_meta`
   * (without it a modern server sends no log messages at all); a legacy server
   * that offers logging is sent `logging/setLevel` once after the handshake.
   */
  logLevel?: LoggingLevel;
  /** Called with each log message the server sends. */
  onLog?: (message: LogMessage) => void;
  /**
   * Called with progress reports for tool calls made with a `toolCallId`
   * (the LLM bridge does): the client mints a progress token for each such
   * call and attributes reports by it, dropping late and foreign ones.
   */
  onProgress?: (progress: ToolProgress) => void;
  /** How many requests may wait for answers at once (default 10000); one more fails with McpClientError. */
  maxPendingRequests?: number;
  /**
   * The most pages one list call (`listTools`, `listTasks`, …) may follow
   * (default 1000). A list that would need more fails with `McpProtocolError`
   * naming the method and the limit, as does a cursor the server repeats.
   */
  maxListPages?: number;
  /** The most items one list call may gather over all its pages (default 100000); one more fails the call with `McpProtocolError`. */
  maxListItems?: number;
  /** How many calls of a read-only, idempotent batch `executeToolCalls` may overlap (default 4; 1 = always serial). */
  toolConcurrency?: number;
  /**
   * Trust this server's tool annotations (MCP says a client MUST treat them
   * as untrusted unless the server is trusted). Only then do its
   * `readOnlyHint`, `idempotentHint`, `destructiveHint` and `openWorldHint`
   * reach `toolAnnotations`, a `Policy`'s `readOnly` rules and the other
   * layers, and let `executeToolCalls` overlap and merge a batch's calls.
   * Default `false`: the hints are left out (`listTools` still shows them as
   * sent) and every batch runs one call at a time.
   */
  trustAnnotations?: boolean;
  /**
   * Take part in tasks (long-running tool calls): declares the 2025-11-25
   * `tasks` capability and the 2026-07-28 extension `io.modelcontextprotocol/tasks`,
   * and lets `callTool` follow a call that becomes a task to its result.
   * Off by default: without it nothing about calls changes.
   */
  tasks?: boolean;
  /**
   * Extensions to declare, each under its identifier
   * (`{vendor-prefix}/{extension-name}`) with its settings object, such as
   * `appsExtension` of `rxmcp/apps` for MCP Apps. They are added to the
   * declared capabilities' `extensions` in both eras (a 2025-11-25 server
   * reads them in `initialize`, a 2026-07-28 one in every request), next to
   * what `tasks` declares and on top of any `clientCapabilities.extensions`.
   * Only JSON data: the settings are copied when the client is made.
   */
  extensions?: Record<string, Record<string, unknown>>;
  /**
   * Check each tool result's `structuredContent` against the tool's
   * `outputSchema` (JSON Schema 2020-12) before handing it over (default
   * true). A result that breaks it, or lacks it, fails the call with
   * `McpOutputSchemaError`; results with `isError` are not checked. The
   * schemas are those of the `tools/list` answers the client has seen in the
   * session: a tool never listed is not checked.
   */
  validateStructuredContent?: boolean;
  /**
   * OpenTelemetry tracing, through `@opentelemetry/api` when it is installed
   * (an optional peer) and an SDK is registered; until then it records
   * nothing. On by default: a client span per request (`tools/call get_weather`,
   * attributes per the semantic conventions for MCP), its trace context in
   * the request's `_meta` (`traceparent`, `tracestate`), and the
   * `mcp.client.operation.duration` histogram. Tool arguments and results
   * are recorded only with `{ captureContent: true }`. `false` turns it all
   * off. See docs/observability.md.
   */
  tracing?: boolean | TracingOptions;
  /** Called with problems the client papered over: a late answer dropped, a line that was not JSON-RPC, … */
  onWarn?: (message: string) => void;
}

/** Options of `new McpClient(...)`: a ready transport, and the client's own options. */
export interface McpClientOptions extends ClientOptions {
  /** The wire to talk over. */
  transport: Transport;
}

/** Options every call takes. */
export interface CallOptions {
  /** This call's budget in milliseconds, overriding `requestTimeoutMs` (0 = none). */
  timeoutMs?: number;
  /** Aborting it abandons the call, which then errors with `McpCancelledError`. */
  signal?: AbortSignal;
  /** Extra `_meta` keys for the request. The protocol's own keys always win. */
  meta?: Record<string, unknown>;
}

/** Options of `callTool`. */
export interface CallToolOptions extends CallOptions {
  /** Asks the server for `notifications/progress` quoting this token. */
  progressToken?: string | number;
  /** The model's id for this call; with `onProgress` set, its progress is reported under this id. */
  toolCallId?: string;
  /** Restart the `timeoutMs` clock at every progress report for this call whose `progress` is higher than any before (MCP has it increase; a repeated or lower value keeps nothing alive). */
  resetTimeoutOnProgress?: boolean;
  /**
   * A hard cap on the whole call, progress or not (with `resetTimeoutOnProgress`).
   * Default with `resetTimeoutOnProgress`: ten times the call's `timeoutMs`
   * (none when `timeoutMs` is 0); 0 = no cap.
   */
  maxTotalTimeoutMs?: number;
  /**
   * With the client option `tasks`, on a 2025-11-25 server: run a tool whose
   * `execution.taskSupport` is `optional` as a task (`true`, or with the
   * lifetime to ask for). A `required` tool always runs as one. A 2026-07-28
   * server decides for itself and ignores this.
   */
  task?: boolean | { ttlMs?: number };
  /**
   * Told this call's progress reports. The server is asked for them: under
   * `progressToken` when given, otherwise under a token minted for the call.
   * The client's own `onProgress` hears them too when the call has a
   * `toolCallId` and no `progressToken`, as it would without this.
   */
  onProgress?: (progress: ProgressEvent) => void;
  /**
   * Answers the questions the server asks while this call runs (elicitation,
   * sampling, roots) in place of the client's own hooks. A 2026-07-28
   * server's `input_required` rounds of this call go to these hooks always.
   * A 2025-11-25 server asks with requests of its own that name no call: one
   * that arrives on this call's own response stream (Streamable HTTP) goes
   * to these hooks; one the wire ties to no call (stdio, HTTP+SSE, the GET
   * stream) goes to these hooks while every call running with `input` was
   * given these same ones, and to the client's own otherwise (whose question
   * it is cannot be told, and no caller may see another's). A hook left out
   * here declines its kind of question, as an unset client hook would. The
   * client declares only what its own hooks cover, so a server asks for
   * elicitation only of a client that has `onElicit`, and so on.
   */
  input?: InputHooks;
}

/** Options of `readResource` and `getPrompt`, which a 2026-07-28 server may answer with `input_required` as it may a tool call. */
export interface InputCallOptions extends CallOptions {
  /**
   * Answers the questions the server asks while this call runs, in place of
   * the client's own hooks, as `callTool`'s `input` does (the same rules for
   * a 2025-11-25 server's requests). A call given its own hooks is never
   * shared with an identical one in flight, nor cached.
   */
  input?: InputHooks;
}

/** Options of `callToolAsTask`. */
export interface CallToolAsTaskOptions extends CallToolOptions {
  /** Leave the task running when the subscriber leaves (default: unsubscribing cancels it); its id is the handle for `resumeTask`. */
  detach?: boolean;
}

/** Options of `resumeTask`. */
export interface ResumeTaskOptions extends CallOptions {
  /** Leave the task running when the subscriber leaves (default: unsubscribing cancels it). */
  detach?: boolean;
}

/** Options of the list calls. */
export interface ListOptions extends CallOptions {
  /** Bypass any cached copy and fetch again. */
  refresh?: boolean;
}

/** Options of `complete`. */
export interface CompleteOptions extends CallOptions {
  /** Arguments already chosen, to narrow the candidates. */
  context?: { arguments?: Record<string, string> };
}

/** The option names of the client itself (`ClientOptions`). */
export const CLIENT_OPTION_KEYS = keysOf<ClientOptions>({
  clientName: true,
  clientVersion: true,
  protocolVersions: true,
  era: true,
  probeTimeoutMs: true,
  requestTimeoutMs: true,
  clientCapabilities: true,
  onElicit: true,
  onElicitUrl: true,
  onSample: true,
  sampleWithTools: true,
  onListRoots: true,
  roots: true,
  maxInputRounds: true,
  logLevel: true,
  onLog: true,
  onProgress: true,
  toolConcurrency: true,
  trustAnnotations: true,
  maxPendingRequests: true,
  maxListPages: true,
  maxListItems: true,
  tasks: true,
  extensions: true,
  validateStructuredContent: true,
  tracing: true,
  onWarn: true,
});

// Each call's keys as a record the compiler checks against its options type;
// a call whose options extend another's spreads that one's record.
const CALL: KeyRecord<CallOptions> = { timeoutMs: true, signal: true, meta: true };
const CALL_TOOL: KeyRecord<CallToolOptions> = {
  ...CALL,
  progressToken: true,
  toolCallId: true,
  resetTimeoutOnProgress: true,
  maxTotalTimeoutMs: true,
  task: true,
  onProgress: true,
  input: true,
};

/** The options every call takes. */
export const CALL_KEYS = keysOf<CallOptions>(CALL);

/** The options of `readResource` and `getPrompt`. */
export const INPUT_CALL_KEYS = keysOf<InputCallOptions>({ ...CALL, input: true });

/** The options of `callTool`. */
export const CALL_TOOL_KEYS = keysOf<CallToolOptions>(CALL_TOOL);

/** The options of `callToolAsTask`. */
export const CALL_TOOL_AS_TASK_KEYS = keysOf<CallToolAsTaskOptions>({ ...CALL_TOOL, detach: true });

/** The options of `resumeTask`. */
export const RESUME_TASK_KEYS = keysOf<ResumeTaskOptions>({ ...CALL, detach: true });

/** The options of the list calls. */
export const LIST_KEYS = keysOf<ListOptions>({ ...CALL, refresh: true });

/** The options of `complete`. */
export const COMPLETE_KEYS = keysOf<CompleteOptions>({ ...CALL, context: true });

// Every option some call takes: one that another call takes is refused as
// not applying to this call rather than as unknown.
const CALL_OPTION_KEYS = [...new Set([...CALL_TOOL_AS_TASK_KEYS, ...INPUT_CALL_KEYS, ...RESUME_TASK_KEYS, ...LIST_KEYS, ...COMPLETE_KEYS])];

/** Checks the per-call options. */
export function checkCallOptions(options: object, allowed: readonly string[]): void {
  // for…in rather than Object.keys: this runs on every call, usually with `{}`.
  for (const key in options) {
    if (!allowed.includes(key)) {
      throw new McpClientError(
        CALL_OPTION_KEYS.includes(key) ? `option ${key} does not apply to this call` : `unknown option: ${key}`,
      );
    }
  }
}
