import { createHash, randomUUID } from 'node:crypto';
import { Subscription } from 'rxjs';
import { annotationsOf, failure, type ExecuteOptions, type LlmTool, type ToolMessage, type ToolProvider } from '../tools/bridge.js';
import type { InputHook, InputHooks, InputRequest } from '../protocol/input-request.js';
import type { McpClient } from '../client/mcp-client.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { CallToolResult, ToolProgress } from '../protocol/types.js';
import type { PolicyQuestion } from '../providers/policy/policy.js';
import { VERSION } from '../version.js';
import { isObject, messageOf } from '../util/values.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { answerTooDeep, argumentsTooLarge, MAX_ANSWER_DEPTH } from './argument-bounds.js';
import { HostGrants } from './host-grants.js';
import { httpGuard, isLoopbackHost, type HttpGuardOptions } from './http-guard.js';
import { LegacySessions } from './legacy-sessions.js';
import { serveNodeHttp } from './node-http.js';
import { declaresParamHeaders, paramHeaderMismatch } from './param-headers.js';
import { permissionAnswer, permissionForm, permissionKey } from './permission-form.js';
import { ProgressRelay } from './progress-relay.js';
import { newHandle, RequestStateSeal } from './request-state.js';
import { CAPABILITY, type HostRequest, type RoundOutcome, RunningCall, type WireInputRequest } from './running-call.js';
import { loadServerSdk, type ServerSdk } from './server-sdk.js';
import { Upstreams } from './upstreams.js';
import { bounded, routeUpstreams } from './upstream-routes.js';
import { imitatesPermissionForm, underServerName } from './upstream-questions.js';
import type { SdkContext, SdkServer } from './sdk-server.js';

/** Options of `Gateway`. */
export interface GatewayOptions {
  /** The provider stack whose tools are served, under the names its `toolsForLlm` shows. */
  provider: ToolProvider;
  /**
   * The upstream clients by the prefix their tools are shown under, for
   * resources, prompts, completion, list-changed notifications and logs. A
   * function is called each time its client is needed (`ConfigServer#client`
   * fits). The key `''` serves one server without a prefix, and must then be
   * the only one.
   */
  servers?: Record<string, McpClient | (() => McpClient)>;
  /** What joins a prefix and a prompt name (default `_`, as the `Registry`'s). */
  separator?: string;
  /** The name in `serverInfo` (default `rxmcp-gateway`). */
  name?: string;
  /** The version in `serverInfo` (default rxmcp's). */
  version?: string;
  /** Instructions for the host's model. */
  instructions?: string;
  /** Told what went wrong that no request could be told: an upstream list or notification stream that failed. */
  onWarn?: (message: string) => void;
  /**
   * Whether a host's "always" answer binds every host of the gateway (it is
   * handed to the Policy as it is, so it lands in the Policy's grants, or its
   * shared `grantsStore`), as the permission form then says. Default false:
   * it binds only the host that gave it, and the Policy is handed its once form.
   */
  sharedGrants?: boolean;
}

interface HttpHandler {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
  notify: { toolsChanged(): void; promptsChanged(): void; resourcesChanged(): void; resourceUpdated(uri: string): void };
}

/** How many calls may wait for a host's answer at once, and for how long. */
const MAX_PARKED = 256;
const PARKED_MS = 10 * 60_000;
const OPTION_KEYS = ['provider', 'servers', 'separator', 'name', 'version', 'instructions', 'onWarn', 'sharedGrants'];
// The handle of a sealed requestState that carries a permission question's key rather than a parked call.
const ASKED = 'ask:';
// How many answered permission states are remembered (until they expire), so that each counts once.
const MAX_ANSWERED = 4_096;
// The longest client name a 2026-07-28 host's identity takes in.
const MAX_CLIENT_NAME_CHARS = 200;
// How long a host whose request was given up before its upstream answered (cancelled by the host, or abandoned by
// the gateway) still counts as having one in flight: a 2025-era server is not bound to stop at a cancellation, and
// may still ask a question for it, which the wire ties to no call. And the most such hosts remembered.
const LINGER_MS = 60_000;
const MAX_LINGERING = 1_024;

/**
 * Serves a tool provider stack (a `Registry` of servers behind a `Policy`,
 * `Reasons`, `Leases`…) as one MCP server, to any MCP host, in both protocol
 * eras: over stdio (`serveStdio`), as a fetch-style Streamable HTTP handler
 * (`fetchHandler`) or on a Node HTTP listener (`listen`). Tools come from the
 * provider; resources, prompts and completion are forwarded to the upstream
 * clients in `servers`. Questions (a `Policy` asking permission through
 * `ask`, an upstream server eliciting, sampling or listing roots) are put to
 * the host that made the call, through its own capabilities.
 *
 * Needs the optional peer `@modelcontextprotocol/server`, loaded on first serve.
 *
 * @example
 * ```ts
 * // The upstream clients need the hooks before the gateway, built last, exists: they read no gateway state.
 * let gateway: Gateway;
 * const hooks: InputHooks = {
 *   onElicit: (request) => gateway.upstreamHooks.onElicit(request),
 *   onSample: (request) => gateway.upstreamHooks.onSample(request),
 *   onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
 * };
 * const registry = Registry.fromConfig(config, { client: hooks });
 * const policy = new Policy({ provider: registry, rules: Policy.defaultRules(), onAsk: (question) => gateway.ask(question) });
 * gateway = new Gateway({ provider: policy, servers: Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as ConfigServer).client()])) });
 * await gateway.serveStdio();
 * ```
 */
