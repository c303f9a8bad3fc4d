import {
  catchError,
  defer,
  EMPTY,
  expand,
  map,
  mergeMap,
  type Observable,
  of,
  reduce,
  shareReplay,
  type Subscription,
  take,
  throwError,
} from 'rxjs';
import type { z } from 'zod';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import { McpTransportClosedError } from '../errors/transport-errors.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import { buildRequest } from '../protocol/request.js';
import {
  callToolResultSchema,
  completeResultSchema,
  getPromptResultSchema,
  pageSchema,
  promptSchema,
  readResourceResultSchema,
  resourceSchema,
  resourceTemplateSchema,
  toolSchema,
} from '../protocol/schemas.js';
import { checkResult, resultTypeOf, stripBookkeeping } from '../protocol/shape.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerDescription,
  Tool,
} from '../protocol/types.js';
import { ErrorCode } from '../protocol/versions.js';
import { STDIO_OPTION_KEYS, StdioTransport, type StdioTransportOptions } from '../transport/stdio-transport.js';
import type { Transport } from '../transport/transport.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { VERSION } from '../version.js';
import { guardCall } from './call-guard.js';
import { Correlator } from './correlator.js';
import { capabilitiesOf, type InputHooks } from './input-hooks.js';
import { INPUT_METHODS, runInputLoop } from './input-loop.js';
import {
  type CallOptions,
  type CallToolOptions,
  checkCallOptions,
  checkCount,
  checkDuration,
  checkVersions,
  CLIENT_OPTION_KEYS,
  type ClientOptions,
  type CompleteOptions,
  type ListOptions,
  type McpClientOptions,
} from './options.js';
import { serveServerRequests } from './server-requests.js';
import { probe, type Session } from './session.js';

/** Options of `McpClient.connectStdio`: the client's own, and the stdio transport's. */
export interface ConnectStdioOptions extends ClientOptions, StdioTransportOptions {}

const CALL = ['timeoutMs', 'signal', 'meta'];
const LIST = [...CALL, 'refresh'];

/**
 * A client for one MCP server, of either protocol era.
 *
 * Construction is synchronous and sends nothing. The first call that needs to
 * know probes the server's era (once per connection, however many calls race
 * to need it) and every later call reuses the verdict.
 *
 * Every protocol call returns a cold Observable: nothing is sent until it is
 * subscribed, each subscription is one call, and unsubscribing cancels it.
 * Scripts `await firstValueFrom(...)`; user interfaces subscribe.
 *
 * @example
 * ```ts
 * const mcp = McpClient.connectStdio({ command: 'node', args: ['server.js'] });
 * const tools = await firstValueFrom(mcp.listTools());
 * const result = await firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
 * await mcp.close();
 * ```
 */
