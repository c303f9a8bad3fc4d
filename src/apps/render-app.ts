import { isObservable, NEVER, Observable, of, startWith } from 'rxjs';
import type { ToolProvider } from '../tools/bridge.js';
import type { McpClient } from '../client/mcp-client.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { CallToolResult } from '../protocol/types.js';
import type { AppEvent, AppImplementation, DisplayMode, McpUiHostContext } from './app-events.js';
import { AppHost } from './app-host.js';
import { type AppPermissions, type AppResource, loadAppResource } from './app-resource.js';
import { permissionsAllow } from './csp.js';
import { PROXY_SANDBOX } from './sandbox-proxy.js';
import { WindowTransport } from './window-transport.js';

/** What `renderApp` renders, where, and for whom. */
export interface RenderAppOptions {
  /** The view's server: its catalogue says what the view may call, and its resources are what the view may read. */
  client: McpClient;
  /** The stack the view's own `tools/call`s go through (a Policy, a Registry…); default the client itself. */
  provider?: ToolProvider;
  /** The server's tool name as `provider` knows it (a Registry's prefix, say); default unchanged. */
  toolName?: (serverName: string) => string;
  /** The tool whose view is rendered. */
  tool: string;
  /** The arguments of the call, sent to the view as its tool input. Default `{}`. */
  arguments?: Record<string, unknown>;
  /** The result in hand: the tool is then not called. */
  result?: CallToolResult;
  /** Where the sandbox frame goes. */
  container: HTMLElement;
  /** The sandbox proxy page (see `sandboxProxyHtml`), on another origin than the page. */
  sandboxUrl: string | URL;
  /** What the view is told about its surroundings; each new value of an Observable is sent as `host-context-changed`. */
  hostContext?: McpUiHostContext | Observable<McpUiHostContext>;
  /** The display modes the host offers. Default `['inline']`. */
  displayModes?: DisplayMode[];
  /** How the host names itself to the view. Default `{ name: 'rxmcp', version: '0' }`. */
  hostInfo?: AppImplementation;
  /** How long the view has to answer `ui/resource-teardown`. Default 2000 ms. */
  timeoutMs?: number;
  /** The largest view HTML accepted, in characters. Default 8,000,000. */
  maxHtmlChars?: number;
  /**
   * The browser features a view may have when its resource asks for them
   * (`_meta.ui.permissions`). Default none: a frame's `allow` attribute
   * delegates the page's own grants, so a view that asks for the microphone
   * (or camera, or location) of a page the user let use it gets it without
   * the user being asked. Name only what you mean every server's views to share.
   */
  permissions?: ReadonlyArray<keyof AppPermissions>;
  /**
   * Lets the view's declared CSP origins be on this machine, link-local or
   * in a private network (see `AppHostOptions.allowPrivateNetworkOrigins`).
   * Default false: such origins are taken out of the view's policy and
   * `onWarn` names each one.
   */
  allowPrivateNetworkOrigins?: boolean;
  /** Told about messages dropped from the view (wrong origin, malformed, too large) and about declared CSP origins refused. */
  onWarn?: (message: string) => void;
}

/** The teardown wait when `timeoutMs` is not given. */
export const DEFAULT_TEARDOWN_MS = 2000;
/** The HTML bound when `maxHtmlChars` is not given. */
export const DEFAULT_MAX_HTML_CHARS = 8_000_000;

/**
 * Renders a tool's MCP Apps view in `container` and runs the host's side of
 * its conversation. Cold: subscribing reads the tool's UI resource, calls
 * the tool (unless `result` is given), mounts the sandbox proxy frame and
 * hands it the view; the events say what the view does and asks for.
 * Unsubscribing tells the view a call still running is cancelled, asks it
 * to tear down (`ui/resource-teardown`, waiting at most `timeoutMs`), then
 * removes the frame and cancels the tool call and the view's calls. Errors with `McpAppResourceError` when the tool has no view
 * rendering can use; nothing is mounted then.
 *
 * The view runs in a frame inside the proxy's frame, on the proxy's origin
 * (which must differ from the page's), under the CSP its resource declares;
 * its messages are accepted only from the proxy frame's window and origin.
 *
 * @example
 * ```ts
 * import { renderApp } from 'rxmcp/apps';
 * const view = renderApp({ client: mcp, tool: 'get-time', container: document.querySelector('#app')!, sandboxUrl: 'https://sandbox.example.com/proxy.html' })
 *   .subscribe((event) => { if (event.kind === 'message') console.log(event.content); });
 * // later: view.unsubscribe();
 * ```
 */