export class Gateway {
  /**
   * Client-level hooks for the upstream clients (`Registry.fromConfig(config,
   * { client: gateway.upstreamHooks })`): they make the clients declare
   * elicitation, sampling and roots, so servers may ask; a question that no
   * running call claims is declined.
   */
  readonly upstreamHooks: { onElicit: InputHook; onSample: InputHook; onListRoots: InputHook };

  private readonly provider: ToolProvider;
  private readonly upstreams: Upstreams;
  private readonly info: { name: string; version: string };
  private readonly instructions: string | undefined;
  private readonly onWarn: (message: string) => void;
  private readonly calls = new Map<string, RunningCall<unknown>>();
  private readonly parked = new Map<string, { call: RunningCall<unknown>; method: string; timer: ReturnType<typeof setTimeout> }>();
  private readonly seal = new RequestStateSeal();
  private readonly sharedGrants: boolean;
  private readonly hostGrants = new HostGrants();
  // The requests in flight, by host (every method: tool calls, lists, reads, completions, subscriptions).
  private readonly inFlight = new Map<string, number>();
  // Hosts whose request was given up before its answer came, until when they still count as busy (see LINGER_MS).
  private readonly lingering = new Map<string, number>();
  private readonly relays = new WeakMap<RunningCall<unknown>, ProgressRelay>();
  // The permission states whose answer was read, with their expiry: a replayed one reads none.
  private readonly answered = new Map<string, number>();
  // The capability a 2026-07-28 host lacked for an upstream question its call asked: that call ends in -32021.
  private readonly missing = new WeakMap<RunningCall<CallToolResult>, string>();
  // Connections served over stdio, by era: list changes and (legacy) logs go to each.
  private readonly connections = new Set<{ server: SdkServer; era: 'legacy' | 'modern' }>();
  private readonly httpHandlers = new Set<HttpHandler>();
  private readonly closers = new Set<() => Promise<void>>();
  private readonly resourceWatches = new Map<string, Subscription>();
  private watching: Subscription | undefined;
  private closed = false;
  // Each tool's input schema when it declares Mcp-Param headers (null when it declares none), by name, as the
  // provider last listed them (at a tools/list, at the first POST after a list change, or when a call names a
  // tool not kept), dropped when an upstream's tools change. A call to a tool that declares none then reads
  // no body twice and walks no catalogue. Only schemas are kept: tools/list and every call still go through
  // the provider.
  private headerSchemas: Promise<Map<string, unknown>> | undefined;
  private toolsGeneration = 0;

  /** @throws McpClientError for an unknown option, a missing provider or a malformed option. */
  constructor(options: GatewayOptions) {
    if (!isObject(options)) throw new McpClientError('Gateway needs options with a provider');
    refuseUnknown(options, OPTION_KEYS);
    const { provider, servers = {}, separator = '_', name = 'rxmcp-gateway', version = VERSION, instructions, onWarn, sharedGrants = false } = options;
    if (!isObject(provider) || typeof provider.toolsForLlm !== 'function' || typeof provider.executeToolCalls !== 'function') {
      throw new McpClientError('option provider must be a tool provider (toolsForLlm and executeToolCalls)');
    }
    if (typeof separator !== 'string' || separator === '') throw new McpClientError('option separator must be a non-empty string');
    for (const [key, value] of [['name', name], ['version', version]] as const) {
      if (typeof value !== 'string' || value === '') throw new McpClientError(`option ${key} must be a non-empty string`);
    }
    if (instructions !== undefined && typeof instructions !== 'string') throw new McpClientError('option instructions must be a string');
    if (onWarn !== undefined && typeof onWarn !== 'function') throw new McpClientError('option onWarn must be a function');
    if (typeof sharedGrants !== 'boolean') throw new McpClientError('option sharedGrants must be true or false');
    this.sharedGrants = sharedGrants;
    this.provider = provider;
    this.upstreams = new Upstreams(servers, separator);
    this.info = { name, version };
    this.instructions = instructions;
    this.onWarn = (message) => {
      try {
        onWarn?.(message);
      } catch {
        // A listener that throws must not break serving.
      }
    };
    const unclaimed: InputHook = () => {
      throw new McpClientError('no call made through the gateway claims this question');
    };
    this.upstreamHooks = { onElicit: unclaimed, onSample: unclaimed, onListRoots: unclaimed };
  }

