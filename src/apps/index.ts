// rxmcp/apps: render MCP Apps views in a browser page. Browser-only, and
// reached only through this entry, so the root entry stays as it was.

export { renderApp, DEFAULT_MAX_HTML_CHARS, DEFAULT_TEARDOWN_MS } from './render-app.js';
export type { RenderAppOptions } from './render-app.js';
export type { AppPermissions } from './app-resource.js';
export type { AppEvent, AppImplementation, DisplayMode, McpUiHostContext } from './app-events.js';
export { sandboxProxyHtml, PROXY_SANDBOX, VIEW_SANDBOX } from './sandbox-proxy.js';
export type { SandboxProxyOptions } from './sandbox-proxy.js';
export { appsExtension, appResourceUri, APP_MIME_TYPE, APPS_EXTENSION_ID } from './apps-extension.js';
export { buildCsp, permissionsAllow } from './csp.js';
export { WindowTransport } from './window-transport.js';
export type { MessageEvents, PostTarget, WindowTransportOptions } from './window-transport.js';
export { DEFAULT_POSTED_LIMITS } from './posted-message.js';
export type { PostedMessageLimits } from './posted-message.js';
export { APPS_PROTOCOL_VERSION, MAX_VIEW_CALLS } from './app-host.js';
export { McpAppResourceError } from '../errors/app-errors.js';
export type { AppResourceProblem } from '../errors/app-errors.js';