export function renderApp(options: RenderAppOptions): Observable<AppEvent> {
  return new Observable<AppEvent>((subscriber) => {
    const sandbox = new URL(options.sandboxUrl, options.container.ownerDocument.baseURI);
    const page = options.container.ownerDocument.defaultView;
    if (page === null) throw new McpClientError('renderApp needs a container in a document with a window');
    if (sandbox.origin === page.location.origin) {
      throw new McpClientError(`renderApp needs the sandbox on another origin than the page: ${JSON.stringify(sandbox.href)} is on ${JSON.stringify(page.location.origin)}`);
    }
    const warn = options.onWarn ?? (() => undefined);
    const args = options.arguments ?? {};
    let frame: HTMLIFrameElement | undefined;
    let host: AppHost | undefined;
    let closed = false;
    const loading = loadAppResource(options.client, options.tool, options.maxHtmlChars ?? DEFAULT_MAX_HTML_CHARS).subscribe({
      next: (loaded) => {
        const resource = withGranted(loaded, options.permissions ?? []);
        const iframe = options.container.ownerDocument.createElement('iframe');
        iframe.setAttribute('sandbox', PROXY_SANDBOX);
        const allow = permissionsAllow(resource.permissions);
        if (allow !== '') iframe.setAttribute('allow', allow);
        iframe.setAttribute('title', resource.tool.title ?? resource.tool.name);
        iframe.style.border = '0';
        iframe.style.width = '100%';
        iframe.style.display = 'block';
        frame = iframe;
        const transport = new WindowTransport({ events: page, peer: () => iframe.contentWindow, origin: sandbox.origin, onDrop: warn });
        // Cold: the host subscribes once, and its close cancels the call.
        const result$ = options.result !== undefined ? of(options.result) : options.client.callTool(options.tool, args);
        const context = options.hostContext;
        const hostContext$ = context === undefined ? NEVER.pipe(startWith({})) : isObservable(context) ? context : NEVER.pipe(startWith(context));
        const conversation: AppHost = new AppHost({
          client: options.client,
          ...(options.provider === undefined ? {} : { provider: options.provider }),
          ...(options.toolName === undefined ? {} : { toolName: options.toolName }),
          ...(options.allowPrivateNetworkOrigins === undefined ? {} : { allowPrivateNetworkOrigins: options.allowPrivateNetworkOrigins }),
          transport,
          resource,
          arguments: args,
          result$,
          hostContext$,
          displayModes: options.displayModes ?? ['inline'],
          hostInfo: options.hostInfo ?? { name: 'rxmcp', version: '0' },
          emit: (event) => {
            if (event.kind === 'size' && event.height !== undefined) iframe.style.height = `${Math.ceil(conversation.frameHeight(event.height))}px`;
            subscriber.next(event);
          },
          warn,
        });
        host = conversation;
        iframe.src = sandbox.href;
        options.container.appendChild(iframe);
        subscriber.next({ kind: 'mounted', iframe });
        // Still this task: the proxy's first message cannot have arrived yet.
        conversation.start();
      },
      error: (error: unknown) => subscriber.error(error),
    });
    return () => {
      if (closed) return;
      closed = true;
      loading.unsubscribe();
      const mounted = host;
      const iframe = frame;
      if (mounted === undefined) return;
      void mounted.teardown(options.timeoutMs ?? DEFAULT_TEARDOWN_MS).then(() => {
        iframe?.remove();
        mounted.close();
      });
    };
  });
}

// The resource with only the permissions the host grants (none asked, none granted: no permissions at all).
function withGranted(resource: AppResource, granted: ReadonlyArray<keyof AppPermissions>): AppResource {
  const { permissions, ...rest } = resource;
  if (permissions === undefined) return resource;
  const kept: AppPermissions = {};
  for (const key of Object.keys(permissions) as Array<keyof AppPermissions>) if (granted.includes(key)) kept[key] = {};
  return { ...rest, permissions: kept };
}
