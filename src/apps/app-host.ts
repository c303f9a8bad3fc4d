import { firstValueFrom, type Observable, Subscription, timeout } from 'rxjs';
import { Correlator } from '../client/correlator.js';
import { McpProtocolError } from '../errors/protocol-errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import type { CallToolResult } from '../protocol/types.js';
import type { Transport } from '../transport/transport.js';
import { messageOf } from '../util/values.js';
import type { AppEvent, AppImplementation, DisplayMode, McpUiHostContext } from './app-events.js';
import type { AppCsp, AppResource } from './app-resource.js';
import { reachableCsp } from './csp-reach.js';
import { runViewToolCall, type ViewCallRoute } from './view-tool-calls.js';
import { isViewRequestMethod, viewNotification, viewRequest, type ViewRequestMethod, type ViewRequestParams } from './view-messages.js';

/** The MCP Apps revision this host speaks. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;
const REFUSED = -32000;

/** How many of a view's `tools/call` and `resources/read` may run at once; past it, requests are refused until one ends. */
export const MAX_VIEW_CALLS = 16;

/** What one view conversation needs. */
export interface AppHostOptions extends ViewCallRoute {
  transport: Transport;
  resource: AppResource;
  /** The arguments the tool was called with. */
  arguments: Record<string, unknown>;
  /** The tool's result (erroring when the call failed); subscribed once. */
  result$: Observable<CallToolResult>;
  /** The host context, current value first. */
  hostContext$: Observable<McpUiHostContext>;
  /** The display modes the host offers. */
  displayModes: DisplayMode[];
  hostInfo: AppImplementation;
  /** Where every event goes. */
  emit: (event: AppEvent) => void;
  /** Told about dropped or unanswerable messages, and about declared CSP origins refused. */
  warn: (message: string) => void;
  /**
   * Lets the view's declared CSP origins (`_meta.ui.csp`) be on this machine
   * (`localhost`, 127/8, `::1`…), link-local (169.254/16, fe80::/10) or in a
   * private network (10/8, 172.16/12, 192.168/16, fc00::/7, `.local`…). Off
   * by default: such an origin is taken out of the policy, and `warn` says
   * so, since a view is a server's code running inside the user's network.
   * Turn it on only for a host that renders views of servers the user runs
   * locally and trusts with the user's own machine.
   */
  allowPrivateNetworkOrigins?: boolean;
}

// A result or a cancellation, whichever the tool call came to.
type Outcome = { result: CallToolResult } | { cancelled: string };

/**
 * The host's side of one view: answers the view's requests, relays what it
 * asks for as events, and sends it the tool's input, result and the host
 * context, never before the view has said `ui/notifications/initialized`.
 * Requests to the view (`ui/resource-teardown`) go through rxmcp's own
 * `Correlator`, as a client's requests to a server do.
 */
export class AppHost {
  private readonly correlator: Correlator;
  private readonly subscriptions = new Subscription();
  private readonly calls = new Map<RequestId, AbortController>();
  private context: McpUiHostContext = {};
  private mode: DisplayMode = 'inline';
  private appModes: DisplayMode[] | undefined;
  private handshake: { appInfo: AppImplementation; appCapabilities: Record<string, unknown>; protocolVersion: string } | undefined;
  private initialized = false;
  private resourceSent = false;
  private outcome: Outcome | undefined;
  // The declaration as granted: origins off the public network taken out.
  private readonly csp: AppCsp | undefined;

  constructor(private readonly options: AppHostOptions) {
    this.correlator = new Correlator(options.transport, options.warn);
    if (options.resource.csp !== undefined) {
      const reachable = reachableCsp(options.resource.csp, options.allowPrivateNetworkOrigins === true);
      for (const refusal of reachable.refused) options.warn(refusal);
      this.csp = reachable.csp;
    }
  }

  /** Starts listening to the view and the tool call. */
  start(): void {
    const { options } = this;
    this.subscriptions.add(this.correlator.notifications$.subscribe({ next: (note) => this.onNotification(note), error: () => undefined }));
    this.subscriptions.add(this.correlator.serverRequests$.subscribe({ next: (request) => this.onRequest(request), error: () => undefined }));
    this.subscriptions.add(
      options.hostContext$.subscribe({
        next: (context) => {
          if (context.displayMode !== undefined) this.mode = context.displayMode;
          this.context = { ...this.context, ...context };
          if (this.initialized) this.notify('ui/notifications/host-context-changed', { ...context });
        },
        error: (error: unknown) => options.warn(`the host context ended with an error, and the view keeps the last one: ${messageOf(error)}`),
      }),
    );
    this.subscriptions.add(
      options.result$.subscribe({
        next: (result) => {
          options.emit({ kind: 'result', result });
          this.settle({ result });
        },
        error: (error: unknown) => {
          const reason = messageOf(error);
          options.emit({ kind: 'tool-cancelled', reason });
          this.settle({ cancelled: reason });
        },
      }),
    );
  }

