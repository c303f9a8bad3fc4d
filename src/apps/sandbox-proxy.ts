import { buildCsp, injectCsp, permissionsAllow } from './csp.js';

/** What the sandbox proxy page is built with. */
export interface SandboxProxyOptions {
  /**
   * The origin of the host page (e.g. `https://chat.example.com`). When
   * given, the proxy takes orders only from a parent on that origin; when
   * left out, from whichever parent sends the resource first (then only from
   * that origin). Give it whenever you know it: any page can frame the proxy.
   */
  hostOrigin?: string;
}

/**
 * The sandbox flags of the view's own frame inside the proxy. No
 * `allow-same-origin`: the view gets an opaque origin, so it can reach
 * neither the proxy's document (which relays its messages) nor any storage
 * of the sandbox origin. `allow-forms` only lets a form's submit event reach
 * the view's script: the policy's `form-action 'none'` stops the submission.
 * No popups, no top navigation, no modals.
 */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';

/**
 * The sandbox flags `renderApp` gives the proxy frame: the spec's
 * `allow-scripts allow-same-origin` (the proxy needs its own origin for the
 * host to recognise its messages), plus `allow-forms`, since a frame inside
 * it can never have a flag its parent lacks.
 */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/** What the view's prelude says, first of all, to the proxy (never relayed: the `sandbox-` methods are the proxy's). */
const VIEW_HELLO = 'ui/notifications/sandbox-view-ready';

/**
 * The script the proxy puts at the head of the view's document, after its
 * policy and before anything of the view's, so it runs first in the view's
 * own realm. It takes `RTCPeerConnection` away (CSP has no say over WebRTC
 * in Chromium: a peer connection sends STUN to any address, whatever
 * `connect-src` says), then marks the document: an empty frame of its own,
 * first among the document's frames, whose window the proxy remembers. A
 * document the view's frame later holds (a `data:` or `blob:` page it
 * navigated to, a reload) has no such frame, so the proxy can tell it is not
 * the document it built, though both have the same opaque origin and the
 * same window. Then it removes its own element and says hello, handing
 * the proxy a port that answers only while this document lives.
 * Self-contained, like the rest of the page's script.
 */
function viewPrelude(hello: string): void {
  const global = window as unknown as Record<string, unknown>;
  delete global.RTCPeerConnection;
  delete global.webkitRTCPeerConnection;
  const marker = document.createElement('iframe');
  // Sandboxed with no flags: an opaque origin of its own, so the view cannot reach into it either.
  marker.setAttribute('sandbox', '');
  marker.setAttribute('aria-hidden', 'true');
  marker.setAttribute('tabindex', '-1');
  (document.head === null ? document.documentElement : document.head).appendChild(marker);
  const script = document.currentScript;
  if (script !== null) script.remove();
  // The hello carries a port whose other end lives only as long as this
  // document: the proxy's question over it is answered only while this
  // document still holds the frame, however late the proxy reads the hello.
  const channel = new MessageChannel();
  const port = channel.port1;
  port.onmessage = (event: MessageEvent) => port.postMessage(event.data);
  window.parent.postMessage({ jsonrpc: '2.0', method: hello, params: {} }, '*', [channel.port2]);
}

