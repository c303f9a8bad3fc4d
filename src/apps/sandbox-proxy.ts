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

// The proxy's script, run in the proxy page; self-contained for the same
// reason as the functions in csp.ts, which it is handed as arguments (a
// compiled import would be a reference to a module the page does not have).
function sandboxProxy(
  expectedHost: string | null,
  viewSandbox: string,
  policyOf: typeof buildCsp,
  allowOf: typeof permissionsAllow,
  withPolicy: typeof injectCsp,
): void {
  const PREFIX = 'ui/notifications/sandbox-';
  let hostOrigin: string | null = null;
  let inner: HTMLIFrameElement | null = null;
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
    frame.srcdoc = withPolicy(html, policy);
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
      } else if (event.origin === hostOrigin && inner !== null && inner.contentWindow !== null && !reserved(data)) {
        // The view's origin is opaque: '*' is the only target that reaches it.
        inner.contentWindow.postMessage(data, '*');
      }
    } else if (inner !== null && event.source === inner.contentWindow && hostOrigin !== null && !reserved(data)) {
      window.parent.postMessage(data, hostOrigin);
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
 * permissions as its `allow`, its CSP as the first element of its document)
 * and then relays messages between its parent and that frame, and nothing
 * else. Serve it without a Content-Security-Policy header of its own: the
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
  const script = `(${sandboxProxy.toString()})(${JSON.stringify(host)}, ${JSON.stringify(VIEW_SANDBOX)}, ${helpers});`.replace(
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
