// The gateway's one door to the official server SDK: the optional peer is
// loaded here on first serve, and the few members of its low-level server the
// gateway uses are typed here, since the SDK's own types are generic over
// every method and the gateway registers handlers by name.
import { loadOptionalPeer } from '../util/optional-peer.js';

/** The official server SDK's root module. */
export type ServerSdk = typeof import('@modelcontextprotocol/server');
/** Its stdio module. */
export type ServerStdio = typeof import('@modelcontextprotocol/server/stdio');

/** The low-level SDK server, as far as the gateway uses it: it shapes results itself. */
export interface SdkServer {
  setRequestHandler(method: string, handler: (request: { params?: Record<string, unknown> }, ctx: SdkContext) => Promise<unknown>): void;
  getClientCapabilities(): Record<string, unknown> | undefined;
  sendToolListChanged(): Promise<void>;
  sendPromptListChanged(): Promise<void>;
  sendResourceListChanged(): Promise<void>;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  sendLoggingMessage(params: { level: string; logger?: string; data: unknown }): Promise<void>;
  /** A notification outside any request: on a 2025-era HTTP session, its GET stream. */
  notification(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
}

/** What the SDK hands a request handler, as far as the gateway reads it. */
export interface SdkContext {
  mcpReq: {
    _meta?: Record<string, unknown>;
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState: () => unknown;
    signal: AbortSignal;
    notify: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  };
}

let loaded: Promise<{ sdk: ServerSdk; stdio: ServerStdio }> | undefined;

/**
 * Loads `@modelcontextprotocol/server` on first use: it is an optional peer,
 * needed only by a program that serves.
 *
 * @throws McpClientError (as a rejection) naming the package when it is not installed.
 */
export function loadServerSdk(): Promise<{ sdk: ServerSdk; stdio: ServerStdio }> {
  loaded ??= (async () => {
    try {
      const [sdk, stdio] = await loadOptionalPeer('rxmcp/gateway', '@modelcontextprotocol/server', () =>
        Promise.all([import('@modelcontextprotocol/server'), import('@modelcontextprotocol/server/stdio')]),
      );
      return { sdk, stdio };
    } catch (error) {
      loaded = undefined;
      throw error;
    }
  })();
  return loaded;
}