  /**
   * For `Policy`'s `onAsk`: puts a permission question to the host whose
   * call it is (matched by `question.call.id`) as a form elicitation (allow
   * once, deny, always allow — under `question.suggestion` when there is one
   * — or always deny), showing the tool, the rule's note and the arguments
   * (bounded). The host's answer comes with its retry of the call (an
   * `input_required` round, both eras, with a `requestState` sealed to that
   * host, the tool and the arguments), and the call is decided again from
   * that answer; an answer a request brings without such a state is
   * ignored, and the host asked. An "always" answer binds that host alone
   * (the Policy is handed its once form) unless `sharedGrants`. Resolves
   * with a `PermissionAnswer`; rejects, so the Policy denies with the
   * reason, when that host declared no elicitation. An
   * `ElicitationQuestion` goes to the host of the one call running, under no
   * server's name (declined when there is not exactly one, when another host
   * has a request in flight, or when it imitates the permission form).
   */
  ask(question: PolicyQuestion): Promise<unknown> {
    if (question?.kind === 'elicitation') {
      const running = [...this.calls.values()].filter((call) => call.current && call.hostCan(question.method));
      const [only] = running;
      const request = { method: question.method, params: question.params };
      if (running.length !== 1 || !only || this.busyHosts() > 1 || imitatesPermissionForm(request)) return Promise.resolve({ action: 'decline' });
      return only.ask(underServerName(request, undefined));
    }
    const call = question?.kind === 'permission' ? this.calls.get(question.call?.id) : undefined;
    if (!call || question?.kind !== 'permission') {
      return Promise.reject(new McpClientError('no host made this call through the gateway, so there is nobody to ask'));
    }
    const key = permissionKey(question);
    const permitted = call.permitted;
    if (permitted?.key === key) {
      // Once: the answer is to this question, for this request.
      call.permitted = undefined;
      const answer = permissionAnswer(permitted.answer);
      return Promise.resolve(this.sharedGrants ? answer : this.hostGrants.keep(call.principal, question, answer));
    }
    const kept = this.sharedGrants ? undefined : this.hostGrants.decide(call.principal, question);
    if (kept) return Promise.resolve(kept);
    if (!call.hostCan('elicitation/create')) {
      return Promise.reject(new McpClientError('the MCP host declared no elicitation, so it could not be asked'));
    }
    call.permission = { key, request: { method: 'elicitation/create', params: permissionForm(question, this.sharedGrants) } };
    return Promise.reject(new McpClientError('the question was put to the MCP host'));
  }

  /**
   * Serves one host over stdio (this process's, or the streams given), in the
   * era the host opens with. Resolves when the host goes away.
   *
   * @throws McpClientError (as a rejection) when the server SDK is missing or the gateway is closed.
   */
  async serveStdio(io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {}): Promise<void> {
    const { stdio } = await this.sdk();
    const transport = new stdio.StdioServerTransport(
      (io.input ?? process.stdin) as ConstructorParameters<typeof stdio.StdioServerTransport>[0],
      (io.output ?? process.stdout) as ConstructorParameters<typeof stdio.StdioServerTransport>[1],
    );
    this.watchUpstreams();
    await new Promise<void>((resolve) => {
      const handle = stdio.serveStdio(async (context) => (await this.build(context.era, true, connectionId())) as never, {
        transport,
        onerror: (error) => this.onWarn(`stdio: ${error.message}`),
      });
      const close = (): Promise<void> => handle.close();
      this.closers.add(close);
      const ended = transport.onclose;
      transport.onclose = () => {
        ended?.();
        this.closers.delete(close);
        resolve();
      };
    });
  }

  /**
   * A fetch-style Streamable HTTP handler, `(Request) => Promise<Response>`,
   * for both eras: 2026-07-28 requests statelessly, 2025-era hosts on
   * sessions (at most 256 open, a further `initialize` refused 503; closed
   * after 30 minutes without a request, or by `DELETE`; an unknown session
   * id gets 404). `guard` is checked first on every request: Host, Origin,
   * bearer token.
   *
   * @throws McpClientError for a malformed guard option.
   */
  fetchHandler(guard: HttpGuardOptions = {}): (request: Request) => Promise<Response> {
    return this.guarded(httpGuard(guard));
  }

  /**
   * Serves HTTP on a Node listener at `http://{host}:{port}{path}` (default
   * `127.0.0.1` and `/mcp`; port 0 picks a free one), other paths 404.
   * `bearerToken` is required, on loopback too: every account on the machine
   * can reach a loopback port. `bearerToken: false` serves without one, on
   * loopback only, for a caller that guards the port some other way.
   *
   * @throws McpClientError (as a rejection) for a missing `bearerToken`, `false` on a host that is not loopback, a malformed option, or a port that cannot be bound.
   */
  async listen(
    options: { port: number; host?: string; path?: string; bearerToken: string | false } & Omit<HttpGuardOptions, 'bearerToken'>,
  ): Promise<{ url: string; close(): Promise<void> }> {
    if (!isObject(options)) throw new McpClientError('listen needs options with a port');
    const { port, host = '127.0.0.1', path = '/mcp', bearerToken, ...others } = options;
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new McpClientError('option port must be an integer from 0 to 65535');
    if (typeof host !== 'string' || host === '') throw new McpClientError('option host must be a non-empty string');
    if (typeof path !== 'string' || !path.startsWith('/')) throw new McpClientError('option path must start with /');
    if (bearerToken === undefined) {
      throw new McpClientError('listen needs a bearerToken: every account on this machine can reach a loopback port (bearerToken: false serves without one, on loopback only)');
    }
    if (bearerToken === false && !isLoopbackHost(host)) {
      throw new McpClientError(`listening on ${JSON.stringify(host)}, which is not loopback, needs a bearerToken`);
    }
    const guard: HttpGuardOptions = bearerToken === false ? others : { ...others, bearerToken };
    httpGuard(guard);
    await this.sdk();
    let handler: ((request: Request) => Promise<Response>) | undefined;
    let checks: ReturnType<typeof httpGuard> | undefined;
    const served = await serveNodeHttp(
      { port, host, path },
      (request) => (handler as (request: Request) => Promise<Response>)(request),
      (request) => checks?.refuse(request),
    );
    checks = httpGuard(guard, served.port);
    handler = this.guarded(checks);
    const close = (): Promise<void> => served.close();
    this.closers.add(close);
    return {
      url: served.url,
      close: async () => {
        this.closers.delete(close);
        await served.close();
      },
    };
  }

