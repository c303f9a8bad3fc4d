// The gateway's MCP server side, apart from what its calls do: the SDK server instance each host talks to
// (its capabilities and request handlers), the stdio and HTTP faces that make those instances, who each
// request's host is, and the list changes and logs passed on to the hosts that stay connected. What a
// tools/call or a forwarded read does once it arrives is `HostCalls`'.
import { createHash, randomUUID } from 'node:crypto';
import { Subscription } from 'rxjs';
import { annotationsOf, type ToolProvider } from '../tools/bridge.js';
import { declarationOf } from '../tools/tool-declaration.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { isObject, messageOf } from '../util/values.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/types.js';
import { answerTooDeep, MAX_ANSWER_DEPTH } from './argument-bounds.js';
import type { BusyHosts } from './busy-hosts.js';
import type { HostCalls } from './host-calls.js';
import type { HostSearches } from './host-searches.js';
import { inHostTrace } from './host-trace.js';
import { httpGuard, isLoopbackHost, type HttpGuard, type HttpGuardOptions } from './http-guard.js';
import { LegacySessions } from './legacy-sessions.js';
import { type NodeHandler, serveNodeHttp } from './node-http.js';
import type { ParamHeaders } from './param-headers.js';
import type { HostRequest } from './running-call.js';
import { loadServerSdk, type SdkContext, type SdkServer, type ServerSdk, type ServerStdio } from './server-sdk.js';
import type { Upstreams } from './upstreams.js';
import { bounded, routeUpstreams } from './upstream-routes.js';

// The longest client name a 2026-07-28 host's identity takes in.
const MAX_CLIENT_NAME_CHARS = 200;

interface HttpHandler {
  fetch(request: Request, options?: { parsedBody?: unknown }): Promise<Response>;
  close(): Promise<void>;
  notify: { toolsChanged(): void; promptsChanged(): void; resourcesChanged(): void; resourceUpdated(uri: string): void };
}

/** What `Serving` is given by the gateway. */
export interface ServingOptions {
  provider: ToolProvider;
  upstreams: Upstreams;
  /** `serverInfo`. */
  info: { name: string; version: string };
  instructions: string | undefined;
  onWarn: (message: string) => void;
  /** Where tools/call, prompts/get and resources/read go once their host is known. */
  hostCalls: HostCalls;
  /** Told of every request while it runs, by host. */
  busy: BusyHosts;
  /** The Mcp-Param-* check, and the tool listing it learns from. */
  paramHeaders: ParamHeaders;
  /** Each host's own `ToolSearch`, when the provider is one: its list is the host's, and so are its calls. */
  searches?: HostSearches;
}

/**
 * Serves the gateway to hosts: over stdio, as a Streamable HTTP fetch
 * handler for both eras, or on a Node listener; one SDK server instance per
 * stdio connection, 2025-era session or 2026-07-28 request.
 */
export class Serving {
  private readonly options: ServingOptions;
  // Connections served over stdio or 2025-era sessions, by era and host: list changes and (legacy) logs go to each.
  // `logLevel` is what a 2025-era host asked for with logging/setLevel: upstream log messages below it are not sent.
  private readonly connections = new Set<{ server: SdkServer; era: 'legacy' | 'modern'; principal: string; logLevel?: LoggingLevel }>();
  private readonly httpHandlers = new Set<HttpHandler>();
  private readonly closers = new Set<() => Promise<void>>();
  private readonly resourceWatches = new Map<string, Subscription>();
  private watching: Subscription | undefined;
  private closed = false;

  constructor(options: ServingOptions) {
    this.options = options;
  }