// The proxy's script, run in the proxy page; self-contained for the same
// reason as the functions in csp.ts, which it is handed as arguments (a
// compiled import would be a reference to a module the page does not have).
function sandboxProxy(
  expectedHost: string | null,
  viewSandbox: string,
  prelude: string,
  hello: string,
  policyOf: typeof buildCsp,
  allowOf: typeof permissionsAllow,
  withPolicy: typeof injectCsp,
): void {
  const PREFIX = 'ui/notifications/sandbox-';
  let hostOrigin: string | null = null;
  let inner: HTMLIFrameElement | null = null;
  // The marker frame's window in the document the proxy built; undefined
  // until its hello. Once the frame holds another document, the view is cut
  // off for good: no message either way, and the frame removed.
  let marker: unknown = undefined;
  let cut = false;
  // The frame read at the hello is the mark only if the document that said
  // it still answers over its port: a view can hold its hello back (a busy
  // thread) until a document it navigated to, with a frame of its own first,
  // holds the frame. Until the answer, messages either way wait here.
  let confirmed = false;
  let held: Array<{ toHost: boolean; data: unknown }> = [];
  const MAX_HELD = 256;
  const sever = (): void => {
    cut = true;
    held = [];
    if (inner !== null) inner.remove();
  };
  const holds = (): boolean => {
    if (cut || inner === null || inner.contentWindow === null || marker === undefined) return false;
    if ((inner.contentWindow as unknown as Record<number, unknown>)[0] === marker) return true;
    sever();
    return false;
  };
  const deliver = (toHost: boolean, data: unknown): void => {
    if (toHost) window.parent.postMessage(data, hostOrigin as string);
    else (inner as HTMLIFrameElement & { contentWindow: Window }).contentWindow.postMessage(data, '*');
  };
  const relay = (toHost: boolean, data: unknown): void => {
    if (!holds()) return;
    if (confirmed) deliver(toHost, data);
    else if (held.length < MAX_HELD) held.push({ toHost, data });
    else sever();
  };
  const confirm = (port: MessagePort): void => {
    const question = crypto.getRandomValues(new Uint32Array(4)).join('.');
    port.onmessage = (event: MessageEvent) => {
      if (event.data !== question || confirmed || !holds()) return;
      confirmed = true;
      const waiting = held;
      held = [];
      // The view's own messages go out first, as they were sent; the host's waited on it.
      for (let i = 0; i < waiting.length; i++) if (holds()) deliver((waiting[i] as { toHost: boolean }).toHost, (waiting[i] as { data: unknown }).data);
    };
    // Where the browser has it: the document that held the port is gone.
    port.addEventListener('close', sever);
    port.postMessage(question);
  };
  const methodOf = (data: unknown): unknown =>
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>).method : undefined;
  const reserved = (data: unknown): boolean => {
    const method = methodOf(data);
    return typeof method === 'string' && method.slice(0, PREFIX.length) === PREFIX;
  };
  const load = (params: Record<string, unknown>): void => {
    const html = params.html;
    if (typeof html !== 'string') return;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', viewSandbox);
    const allow = allowOf(params.permissions);
    if (allow !== '') frame.setAttribute('allow', allow);
    frame.setAttribute('title', 'MCP App view');
    frame.style.cssText = 'border:0;width:100%;height:100%;display:block';
    const policy = policyOf(params.csp);
    // Also required of every document the frame holds (CSP Embedded
    // Enforcement, where the browser has it): a view that navigates its frame
    // to a page of its choosing gets a page that is not loaded, unless that
    // page takes the same policy, rather than one that speaks to the host
    // under no policy at all. Not with frameDomains: the requirement extends
    // to nested frames, and would shut out the embeds the view declared.
    if (policy.indexOf("frame-src 'none'") >= 0) frame.setAttribute('csp', policy);
    frame.srcdoc = withPolicy(html, policy, prelude);
    // A document loaded after the marked one ends the view, whether or not it says anything.
    frame.addEventListener('load', () => {
      if (marker !== undefined) holds();
    });
    inner = frame;
    document.body.appendChild(frame);
  };
  window.addEventListener('message', (event: MessageEvent) => {
    const data: unknown = event.data;
    if (event.source === window.parent) {
      if (expectedHost !== null && event.origin !== expectedHost) return;
      if (hostOrigin === null) {
        if (methodOf(data) !== PREFIX + 'resource-ready') return;
        const params = (data as Record<string, unknown>).params;
        if (typeof params !== 'object' || params === null) return;
        hostOrigin = event.origin;
        load(params as Record<string, unknown>);
      } else if (event.origin === hostOrigin && !reserved(data)) {
        // The view's origin is opaque: '*' is the only target that reaches it.
        relay(false, data);
      }
    } else if (inner !== null && event.source === inner.contentWindow && hostOrigin !== null && !cut) {
      if (marker === undefined) {
        // The prelude's hello comes first, posted before any script of the
        // view's could run, let alone navigate: anything else first means
        // the document is not the one built here.
        const first = (inner.contentWindow as unknown as Record<number, unknown>)[0];
        const port = event.ports[0];
        if (methodOf(data) === hello && first !== undefined && first !== null && port !== undefined && event.ports.length === 1) {
          marker = first;
          confirm(port);
        } else {
          sever();
        }
      } else if (!reserved(data)) {
        relay(true, data);
      }
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: PREFIX + 'proxy-ready', params: {} }, expectedHost === null ? '*' : expectedHost);
}

/**
 * The sandbox proxy page, as HTML, for a host to serve on an origin of its
 * own (another host name or port than the page that calls `renderApp`).
 * The page announces itself with `ui/notifications/sandbox-proxy-ready`,
 * takes one `ui/notifications/sandbox-resource-ready` from its parent,
 * builds the view's frame (sandboxed as {@link VIEW_SANDBOX}, the resource's
 * permissions as its `allow`, its CSP as the first element of its document,
 * then the proxy's prelude: no `RTCPeerConnection`, and a mark) and then,
 * once that document has answered over the port its hello handed over,
 * relays messages between its parent and that frame, and nothing else, for
 * as long as the frame holds that document: once it holds another (the view
 * navigated it), the frame is removed. Serve it without a Content-Security-Policy header of its own: the
 * view's document inherits the proxy's policy, which would narrow what the
 * resource declared.
 *
 * @example
 * ```ts
 * import { sandboxProxyHtml } from 'rxmcp/apps';
 * // on the sandbox origin, e.g. http://127.0.0.1:8081/sandbox.html
 * response.writeHead(200, { 'Content-Type': 'text/html' }).end(sandboxProxyHtml({ hostOrigin: 'http://localhost:8080' }));
 * ```
 */
export function sandboxProxyHtml(options: SandboxProxyOptions = {}): string {
  const host = options.hostOrigin === undefined ? null : new URL(options.hostOrigin).origin;
  const helpers = [buildCsp, permissionsAllow, injectCsp].map((helper) => `(${helper.toString()})`).join(', ');
  // The functions are sent as their source text, which a bundler's keepNames (esbuild's: an application bundling
  // rxmcp may set it) gives calls of its `__name` helper: each script passes them one that does nothing, as a
  // parameter, so no page global is made.
  const prelude = `<script>((__name) => (${viewPrelude.toString()})(${JSON.stringify(VIEW_HELLO)}))((target) => target);</script>`;
  const script = `((__name) => (${sandboxProxy.toString()})(${JSON.stringify(host)}, ${JSON.stringify(VIEW_SANDBOX)}, ${JSON.stringify(prelude)}, ${JSON.stringify(VIEW_HELLO)}, ${helpers}))((target) => target);`.replace(
    /<\/script/gi,
    '<\\/script',
  );
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>MCP App sandbox</title>',
    '<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}</style>',
    '</head><body>',
    `<script>${script}</script>`,
    '</body></html>',
  ].join('\n');
}