  /** Stops serving: stdio connections, HTTP sessions and listeners close, waiting calls are cancelled. The provider stays open (its owner closes it). */
  async close(): Promise<void> {
    this.closed = true;
    this.watching?.unsubscribe();
    for (const watch of this.resourceWatches.values()) watch.unsubscribe();
    this.resourceWatches.clear();
    for (const { call, timer } of this.parked.values()) {
      clearTimeout(timer);
      call.abandon('the gateway closed');
    }
    this.parked.clear();
    await Promise.allSettled([...this.closers].map((close) => close()));
    this.closers.clear();
    await Promise.allSettled([...this.httpHandlers].map((handler) => handler.close()));
    this.httpHandlers.clear();
  }

  private async sdk(): Promise<{ sdk: ServerSdk; stdio: Awaited<ReturnType<typeof loadServerSdk>>['stdio'] }> {
    if (this.closed) throw new McpClientError('the gateway is closed');
    return loadServerSdk();
  }

  private guarded(guard: ReturnType<typeof httpGuard>): (request: Request) => Promise<Response> {
    let handler: Promise<{ sdk: ServerSdk; modern: HttpHandler; legacy: LegacySessions }> | undefined;
    return async (request) => {
      const refused = guard.refuse(request);
      if (refused) return refused;
      handler ??= this.sdk().then(({ sdk }) => {
        this.watchUpstreams();
        // 2026-07-28 requests go to the SDK's per-request handler; 2025-era ones to sessions of their own.
        const modern = sdk.createMcpHandler(async (context) => (await this.build(context.era, false, bearerIdentity(context.requestInfo))) as never, {
          legacy: 'reject',
          onerror: (error) => this.onWarn(`http: ${error.message}`),
        }) as unknown as HttpHandler;
        this.httpHandlers.add(modern);
        const legacy = new LegacySessions(sdk, async () => (await this.build('legacy', true, connectionId())) as unknown as SdkServer & { connect(transport: unknown): Promise<void> });
        this.closers.add(() => legacy.close());
        return { sdk, modern, legacy };
      });
      handler.catch(() => (handler = undefined));
      const { sdk, modern, legacy } = await handler;
      if (await sdk.isLegacyRequest(request)) return legacy.handle(request);
      return (await this.paramHeadersRefused(request)) ?? modern.fetch(request);
    };
  }

