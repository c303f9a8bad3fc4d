import { firstValueFrom } from 'rxjs';
import type { ServerConfig, StdioServerEntry } from '../../config/server-config.js';
import { Gateway } from '../../gateway/gateway.js';
import type { ConfigServer } from '../../providers/config-server.js';
import type { Era } from '../../protocol/types.js';
import { configServers } from '../../providers/config-servers.js';

/** A stdio server behind the gateway, for the inspector's page to reach over HTTP. */
export interface StdioGateway {
  /** The gateway's Streamable HTTP handler, requiring `bearerToken`. */
  handle(request: Request): Promise<Response>;
  /** What the server behind the gateway says it is, for the page, which sees the gateway. */
  upstream(): Promise<UpstreamDescription>;
  /** Stops serving and stops the server (its child process). Idempotent. */
  close(): Promise<void>;
}

/** The stdio server as it described itself: its name and version (cut at 200 characters), era and protocol version. */
export interface UpstreamDescription {
  name?: string;
  version?: string;
  era: Era;
  protocolVersion: string;
}

/** The longest name or version passed to the page: the server wrote them. */
const MAX_NAME_CHARS = 200;

/**
 * Puts one stdio server behind a `Gateway` of its own, its tools under their
 * own names and nothing between (no Policy, no pins: the inspector shows the
 * server as it is). The server's questions (elicitation, sampling, roots) go
 * to the page through the gateway. The handler checks Host (the loopback
 * names at `port`), Origin (the inspector's own) and `bearerToken`.
 */
export function stdioGateway(
  entry: StdioServerEntry,
  { port, bearerToken, onWarn, onStderr }: { port: number; bearerToken: string; onWarn: (message: string) => void; onStderr?: (line: string) => void },
): StdioGateway {
  const config: ServerConfig = { format: 'mcp-servers', servers: [entry] };
  let gateway: Gateway | undefined;
  const late = (): Gateway => gateway as Gateway;
  const built = configServers(config, {
    client: {
      clientName: 'rxmcp-inspect',
      onElicit: (request) => late().upstreamHooks.onElicit(request),
      onElicitUrl: (request) => late().upstreamHooks.onElicitUrl(request),
      onSample: (request) => late().upstreamHooks.onSample(request),
      onListRoots: (request) => late().upstreamHooks.onListRoots(request),
      // As rxmcp serve declares them: each question is checked against what the page declared.
      clientCapabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} },
      sampleWithTools: true,
      // Results pass as the server sent them: the page checks them against their outputSchema and shows both.
      validateStructuredContent: false,
      // Everything the server logs reaches the gateway, which passes on what the page's chosen level lets through.
      logLevel: 'debug',
      ...(onStderr ? { onStderr } : {}),
    },
    onWarn,
  });
  const server = (built.servers[0] as { provider: ConfigServer }).provider;
  gateway = new Gateway({ provider: server, servers: { '': () => server.client() }, name: `rxmcp-inspect (${entry.command})`, onWarn });
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const handle = gateway.fetchHandler({
    bearerToken,
    allowedHosts: names.map((name) => `${name}:${port}`),
    allowedOrigins: names.map((name) => `http://${name}:${port}`),
  });
  let closing: Promise<void> | undefined;
  return {
    handle,
    upstream: async () => {
      const { serverInfo, era, protocolVersion } = await firstValueFrom(server.client().describe());
      const cut = (text: unknown): string | undefined => (typeof text === 'string' ? text.slice(0, MAX_NAME_CHARS) : undefined);
      const name = cut(serverInfo?.name);
      const version = cut(serverInfo?.version);
      return { ...(name === undefined ? {} : { name }), ...(version === undefined ? {} : { version }), era, protocolVersion: protocolVersion.slice(0, MAX_NAME_CHARS) };
    },
    close: () =>
      (closing ??= (async () => {
        await late().close().catch(() => undefined);
        await server.close().catch(() => undefined);
        built.end();
      })()),
  };
}