  /**
   * Asks an initialised view to tear down and waits for its answer, at most
   * `timeoutMs`; resolves either way. A view that never initialised is sent nothing.
   */
  async teardown(timeoutMs: number): Promise<void> {
    if (!this.initialized) return;
    // The call is about to be cancelled: the view hears it first, as the spec asks for any cancellation.
    if (this.outcome === undefined) this.settle({ cancelled: 'the host closed the view' });
    const request = this.correlator.request('ui/resource-teardown', (id) => ({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: {} }));
    await firstValueFrom(request.pipe(timeout(timeoutMs))).catch(() => undefined);
  }

  /** Stops everything: the tool call if still running, the view's calls in flight, the transport. */
  close(): void {
    this.subscriptions.unsubscribe();
    for (const controller of this.calls.values()) controller.abort();
    this.calls.clear();
    this.correlator.close();
    void this.options.transport.close();
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    if (this.initialized) this.sendOutcome();
  }

  private sendOutcome(): void {
    if (this.outcome === undefined) return;
    if ('result' in this.outcome) this.notify('ui/notifications/tool-result', { ...this.outcome.result });
    else this.notify('ui/notifications/tool-cancelled', { reason: this.outcome.cancelled });
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.correlator.send({ jsonrpc: '2.0', method, params });
  }

  private onNotification(note: JsonRpcNotification): void {
    const { emit } = this.options;
    switch (note.method) {
      case 'ui/notifications/sandbox-proxy-ready':
        if (!this.resourceSent && viewNotification(note.method, note.params)) this.sendResource();
        return;
      case 'ui/notifications/initialized':
        if (this.initialized || this.handshake === undefined || !viewNotification(note.method, note.params)) return;
        this.initialized = true;
        emit({ kind: 'initialized', ...this.handshake });
        this.notify('ui/notifications/tool-input', { arguments: this.options.arguments });
        this.sendOutcome();
        return;
      case 'ui/notifications/size-changed': {
        const size = viewNotification(note.method, note.params);
        if (size) emit({ kind: 'size', ...size });
        return;
      }
      case 'ui/notifications/request-teardown':
        if (viewNotification(note.method, note.params)) emit({ kind: 'request-teardown' });
        return;
      case 'notifications/message': {
        const log = viewNotification(note.method, note.params);
        if (log) emit(log.logger === undefined ? { kind: 'log', level: log.level, data: log.data } : { kind: 'log', level: log.level, logger: log.logger, data: log.data });
        return;
      }
      case 'notifications/cancelled': {
        const cancelled = viewNotification(note.method, note.params);
        if (cancelled) this.calls.get(cancelled.requestId)?.abort();
        return;
      }
      default:
        this.options.warn(`a view's notification ${JSON.stringify(note.method)} was ignored`);
    }
  }

  private sendResource(): void {
    this.resourceSent = true;
    const { html, permissions } = this.options.resource;
    const { csp } = this;
    const params: Record<string, unknown> = { html };
    if (csp !== undefined) params.csp = csp;
    if (permissions !== undefined) params.permissions = permissions;
    this.notify('ui/notifications/sandbox-resource-ready', params);
  }

  private onRequest(request: JsonRpcRequest): void {
    const { method } = request;
    if (!isViewRequestMethod(method)) {
      this.fail(request.id, METHOD_NOT_FOUND, `method ${JSON.stringify(method)} is not offered to views`);
      return;
    }
    const params = viewRequest(method, request.params);
    if (params === undefined) {
      this.fail(request.id, INVALID_PARAMS, `invalid params for ${method}`);
      return;
    }
    if (method !== 'ui/initialize' && method !== 'ping' && this.handshake === undefined) {
      this.fail(request.id, REFUSED, `${method} before ui/initialize`);
      return;
    }
    this.handle(method, request.id, params);
  }

  private handle(method: ViewRequestMethod, id: RequestId, params: Record<string, unknown>): void {
    const { emit } = this.options;
    switch (method) {
      case 'ui/initialize':
        this.initialize(id, params as ViewRequestParams<'ui/initialize'>);
        return;
      case 'ping':
        this.answer(id, {});
        return;
      case 'tools/call':
        this.callTool(id, params as ViewRequestParams<'tools/call'>);
        return;
      case 'resources/read':
        this.readResource(id, (params as ViewRequestParams<'resources/read'>).uri);
        return;
      case 'ui/message': {
        const { content } = params as ViewRequestParams<'ui/message'>;
        emit({ kind: 'message', role: 'user', content });
        this.answer(id, {});
        return;
      }
      case 'ui/open-link': {
        const url = linkOf((params as ViewRequestParams<'ui/open-link'>).url);
        if (url === undefined) {
          this.fail(id, INVALID_PARAMS, 'Invalid URL: only http and https links open');
          return;
        }
        emit({ kind: 'open-link', url });
        this.answer(id, {});
        return;
      }
      case 'ui/update-model-context': {
        const update = params as ViewRequestParams<'ui/update-model-context'>;
        const event: AppEvent = { kind: 'model-context' };
        if (update.content !== undefined) event.content = update.content;
        if (update.structuredContent !== undefined) event.structuredContent = update.structuredContent;
        emit(event);
        this.answer(id, {});
        return;
      }
      case 'ui/request-display-mode':
        this.requestMode(id, (params as ViewRequestParams<'ui/request-display-mode'>).mode);
        return;
    }
  }