  // A 2026-07-28 tools/call whose Mcp-Param-* headers disagree with its arguments is answered 400, -32020,
  // before it reaches the SDK (which checks them only for tools on an McpServer).
  private async paramHeadersRefused(request: Request): Promise<Response | undefined> {
    if (request.method !== 'POST') return undefined;
    // The SDK refuses a request whose Mcp-Method or Mcp-Name header disagrees with its body, so these headers
    // may tell which requests have nothing to check: another method, or a kept tool that declares no headers.
    // A request without them, a Base64-encoded name or a name not kept is read as before.
    const method = request.headers.get('mcp-method');
    if (method !== null && method !== 'tools/call') return undefined;
    const named = request.headers.get('mcp-name');
    if (method !== null && named !== null && !named.startsWith('=?base64?') && (await this.keptSchemas()).get(named) === null) return undefined;
    let message: unknown;
    try {
      message = await request.clone().json();
    } catch {
      return undefined;
    }
    if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params) || typeof message.params.name !== 'string') return undefined;
    const { name, arguments: args } = message.params;
    const schema = await this.paramHeaderSchema(name);
    const mismatch = schema === null ? undefined : paramHeaderMismatch(schema, args, request.headers);
    if (mismatch === undefined) return undefined;
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32020, message: `Bad Request: the request headers and body disagree: ${mismatch}` } }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  }

  // The kept schema of a tool for its Mcp-Param check; a name not kept has the provider listed again. Null
  // for a tool that declares no headers, is not listed, or when the listing fails (nothing to check against).
  private async paramHeaderSchema(name: string): Promise<unknown> {
    const kept = await this.keptSchemas();
    if (kept.has(name)) return kept.get(name);
    return (await this.keptSchemas(true)).get(name) ?? null;
  }

  // The kept schemas (empty when the provider's listing fails: nothing to check against, as before).
  private keptSchemas(again = false): Promise<Map<string, unknown>> {
    if (again) this.headerSchemas = undefined;
    if (!this.headerSchemas) {
      const generation = this.toolsGeneration;
      const reading = this.provider.toolsForLlm().then((tools) => headerSchemasOf(tools));
      this.headerSchemas = reading;
      // A listing that failed is not kept: the next request reads the provider again.
      reading.catch(() => {
        if (this.headerSchemas === reading && this.toolsGeneration === generation) this.headerSchemas = undefined;
      });
    }
    return this.headerSchemas.catch(() => new Map<string, unknown>());
  }

  // One SDK server instance: per stdio connection or 2025-era HTTP session (tracked, for notifications), or per 2026-07-28 HTTP request.
  // `base` is who its host is: the connection or session (a fresh id), or for a 2026-07-28 HTTP request its bearer token.
  private async build(era: 'legacy' | 'modern', track: boolean, base: string): Promise<SdkServer> {
    const { sdk } = await this.sdk();
    const withUpstreams = this.upstreams.any;
    const server = new sdk.Server(this.info, {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        ...(withUpstreams ? { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} } : {}),
      },
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
    }) as unknown as SdkServer;
    // Every request counts as its host's while it runs: a legacy server's question tied to no call is declined while two hosts have any.
    const handle = (method: string, handler: Parameters<SdkServer['setRequestHandler']>[1]): void =>
      server.setRequestHandler(method, async (request, ctx) => {
        const principal = principalOf(sdk, base, track, ctx);
        this.inFlight.set(principal, (this.inFlight.get(principal) ?? 0) + 1);
        try {
          return await handler(request, ctx);
        } finally {
          if (ctx.mcpReq.signal.aborted) this.linger(principal);
          const left = (this.inFlight.get(principal) ?? 1) - 1;
          if (left > 0) this.inFlight.set(principal, left);
          else this.inFlight.delete(principal);
        }
      });
    handle('tools/list', async () => {
      try {
        return { tools: await this.listTools() };
      } catch (error) {
        // The reason alone: an upstream error's own members (data) are not the host's to read.
        throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `The tools could not be listed: ${bounded(messageOf(error))}`);
      }
    });
    handle('tools/call', (request, ctx) => this.callTool(sdk, this.hostOf(sdk, server, base, track, ctx), request.params ?? {}, ctx));
    if (withUpstreams) {
      routeUpstreams(sdk, { setRequestHandler: handle }, {
        upstreams: this.upstreams,
        watches: this.resourceWatches,
        onWarn: this.onWarn,
        onUpdated: (uri) => this.announce('resource', uri),
        rounds: (ctx, method, request, run) => this.forward(sdk, this.hostOf(sdk, server, base, track, ctx), ctx, method, request, run),
      });
    }
    if (track) {
      const connection = { server, era };
      this.connections.add(connection);
      const closed = server.onclose;
      server.onclose = () => {
        closed?.();
        this.connections.delete(connection);
        // The connection or session was the host's identity: its "always" answers go with it.
        this.hostGrants.forget(base);
      };
    }
    return server;
  }

  private async listTools(): Promise<Record<string, unknown>[]> {
    const generation = this.toolsGeneration;
    const listed = await this.provider.toolsForLlm();
    // What the host is shown is what its calls are checked against; a list change since the read leaves nothing kept.
    if (generation === this.toolsGeneration) this.headerSchemas = Promise.resolve(headerSchemasOf(listed));
    const tools = listed.filter((tool) => {
      if (!answerTooDeep(tool)) return true;
      this.onWarn(`tool ${JSON.stringify(bounded(String(tool.function?.name)))} is left out: its declaration nests deeper than ${MAX_ANSWER_DEPTH} levels`);
      return false;
    });
    return Promise.all(
      tools.map(async ({ function: { name, description, parameters } }) => {
        const found = await annotationsOf(this.provider, name);
        const annotations = found && !answerTooDeep(found) ? found : undefined;
        return {
          name,
          ...(description === undefined ? {} : { description }),
          inputSchema: parameters?.type === 'object' ? parameters : { type: 'object', ...parameters },
          ...(annotations ? { annotations } : {}),
        };
      }),
    );
  }

  private async callTool(sdk: ServerSdk, host: HostRequest, params: Record<string, unknown>, ctx: SdkContext): Promise<unknown> {
    // Worked out only for a request that brings a state or is answered with one: most calls are neither.
    let bound: string | undefined;
    const binding = (): string => (bound ??= requestBinding(host.principal, 'tools/call', params));
    const state = ctx.mcpReq.requestState();
    let start: ((host: HostRequest) => RunningCall<CallToolResult>) | undefined;
    let permitted: RunningCall<unknown>['permitted'];
    if (typeof state === 'string') {
      const handle = this.openState(sdk, state, binding());
      if (handle.startsWith(ASKED)) {
        // The retry of a call whose permission question this host was put: its answer to that question alone is read.
        const key = handle.slice(ASKED.length);
        const given = host.inputResponses;
        if (given && Object.hasOwn(given, key) && this.firstAnswer(state)) permitted = { key, answer: given[key] };
      } else {
        start = (retry) => this.resume(sdk, handle, retry, 'tools/call');
      }
    }
    if (!start) {
      const name = params.name;
      const args = params.arguments ?? {};
      if (typeof name !== 'string' || !isObject(args)) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, 'tools/call needs a name and an arguments object');
      const tooLarge = argumentsTooLarge(args);
      if (tooLarge) return { content: [{ type: 'text', text: tooLarge }], isError: true };
      // A 2026-07-28 request carries its capabilities with it; a 2025-era host declared them at initialize.
      const modern = ctx.mcpReq.envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] !== undefined;
      start = (first) => this.start(sdk, name, args, first, modern, permitted);
    }
    const outcome = await this.round(sdk, host, binding, 'tools/call', start);
    if ('reply' in outcome) return outcome.reply;
    const missing = this.missing.get(outcome.call);
    if (missing !== undefined) {
      throw new sdk.MissingRequiredClientCapabilityError(
        { requiredCapabilities: { [missing]: {} } },
        `The tool needs the ${JSON.stringify(missing)} capability, which this request's client capabilities do not declare`,
      );
    }
    const permission = outcome.call.permission;
    if (permission) {
      // The answer counts only on this host's retry of this very call: the state seals the question to both.
      const requestState = this.seal.seal(`${ASKED}${permission.key}`, Date.now() + PARKED_MS, binding());
      return sdk.inputRequired({ inputRequests: { [permission.key]: permission.request } as never, requestState });
    }
    if (answerTooDeep(outcome.done)) return { content: [{ type: 'text', text: `The result nests deeper than ${MAX_ANSWER_DEPTH} levels, so it was not passed on` }], isError: true };
    return outcome.done;
  }

  // A forwarded prompts/get or resources/read: `run` does the upstream work
  // once, its questions reaching the host in rounds as a tool call's do.
  private async forward<T>(
    sdk: ServerSdk,
    host: HostRequest,
    ctx: SdkContext,
    method: string,
    request: { params: Record<string, unknown>; server: string | undefined },
    run: (input: InputHooks, signal: AbortSignal) => Promise<T>,
  ): Promise<unknown> {
    const binding = (): string => requestBinding(host.principal, method, request.params);
    const state = ctx.mcpReq.requestState();
    // A state sealed for a tools/call (a permission question's too) does not open here: the method is in its binding.
    const handle = typeof state === 'string' ? this.openState(sdk, state, binding()) : undefined;
    const outcome = await this.round<{ value: T } | { error: unknown }>(sdk, host, binding, method, (first) => {
      if (handle !== undefined) return this.resume(sdk, handle, first, method);
      const call = new RunningCall<{ value: T } | { error: unknown }>(first);
      const ask = this.upstreamAsk(request.server, (question) => call.ask(question));
      call.begin(() => run({ onElicit: ask, onSample: ask, onListRoots: ask }, call.controller.signal).then((value) => ({ value }), (error: unknown) => ({ error })));
      return call;
    });
    if ('reply' in outcome) return outcome.reply;
    if ('error' in outcome.done) throw outcome.done.error;
    return outcome.done.value;
  }

  // One downstream round of a request whose upstream work may ask the host:
  // the call started, or resumed by the host's retry, runs until it ends or
  // has questions; then it is parked and the host gets input_required.
  private async round<T>(sdk: ServerSdk, host: HostRequest, binding: () => string, method: string, start: (host: HostRequest) => RunningCall<T>): Promise<{ reply: unknown } | { done: T; call: RunningCall<T> }> {
    const call = start(host);
    let outcome: RoundOutcome<T>;
    try {
      outcome = await call.next();
    } finally {
      // The last progress of the round reaches the host ahead of the round's answer.
      this.relays.get(call as RunningCall<unknown>)?.end();
      this.relays.delete(call as RunningCall<unknown>);
      call.detach();
    }
    if ('ask' in outcome) return { reply: this.park(sdk, call, method, binding, outcome.ask) };
    this.calls.delete(call.id);
    return { done: outcome.done, call };
  }

  private start(sdk: ServerSdk, name: string, args: Record<string, unknown>, host: HostRequest, modern: boolean, permitted: RunningCall<unknown>['permitted']): RunningCall<CallToolResult> {
    const call = new RunningCall<CallToolResult>(host);
    call.permitted = permitted;
    this.calls.set(call.id, call as RunningCall<unknown>);
    // The 2026-07-28 spec has a server that needs an undeclared capability refuse the request (-32021)
    // rather than go on without it: the upstream call is cancelled and the host told what to declare.
    // A 2025-era host has no such error, so its question is declined and the call goes on.
    const ask = this.upstreamAsk(this.upstreams.prefixOf(name, 'name'), (request) => {
      const capability = CAPABILITY[request.method];
      if (modern && capability !== undefined && !call.hostCan(request.method) && !this.missing.has(call)) {
        this.missing.set(call, capability);
        call.controller.abort();
        this.linger(call.principal);
      }
      return call.ask(request);
    });
    call.begin(async () => {
      let raw: CallToolResult | undefined;
      const options: ExecuteOptions = {
        signal: call.controller.signal,
        onResult: (id, result) => {
          if (id === call.id) raw = result;
        },
        onProgress: (progress) => {
          if (progress.toolCallId === call.id) this.progress(call, progress);
        },
        input: { onElicit: ask, onSample: ask, onListRoots: ask },
      };
      let message: ToolMessage | undefined;
      try {
        [message] = await this.provider.executeToolCalls([{ id: call.id, type: 'function', function: { name, arguments: args } }], options);
      } catch (error) {
        message = failure(call.id, messageOf(error));
      }
      // A result the SDK would not write out as one (malformed blocks) goes as the text it flattens to.
      if (raw && sdk.isCallToolResult(raw)) return raw;
      const answer = message ?? failure(call.id, 'the provider gave no answer for this call');
      return {
        content: [{ type: 'text', text: answer.content }],
        isError: answer.is_error,
        ...(answer.structured_content === undefined ? {} : { structuredContent: answer.structured_content as Record<string, unknown> }),
      };
    });
    return call;
  }

  // Coalesced (latest value, bounded rate): an upstream server flooding progress cannot flood the host.
  private progress(call: RunningCall<unknown>, progress: ToolProgress): void {
    const host = call.current;
    if (host?.progressToken === undefined) return;
    const params: Record<string, unknown> = { progressToken: host.progressToken, progress: progress.progress };
    if (progress.total !== undefined) params.total = progress.total;
    if (progress.message !== undefined) params.message = progress.message;
    let relay = this.relays.get(call);
    if (!relay) this.relays.set(call, (relay = new ProgressRelay()));
    relay.push(() => {
      host.notify({ method: 'notifications/progress', params }).catch((error: unknown) => this.onWarn(`progress could not be sent: ${messageOf(error)}`));
    });
  }

  // An upstream server's question on its way to the call's host: one shaped like the permission form is refused; a
  // 2025-era one (which the wire may tie to no call) is declined while another host has any request in flight,
  // since it may be that host's; an elicitation says which server asks (`server`, the prefix of its tools).
  private upstreamAsk(server: string | undefined, ask: (request: InputRequest) => Promise<unknown>): InputHook {
    return (request) => {
      const refused = imitatesPermissionForm(request);
      if (refused) return Promise.reject(new McpClientError(refused));
      if (request.key === undefined && this.busyHosts() > 1) {
        return Promise.reject(new McpClientError('more than one host has a request in flight, and the server tied its question to no call, so it was declined'));
      }
      return ask(underServerName(request, server));
    };
  }

  // How many hosts have a request in flight, a call waiting for their answer, or a request given up whose server may still ask.
  private busyHosts(): number {
    const hosts = new Set(this.inFlight.keys());
    for (const { call } of this.parked.values()) hosts.add(call.principal);
    const now = Date.now();
    for (const [host, until] of this.lingering) if (until > now) hosts.add(host);
    return hosts.size;
  }

  // Counts a host as busy for LINGER_MS more: its request was given up before its upstream answered.
  private linger(principal: string): void {
    const now = Date.now();
    for (const [host, until] of this.lingering) if (until <= now) this.lingering.delete(host);
    this.lingering.delete(principal);
    // Past the bound the longest-kept goes: the many left still make every untied question declined.
    if (this.lingering.size >= MAX_LINGERING) this.lingering.delete(this.lingering.keys().next().value as string);
    this.lingering.set(principal, now + LINGER_MS);
  }

  private park(sdk: ServerSdk, call: RunningCall<unknown>, method: string, binding: () => string, ask: Record<string, WireInputRequest>): unknown {
    if (this.parked.size >= MAX_PARKED) {
      call.abandon('too many calls wait for answers');
      this.linger(call.principal);
      this.calls.delete(call.id);
      return { content: [{ type: 'text', text: 'The gateway holds too many calls waiting for answers, so this one was cancelled; try again later' }], isError: true };
    }
    const handle = newHandle();
    const timer = setTimeout(() => {
      this.parked.delete(handle);
      this.calls.delete(call.id);
      call.abandon('nobody answered in time');
      this.linger(call.principal);
    }, PARKED_MS);
    timer.unref?.();
    this.parked.set(handle, { call, method, timer });
    return sdk.inputRequired({ inputRequests: ask as never, requestState: this.seal.seal(handle, Date.now() + PARKED_MS, binding()) });
  }

  // Whether a permission state brings its answer for the first time (it is then remembered until it expires).
  private firstAnswer(state: string): boolean {
    if (this.answered.has(state)) return false;
    const now = Date.now();
    if (this.answered.size >= MAX_ANSWERED) {
      for (const [kept, expiry] of this.answered) if (expiry <= now) this.answered.delete(kept);
      // Still full: the oldest go (all live as long, so they are the nearest their expiry).
      for (const kept of this.answered.keys()) {
        if (this.answered.size < MAX_ANSWERED) break;
        this.answered.delete(kept);
      }
    }
    this.answered.set(state, now + PARKED_MS);
    return true;
  }

  // The handle a retry's requestState holds, when this process sealed it for this host and this request.
  private openState(sdk: ServerSdk, state: string, binding: string): string {
    const opened = this.seal.open(state, Date.now(), binding);
    if ('error' in opened) {
      throw new sdk.ProtocolError(
        sdk.ProtocolErrorCode.InvalidParams,
        opened.error === 'expired'
          ? 'The requestState has expired: the call waited too long for its answer. Call the tool again.'
          : 'The requestState was not issued for this request: it belongs to another client, tool or arguments, or was altered, forged, or made by another gateway process. Call the tool again.',
      );
    }
    return opened.handle;
  }

  // The parked call a retry's requestState names (opened by `openState`), tied to the retry and given its answers.
  private resume<T>(sdk: ServerSdk, handle: string, host: HostRequest, method: string): RunningCall<T> {
    const invalid = (message: string): Error => new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, message);
    const entry = this.parked.get(handle);
    if (!entry) throw invalid('The call this requestState belongs to no longer waits for an answer (answered already, expired, or held by another process). Call the tool again.');
    if (entry.method !== method) throw invalid(`The requestState belongs to a ${entry.method} request, not this ${method}.`);
    this.parked.delete(handle);
    clearTimeout(entry.timer);
    const call = entry.call as RunningCall<T>;
    call.attach(host);
    call.answer(host.inputResponses);
    return call;
  }

  private hostOf(sdk: ServerSdk, server: SdkServer, base: string, tracked: boolean, ctx: SdkContext): HostRequest {
    const declared = ctx.mcpReq.envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
    const progressToken = ctx.mcpReq._meta?.progressToken;
    return {
      principal: principalOf(sdk, base, tracked, ctx),
      capabilities: isObject(declared) ? declared : {},
      inputResponses: isObject(ctx.mcpReq.inputResponses) ? ctx.mcpReq.inputResponses : undefined,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
      notify: (notification) => ctx.mcpReq.notify(notification),
      signal: ctx.mcpReq.signal,
    };
  }

  // Upstream list changes and logs, passed on to every host connected.
  private watchUpstreams(): void {
    if (this.watching || !this.upstreams.any) return;
    const watching = new Subscription();
    this.watching = watching;
    for (const [prefix, client] of this.upstreams.clients((failed, error) => this.onWarn(`server ${JSON.stringify(failed)} is not watched: ${messageOf(error)}`))) {
      watching.add(
        client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }).subscribe({
          next: (notification) => {
            const kind = /^notifications\/(tools|prompts|resources)\/list_changed$/.exec(notification.method)?.[1];
            if (kind) this.announce(kind as 'tools' | 'prompts' | 'resources');
          },
          error: (error: unknown) => this.onWarn(`list changes of server ${JSON.stringify(prefix)} are not followed: ${messageOf(error)}`),
        }),
      );
      watching.add(
        client.log$.subscribe({
          next: (message) => {
            for (const { server, era } of this.connections) {
              if (era === 'legacy') server.sendLoggingMessage({ level: message.level, logger: message.logger === undefined ? prefix : `${prefix}/${message.logger}`, data: message.data }).catch(() => undefined);
            }
          },
          // A server that dies ends its stream; its list-changes stream says why.
          error: () => undefined,
        }),
      );
    }
  }

  private announce(kind: 'tools' | 'prompts' | 'resources' | 'resource', uri = ''): void {
    if (kind === 'tools') {
      this.toolsGeneration++;
      this.headerSchemas = undefined;
    }
    for (const { server } of this.connections) {
      const sent =
        kind === 'tools' ? server.sendToolListChanged() : kind === 'prompts' ? server.sendPromptListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendResourceUpdated({ uri });
      sent.catch(() => undefined);
    }
    for (const { notify } of this.httpHandlers) {
      if (kind === 'tools') notify.toolsChanged();
      else if (kind === 'prompts') notify.promptsChanged();
      else if (kind === 'resources') notify.resourcesChanged();
      else notify.resourceUpdated(uri);
    }
  }
}

