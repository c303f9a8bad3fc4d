import type { ContentBlock, CallToolResult } from '../protocol/types.js';

/** How a view is shown. */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the host tells a view about where it is shown; every field optional (see the MCP Apps `McpUiHostContext`). */
export interface McpUiHostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
}

/** The name and version a host or a view gives of itself. */
export interface AppImplementation {
  name: string;
  version: string;
  [key: string]: unknown;
}

/**
 * Everything a rendered view does that the page may want to show or act on,
 * as `renderApp` emits it. All of it comes from the view (except `mounted`
 * and `result`) and is untrusted: render text as text.
 */
export type AppEvent =
  /** The sandbox frame is in the container (it loads the view next). */
  | { kind: 'mounted'; iframe: HTMLIFrameElement }
  /** The view finished its handshake (`ui/notifications/initialized`). */
  | { kind: 'initialized'; appInfo: AppImplementation; appCapabilities: Record<string, unknown>; protocolVersion: string }
  /** The tool's result, from the call `renderApp` made (or the one it was given). */
  | { kind: 'result'; result: CallToolResult }
  /** The tool call `renderApp` made failed; the view was told with `ui/notifications/tool-cancelled`. */
  | { kind: 'tool-cancelled'; reason: string }
  /** The view reported its size (the frame's height follows it already). */
  | { kind: 'size'; width?: number; height?: number }
  /** The view asked for a display mode; `granted` is what it got (the current mode when refused). */
  | { kind: 'display-mode'; requested: DisplayMode; granted: DisplayMode }
  /** The view asked to add a message to the conversation (`ui/message`). */
  | { kind: 'message'; role: 'user'; content: ContentBlock[] }
  /** The view replaced its context for the model (`ui/update-model-context`). */
  | { kind: 'model-context'; content?: ContentBlock[]; structuredContent?: Record<string, unknown> }
  /** The view asked to open an http(s) link; opening it is the page's decision. */
  | { kind: 'open-link'; url: string }
  /** The view logged (`notifications/message`). */
  | { kind: 'log'; level: string; logger?: string; data: unknown }
  /** The view asked to be closed (`ui/notifications/request-teardown`); closing is the page's decision. */
  | { kind: 'request-teardown' }
  /**
   * A `tools/call` the view made: with the `result` it got, or the `refused`
   * reason when it never ran (unknown tool, not visible to apps), or the
   * `error` message of a call that failed.
   */
  | { kind: 'tool-call'; name: string; arguments: Record<string, unknown>; result?: CallToolResult; refused?: string; error?: string };