  private initialize(id: RequestId, params: ViewRequestParams<'ui/initialize'>): void {
    this.handshake = { appInfo: params.appInfo, appCapabilities: params.appCapabilities, protocolVersion: params.protocolVersion };
    this.appModes = params.appCapabilities.availableDisplayModes;
    const { permissions } = this.options.resource;
    const { csp } = this;
    const sandbox: Record<string, unknown> = {};
    if (csp !== undefined) sandbox.csp = csp;
    if (permissions !== undefined) sandbox.permissions = permissions;
    this.answer(id, {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.options.hostInfo,
      hostCapabilities: {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        updateModelContext: { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {}, structuredContent: {} },
        message: { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {} },
        sandbox,
      },
      hostContext: this.hostContext(),
    });
  }

  private hostContext(): Record<string, unknown> {
    return { ...this.context, displayMode: this.mode, availableDisplayModes: [...this.options.displayModes] };
  }

  private requestMode(id: RequestId, requested: DisplayMode): void {
    const offered = this.options.displayModes.includes(requested) && (this.appModes === undefined || this.appModes.includes(requested));
    const granted = offered ? requested : this.mode;
    const changed = granted !== this.mode;
    this.mode = granted;
    this.answer(id, { mode: granted });
    this.options.emit({ kind: 'display-mode', requested, granted });
    if (changed) this.notify('ui/notifications/host-context-changed', { displayMode: granted });
  }

  /**
   * The height the frame should take when the view reports `reported`: the
   * host's fixed `containerDimensions.height` if it set one, else the view's,
   * capped at `containerDimensions.maxHeight`.
   */
  frameHeight(reported: number): number {
    const dimensions = this.context.containerDimensions;
    if (dimensions?.height !== undefined) return dimensions.height;
    return dimensions?.maxHeight === undefined ? reported : Math.min(reported, dimensions.maxHeight);
  }

  // A view that floods the host with calls gets refusals, not a queue. A
  // request reusing the id of one still running is refused too: it would
  // take that one's place in \`calls\`, so neither the bound nor close() would
  // see the first any more.
  private busy(id: RequestId, method: string): boolean {
    if (this.calls.has(id)) {
      this.fail(id, -32600, `${method} refused: request id ${JSON.stringify(id)} is still in use`);
      return true;
    }
    if (this.calls.size < MAX_VIEW_CALLS) return false;
    this.fail(id, REFUSED, `${method} refused: ${MAX_VIEW_CALLS} of this view's requests are still running`);
    return true;
  }

  private callTool(id: RequestId, params: ViewRequestParams<'tools/call'>): void {
    if (this.busy(id, 'tools/call')) return;
    const args = params.arguments ?? {};
    const controller = new AbortController();
    this.calls.set(id, controller);
    const { emit } = this.options;
    runViewToolCall(this.options, params.name, args, controller.signal).then(
      (outcome) => {
        this.calls.delete(id);
        if ('refused' in outcome) {
          emit({ kind: 'tool-call', name: params.name, arguments: args, refused: outcome.refused });
          this.fail(id, REFUSED, outcome.refused);
        } else {
          emit({ kind: 'tool-call', name: params.name, arguments: args, result: outcome.result });
          this.answer(id, { ...outcome.result });
        }
      },
      (error: unknown) => {
        this.calls.delete(id);
        emit({ kind: 'tool-call', name: params.name, arguments: args, error: messageOf(error) });
        const code = error instanceof McpProtocolError && error.code !== undefined ? error.code : REFUSED;
        this.fail(id, code, messageOf(error));
      },
    );
  }

  private readResource(id: RequestId, uri: string): void {
    if (this.busy(id, 'resources/read')) return;
    const controller = new AbortController();
    this.calls.set(id, controller);
    firstValueFrom(this.options.client.readResource(uri, { signal: controller.signal })).then(
      (result) => {
        this.calls.delete(id);
        this.answer(id, { ...result });
      },
      (error: unknown) => {
        this.calls.delete(id);
        this.fail(id, error instanceof McpProtocolError && error.code !== undefined ? error.code : REFUSED, messageOf(error));
      },
    );
  }

  private answer(id: RequestId, result: Record<string, unknown>): void {
    this.correlator.send({ jsonrpc: '2.0', id, result });
  }

  private fail(id: RequestId, code: number, message: string): void {
    this.correlator.send({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

// An http(s) URL, as the URL parser writes it; anything else is refused.
function linkOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