/** A fresh identity for a host on its own connection (stdio) or session (2025-era HTTP). */
function connectionId(): string {
  return `connection:${randomUUID()}`;
}

// A 2026-07-28 HTTP request has no session: its host is who its bearer token says (the one token of a
// gateway, or none, is every host's; a digest, so the token is kept nowhere).
function bearerIdentity(request: Request | undefined): string {
  const authorization = request?.headers.get('authorization') ?? '';
  return `bearer:${createHash('sha256').update(authorization).digest('base64url')}`;
}

// Who a request's host is: the connection or session, or for a 2026-07-28 HTTP request its token and the
// client name the request gives (a label, not proof: it keeps apart hosts that share a token honestly).
function principalOf(sdk: ServerSdk, base: string, tracked: boolean, ctx: SdkContext): string {
  if (tracked) return base;
  const info = ctx.mcpReq.envelope?.[sdk.CLIENT_INFO_META_KEY];
  const name = isObject(info) && typeof info.name === 'string' ? info.name.slice(0, MAX_CLIENT_NAME_CHARS) : '';
  return JSON.stringify([base, name]);
}

// What a sealed requestState is bound to: the host, the method and the request's own parameters (all but the
// answers, the state and _meta, which a retry changes). Parameters too deep to write out bind to nothing a retry can match.
function requestBinding(principal: string, method: string, params: Record<string, unknown>): string {
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(params)) if (key !== 'inputResponses' && key !== 'requestState' && key !== '_meta') own[key] = params[key];
  let text: string;
  try {
    text = JSON.stringify([principal, method, own]);
  } catch {
    text = randomUUID();
  }
  return createHash('sha256').update(text).digest('base64url');
}

// Each listed tool's input schema when it declares Mcp-Param headers, else null, by name (the first tool of a name, as a lookup by name finds).
function headerSchemasOf(tools: LlmTool[]): Map<string, unknown> {
  const kept = new Map<string, unknown>();
  for (const tool of tools) {
    const name = tool.function?.name;
    if (typeof name !== 'string' || kept.has(name)) continue;
    kept.set(name, declaresParamHeaders(tool.function.parameters) ? tool.function.parameters : null);
  }
  return kept;
}