export class McpClient {
  /**
   * Starts a server as a child process (no shell) and returns a client for it.
   * The process starts with the first call.
   *
   * @throws McpClientError for an option neither the client nor the transport knows.
   * @throws McpSpawnFailedError when the command line or environment holds a NUL byte.
   */
  static connectStdio(options: ConnectStdioOptions): McpClient {
    refuseUnknown(options, [...CLIENT_OPTION_KEYS, ...STDIO_OPTION_KEYS]);
    const client: Record<string, unknown> = {};
    const stdio: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      if (key === 'onWarn') client[key] = stdio[key] = value;
      else if (STDIO_OPTION_KEYS.includes(key)) stdio[key] = value;
      else client[key] = value;
    }
    const transport = new StdioTransport(stdio as unknown as StdioTransportOptions);
    return new McpClient({ ...(client as ClientOptions), transport });
  }

  /** Every notification the server sends, hot: subscribers see what arrives after they subscribe. Completes on `close()`. */
  readonly notifications$: Observable<JsonRpcNotification>;

  /** The capabilities this client declares to servers. */
  readonly declaredCapabilities: ClientCapabilities;

  private readonly transport: Transport;
  private readonly correlator: Correlator;
  private readonly session$: Observable<Session>;
  private readonly requestTimeoutMs: number;
  private readonly warn: (message: string) => void;
  private readonly hooks: InputHooks;
  private readonly maxInputRounds: number;
  private serverRequests: Subscription | undefined;
  private closing: Promise<void> | undefined;

  /**
   * @throws McpClientError for an unknown option, a transport option given with a ready `transport`, or a bad value.
   * @throws McpUnsupportedVersionError when `protocolVersions` names a version this client does not speak.
   */
  constructor(options: McpClientOptions) {
    for (const key of Object.keys(options)) {
      if (key !== 'onWarn' && STDIO_OPTION_KEYS.includes(key)) {
        throw new McpClientError(`option ${key} configures a transport, but a ready transport was given`);
      }
    }
    refuseUnknown(options, [...CLIENT_OPTION_KEYS, 'transport']);
    if (!options.transport) throw new McpClientError('option transport is required (or use McpClient.connectStdio)');
    const versions = checkVersions(options.protocolVersions);
    const probeTimeoutMs = checkDuration('probeTimeoutMs', options.probeTimeoutMs, 5000);
    this.requestTimeoutMs = checkDuration('requestTimeoutMs', options.requestTimeoutMs, 60000);
    this.warn = options.onWarn ?? (() => undefined);
    this.transport = options.transport;
    for (const hook of ['onElicit', 'onSample', 'onListRoots', 'onWarn'] as const) {
      if (options[hook] !== undefined && typeof options[hook] !== 'function') {
        throw new McpClientError(`option ${hook} must be a function`);
      }
    }
    this.hooks = { onElicit: options.onElicit, onSample: options.onSample, onListRoots: options.onListRoots };
    this.declaredCapabilities = options.clientCapabilities ?? capabilitiesOf(this.hooks);
    this.maxInputRounds = checkCount('maxInputRounds', options.maxInputRounds, 8);
    this.correlator = new Correlator(this.transport, this.warn);
    this.notifications$ = this.correlator.notifications$;

    const clientInfo = { name: options.clientName ?? 'rxmcp', version: options.clientVersion ?? VERSION };
    // refCount: while nobody waits for the verdict, an unfinished probe is
    // abandoned rather than left running; a verdict once reached is kept for
    // the life of the connection, and a failed probe is not kept at all.
    this.session$ = defer(() => {
      this.serverRequests ??= serveServerRequests({
        requests$: this.correlator.serverRequests$,
        notifications$: this.correlator.notifications$,
        send: (message) => this.correlator.send(message),
        hooks: this.hooks,
        declared: this.declaredCapabilities,
        warn: this.warn,
      });
      return probe({
        versions,
        clientInfo,
        clientCapabilities: this.declaredCapabilities,
        probeTimeoutMs,
        handshakeTimeoutMs: this.requestTimeoutMs,
        request: (method, build, sendOptions) => this.correlator.request(method, build, sendOptions),
        notify: (message) => this.correlator.send(message),
      });
    }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  }

  /**
   * Describes the server: its era, protocol version, identity, capabilities
   * and instructions. The first subscription runs the probe; later ones replay
   * its verdict.
   */
  describe(options: CallOptions = {}): Observable<ServerDescription> {
    return this.run('describe', options, CALL, (session) => [session.description]);
  }

  /** Lists every tool, following pages to the end. */
  listTools(options: ListOptions = {}): Observable<Tool[]> {
    return this.list<Tool>('tools/list', 'tools', toolSchema, options);
  }

  /** Lists every resource, following pages to the end. */
  listResources(options: ListOptions = {}): Observable<Resource[]> {
    return this.list<Resource>('resources/list', 'resources', resourceSchema, options);
  }

  /** Lists every resource template, following pages to the end. */
  listResourceTemplates(options: ListOptions = {}): Observable<ResourceTemplate[]> {
    return this.list<ResourceTemplate>('resources/templates/list', 'resourceTemplates', resourceTemplateSchema, options);
  }

  /** Lists every prompt, following pages to the end. */
  listPrompts(options: ListOptions = {}): Observable<Prompt[]> {
    return this.list<Prompt>('prompts/list', 'prompts', promptSchema, options);
  }

  /**
   * Calls a tool. A tool that fails reports `isError: true` in its result,
   * which is returned as a value; only protocol and transport failures error.
   * A server that asks for input first is answered through the hooks, and the
   * final result comes back however many rounds it took.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Observable<CallToolResult> {
    const { progressToken, meta } = options;
    const withToken = progressToken === undefined ? meta : { ...meta, progressToken };
    return this.run('tools/call', options, [...CALL, 'progressToken'], (session) =>
      this.send<CallToolResult>(session, 'tools/call', { name, arguments: args }, withToken, callToolResultSchema),
    );
  }

  /** Reads a resource by URI. */
  readResource(uri: string, options: CallOptions = {}): Observable<ReadResourceResult> {
    return this.run('resources/read', options, CALL, (session) =>
      this.send<ReadResourceResult>(session, 'resources/read', { uri }, options.meta, readResourceResultSchema),
    );
  }

  /** Renders a prompt with its arguments. */
  getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Observable<GetPromptResult> {
    return this.run('prompts/get', options, CALL, (session) =>
      this.send<GetPromptResult>(session, 'prompts/get', { name, arguments: args }, options.meta, getPromptResultSchema),
    );
  }

  /** Asks for completion candidates for a prompt argument or a resource-template variable. */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: CompleteOptions = {},
  ): Observable<CompleteResult> {
    const params = options.context ? { ref, argument, context: options.context } : { ref, argument };
    return this.run('completion/complete', options, [...CALL, 'context'], (session) =>
      this.send<CompleteResult>(session, 'completion/complete', params, options.meta, completeResultSchema),
    );
  }

  /**
   * Pings the server: `true` when it answered, `false` when it does not know
   * the method (2026-07-28 removed ping, so a healthy modern server may say so).
   * Any other failure errors.
   */
  ping(options: CallOptions = {}): Observable<boolean> {
    return this.run('ping', options, CALL, (session) =>
      this.correlator.request('ping', (id) => buildRequest(id, 'ping', undefined, session.stamp, options.meta)).pipe(
        map(() => true),
        catchError((error: unknown) =>
          error instanceof McpProtocolError && error.code === ErrorCode.MethodNotFound ? of(false) : throwError(() => error),
        ),
      ),
    );
  }

  /**
   * Closes the connection: every pending call fails with
   * `McpTransportClosedError`, `notifications$` completes, and the transport
   * shuts down (for stdio: stdin closed, then SIGTERM and SIGKILL after
   * `killGraceMs` each). Idempotent; safe on a connection whose server died.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.correlator.close();
      this.serverRequests?.unsubscribe();
      await this.transport.close();
    })();
    return this.closing;
  }

  private run<T>(
    method: string,
    options: CallOptions,
    allowed: readonly string[],
    body: (session: Session) => Observable<T> | T[],
  ): Observable<T> {
    checkCallOptions(options, allowed);
    const timeoutMs = checkDuration('timeoutMs', options.timeoutMs, this.requestTimeoutMs);
    return defer(() =>
      this.closing
        ? throwError(() => new McpTransportClosedError(method))
        : this.session$.pipe(
            take(1),
            mergeMap((session) => body(session)),
          ),
    ).pipe(guardCall(method, timeoutMs, options.signal));
  }

  private send<T>(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    schema: z.ZodType,
  ): Observable<T> {
    const once = (extra: Record<string, unknown>): Observable<Record<string, unknown>> =>
      this.correlator.request(method, (id) => buildRequest(id, method, { ...params, ...extra }, session.stamp, meta));
    const answer = INPUT_METHODS.includes(method)
      ? runInputLoop({ method, send: once, hooks: this.hooks, maxInputRounds: this.maxInputRounds, warn: this.warn })
      : once({});
    return answer.pipe(map((result) => stripBookkeeping(checkResult<Record<string, unknown>>(method, schema, finalResult(method, result))) as T));
  }

  private list<T>(method: string, key: string, item: z.ZodType, options: ListOptions): Observable<T[]> {
    const schema = pageSchema(key, item);
    return this.run(method, options, LIST, (session) => {
      const seen = new Set<string>();
      const page = (cursor?: string): Observable<Record<string, unknown>> =>
        this.send(session, method, cursor === undefined ? undefined : { cursor }, options.meta, schema);
      return page().pipe(
        expand((result) => {
          const next = result.nextCursor as string | undefined;
          if (next === undefined) return EMPTY;
          if (seen.has(next)) {
            return throwError(
              () => new McpProtocolError(`${method} repeated the cursor ${JSON.stringify(next)}`, undefined, { cursor: next }, method),
            );
          }
          seen.add(next);
          return page(next);
        }),
        reduce((all: T[], result) => all.concat(result[key] as T[]), []),
      );
    });
  }
}

/** A result that is final, or an error saying why it is not. */
function finalResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const type = resultTypeOf(result);
  if (type === 'complete') return result;
  if (type === 'input_required') {
    throw new McpProtocolError(
      `${method} answered input_required, which only tools/call, resources/read and prompts/get may`,
      undefined,
      { resultType: type },
      method,
    );
  }
  throw new McpProtocolError(`${method} answered with unknown resultType ${JSON.stringify(type)}`, undefined, { resultType: type }, method);
}
