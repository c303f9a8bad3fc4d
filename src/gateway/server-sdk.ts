import { McpClientError } from '../errors/mcp-client-error.js';

/** The official server SDK's root module. */
export type ServerSdk = typeof import('@modelcontextprotocol/server');
/** Its stdio module. */
export type ServerStdio = typeof import('@modelcontextprotocol/server/stdio');

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
      const [sdk, stdio] = await Promise.all([import('@modelcontextprotocol/server'), import('@modelcontextprotocol/server/stdio')]);
      return { sdk, stdio };
    } catch (error) {
      loaded = undefined;
      throw new McpClientError('rxmcp/gateway needs the optional package @modelcontextprotocol/server: npm install @modelcontextprotocol/server', { cause: error });
    }
  })();
  return loaded;
}