  /** `Gateway#serveStdio`. */
  async serveStdio(io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream }): Promise<void> {
    const { stdio } = await this.sdk();
    const transport = new stdio.StdioServerTransport(
      (io.input ?? process.stdin) as ConstructorParameters<typeof stdio.StdioServerTransport>[0],
      (io.output ?? process.stdout) as ConstructorParameters<typeof stdio.StdioServerTransport>[1],
    );
    this.watchUpstreams();
    await new Promise<void>((resolve) => {
      const handle = stdio.serveStdio(async (context) => (await this.build(context.era, true, connectionId())) as never, {
        transport,
        onerror: (error) => this.options.onWarn(`stdio: ${error.message}`),
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

  /** `Gateway#listen`. */
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
    let handler: NodeHandler | undefined;
    let checks: HttpGuard | undefined;
    const served = await serveNodeHttp(
      { port, host, path },
      (request, body) => (handler as NodeHandler)(request, body),
      (request) => checks?.refuse(request),
    );
    checks = httpGuard(guard, served.port);
    // The listener has the guard refuse from each request's head, before its body is read: not asked twice.
    handler = this.routed();
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

  /**
   * A fetch-style handler for both eras, `guard` checked first on every
   * request (`Gateway#fetchHandler`). It takes the request alone: runtimes
   * call a fetch handler with a second argument of their own (Deno's info,
   * Bun's server, a Workers env, Next.js's params), never to be taken for
   * the parsed body only `listen` hands its handler.
   */
  guarded(guard: HttpGuard): (request: Request) => Promise<Response> {
    const routed = this.routed();
    return async (request) => guard.refuse(request) ?? routed(request);
  }

  // Serves a request the guard let through: 2026-07-28 ones through the SDK's per-request handler, 2025-era ones in sessions.
  private routed(): NodeHandler {
    let handler: Promise<{ sdk: ServerSdk; modern: HttpHandler; legacy: LegacySessions }> | undefined;
    return async (request, body) => {
      handler ??= this.sdk().then(({ sdk }) => {
        this.watchUpstreams();
        // 2026-07-28 requests go to the SDK's per-request handler; 2025-era ones to sessions of their own.
        const modern = sdk.createMcpHandler(async (context) => (await this.build(context.era, false, bearerIdentity(context.requestInfo))) as never, {
          legacy: 'reject',
          onerror: (error) => this.options.onWarn(`http: ${error.message}`),
        }) as unknown as HttpHandler;
        this.httpHandlers.add(modern);
        const legacy = new LegacySessions(sdk, async () => (await this.build('legacy', true, connectionId())) as unknown as SdkServer & { connect(transport: unknown): Promise<void> });
        this.closers.add(() => legacy.close());
        return { sdk, modern, legacy };
      });
      const pending = handler;
      let ready: { sdk: ServerSdk; modern: HttpHandler; legacy: LegacySessions };
      try {
        ready = await pending;
      } catch (error) {
        // The next request tries again.
        if (handler === pending) handler = undefined;
        throw error;
      }
      const { sdk, modern, legacy } = ready;
      if (await sdk.isLegacyRequest(request, body?.json)) return legacy.handle(request, body);
      // A 2026-07-28 tools/call whose Mcp-Param-* headers disagree with its arguments is answered before it reaches the SDK.
      return (await this.options.paramHeaders.refuse(request, body)) ?? modern.fetch(request, body ? { parsedBody: body.json } : undefined);
    };
  }

  /** Serves nothing more, and stops following the upstream servers (the first step of `Gateway#close`). */
  stop(): void {
    this.closed = true;
    this.watching?.unsubscribe();
    for (const watch of this.resourceWatches.values()) watch.unsubscribe();
    this.resourceWatches.clear();
  }

  /** Closes stdio connections, HTTP sessions and listeners. */
  async close(): Promise<void> {
    this.stop();
    await Promise.allSettled([...this.closers].map((close) => close()));
    this.closers.clear();
    await Promise.allSettled([...this.httpHandlers].map((handler) => handler.close()));
    this.httpHandlers.clear();
  }

  private async sdk(): Promise<{ sdk: ServerSdk; stdio: ServerStdio }> {
    if (this.closed) throw new McpClientError('the gateway is closed');
    return loadServerSdk();
  }

  // One SDK server instance: per stdio connection or 2025-era HTTP session (tracked, for notifications), or per 2026-07-28 HTTP request.
  // `base` is who its host is: the connection or session (a fresh id), or for a 2026-07-28 HTTP request its bearer token.
  private async build(era: 'legacy' | 'modern', track: boolean, base: string): Promise<SdkServer> {
    const { sdk } = await this.sdk();
    const { upstreams, info, instructions, onWarn, hostCalls, busy } = this.options;
    const withUpstreams = upstreams.any;
    const server = new sdk.Server(info, {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        ...(withUpstreams ? { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} } : {}),
      },
      ...(instructions === undefined ? {} : { instructions }),
    }) as unknown as SdkServer;
    // Every request counts as its host's while it runs: a legacy server's question tied to no call is declined while two hosts have any.
    const handle = (method: string, handler: Parameters<SdkServer['setRequestHandler']>[1]): void =>
      server.setRequestHandler(method, async (request, ctx) => {
        const principal = principalOf(sdk, base, track, ctx);
        busy.enter(principal);
        try {
          return await inHostTrace(ctx.mcpReq._meta, () => handler(request, ctx));
        } finally {
          busy.leave(principal, ctx.mcpReq.signal.aborted);
        }
      });
    handle('tools/list', async (_request, ctx) => {
      try {
        return { tools: await this.listTools(principalOf(sdk, base, track, ctx)) };
      } catch (error) {
        // The reason alone: an upstream error's own members (data) are not the host's to read.
        throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `The tools could not be listed: ${bounded(messageOf(error))}`);
      }
    });
    handle('tools/call', (request, ctx) => hostCalls.callTool(sdk, hostOf(sdk, server, base, track, ctx), request.params ?? {}, ctx));
    if (withUpstreams) {
      routeUpstreams(sdk, { setRequestHandler: handle }, {
        upstreams,
        watches: this.resourceWatches,
        onWarn,
        onUpdated: (uri) => this.announce('resource', uri),
        rounds: (ctx, method, request, run) => hostCalls.forward(sdk, hostOf(sdk, server, base, track, ctx), ctx, method, request, run),
      });
    }
    if (track) {
      const connection: { server: SdkServer; era: 'legacy' | 'modern'; principal: string; logLevel?: LoggingLevel } = { server, era, principal: base };
      this.connections.add(connection);
      handle('logging/setLevel', async (request) => {
        const level = (request.params as { level?: unknown } | undefined)?.level;
        if (!LOGGING_LEVELS.includes(level as LoggingLevel)) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `level must be one of ${LOGGING_LEVELS.join(', ')}`);
        connection.logLevel = level as LoggingLevel;
        return {};
      });
      // A 2025-era host may be told that a page it was sent to is done (notifications/elicitation/complete), on its own session only.
      if (era === 'legacy') hostCalls.reachHost(base, (notification) => server.notification(notification));
      const closed = server.onclose;
      server.onclose = () => {
        closed?.();
        this.connections.delete(connection);
        // The connection or session was the host's identity: its "always" answers go with it.
        hostCalls.forgetHost(base);
        this.options.searches?.forget(base);
      };
    }
    return server;
  }

  /**
   * Tells one host that its list changed (a search of its own loaded tools):
   * on its stdio connection or 2025-era session alone. A 2026-07-28 host has
   * no session, so every 2026-07-28 host listening is told, and each lists
   * its own tools again.
   */
  toolsChangedFor(principal: string): void {
    let reached = false;
    for (const connection of this.connections) {
      if (connection.principal !== principal) continue;
      reached = true;
      connection.server.sendToolListChanged().catch(() => undefined);
    }
    if (!reached) for (const { notify } of this.httpHandlers) notify.toolsChanged();
  }

  // The tools a host is shown: the provider's, or with a ToolSearch that host's own.
  private async listTools(principal: string): Promise<Record<string, unknown>[]> {
    const { onWarn, searches } = this.options;
    const provider = searches ? searches.of(principal) : this.options.provider;
    const listed = searches ? await provider.toolsForLlm() : await this.options.paramHeaders.readTools();
    const tools = listed.filter((tool) => {
      if (!answerTooDeep(tool)) return true;
      onWarn(`tool ${JSON.stringify(bounded(String(tool.function?.name)))} is left out: its declaration nests deeper than ${MAX_ANSWER_DEPTH} levels`);
      return false;
    });
    return Promise.all(
      tools.map(async ({ function: { name, description, parameters } }) => {
        const [found, declared] = await Promise.all([annotationsOf(provider, name), declarationOf(provider, name)]);
        const annotations = found && !answerTooDeep(found) ? withTitleOf(found, declared?.name, name) : undefined;
        return {
          name,
          ...keptFrom(declared, name),
          ...(description === undefined ? {} : { description }),
          inputSchema: parameters?.type === 'object' ? parameters : { type: 'object', ...parameters },
          ...(annotations ? { annotations } : {}),
        };
      }),
    );
  }

  // Upstream list changes and logs, passed on to every host connected.
  private watchUpstreams(): void {
    const { upstreams, onWarn } = this.options;
    if (this.watching || !upstreams.any) return;
    const watching = new Subscription();
    this.watching = watching;
    for (const [prefix, client] of upstreams.clients((failed, error) => onWarn(`server ${JSON.stringify(failed)} is not watched: ${messageOf(error)}`))) {
      watching.add(
        client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }).subscribe({
          next: (notification) => {
            const kind = /^notifications\/(tools|prompts|resources)\/list_changed$/.exec(notification.method)?.[1];
            if (kind) this.announce(kind as 'tools' | 'prompts' | 'resources');
          },
          error: (error: unknown) => onWarn(`list changes of server ${JSON.stringify(prefix)} are not followed: ${messageOf(error)}`),
        }),
      );
      watching.add(
        client.elicitationComplete$.subscribe({
          next: ({ elicitationId }) => this.options.hostCalls.elicitationComplete(prefix, elicitationId),
          error: () => undefined,
        }),
      );
      watching.add(
        client.log$.subscribe({
          next: (message) => {
            for (const { server, era, logLevel } of this.connections) {
              if (era === 'legacy' && sentAt(message.level, logLevel)) server.sendLoggingMessage({ level: message.level, logger: message.logger === undefined ? prefix : `${prefix}/${message.logger}`, data: message.data }).catch(() => undefined);
            }
          },
          // A server that dies ends its stream; its list-changes stream says why.
          error: () => undefined,
        }),
      );
    }
  }

  private announce(kind: 'tools' | 'prompts' | 'resources' | 'resource', uri = ''): void {
    if (kind === 'tools') this.options.paramHeaders.toolsChanged();
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

// Whether a message of `level` goes to a host that set `wanted` (one that set none gets every message, as before it could ask).
function sentAt(level: LoggingLevel, wanted: LoggingLevel | undefined): boolean {
  return wanted === undefined || LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(wanted);
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

// What a call knows of the request serving it, read from the SDK's context.
function hostOf(sdk: ServerSdk, server: SdkServer, base: string, tracked: boolean, ctx: SdkContext): HostRequest {
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

/**
 * What a served tool keeps of its server's declaration besides what the
 * provider stack shows (name, description, parameters) and the annotations
 * it vouches for: its title, its icons (checked by the client that listed
 * them), its outputSchema and its _meta, each left out when it nests too deep.
 * A host shows the title in place of the name, and the name is where the
 * gateway says which server a tool is from: a title served under another
 * name carries that name, so no upstream can title its tool as another's.
 */
function keptFrom(declared: Record<string, unknown> | undefined, served: string): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (!declared) return kept;
  for (const key of ['title', 'icons', 'outputSchema', '_meta'] as const) {
    const value = Object.hasOwn(declared, key) ? declared[key] : undefined;
    if (value !== undefined && !answerTooDeep(value) && holdsAtMost(value, DECLARED_VALUES)) kept[key] = value;
  }
  return withTitleOf(kept, declared.name, served);
}

/** `holder` with its `title` (if any) cut to size and, when the tool is served under another name than its own, followed by that name. */
function withTitleOf<T extends object>(holder: T, own: unknown, served: string): T {
  if (!Object.hasOwn(holder, 'title')) return holder;
  const { title, ...rest } = holder as T & { title?: unknown };
  if (typeof title !== 'string') return rest as T;
  const cut = title.slice(0, MAX_TITLE_CHARS);
  return { ...rest, title: own === served ? cut : `${cut} (${served})` } as T;
}

/** The most characters of an upstream's title a host is shown. */
const MAX_TITLE_CHARS = 200;

/**
 * The most values a kept member may hold: an outputSchema past it is one the
 * client does not check (so every call of the tool fails closed here
 * anyway), and a host that compiles it could spend seconds doing so.
 */
const DECLARED_VALUES = 20_000;

/** Whether `value` holds at most `limit` values, counted iteratively and stopping at the limit. */
function holdsAtMost(value: unknown, limit: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const top = stack.pop();
    if (++count > limit) return false;
    if (typeof top === 'object' && top !== null) for (const inner of Object.values(top)) stack.push(inner);
  }
  return true;
}
