import { fileURLToPath } from 'node:url';
import { McpClientError } from '../errors/mcp-client-error.js';
import { loadServerSdk } from '../gateway/server-sdk.js';
import type { StdioServerEntry } from '../config/server-config.js';
import { openBrowser } from '../node/loopback-sign-in.js';
import { type CliRequest, UsageError } from './args.js';
import { aimedAt, configuredServer } from './configured-server.js';
import type { CliIo } from './connect.js';
import { type InspectTarget, startInspectServer } from './inspect/inspect-server.js';
import { stdioGateway } from './inspect/stdio-gateway.js';
import { newBearerToken } from './serve-token.js';
import { terminalLine } from './terminal-text.js';
import { stopSignals } from './stop-signals.js';

// Where scripts/build.mjs puts the page: dist/inspect/, beside dist/esm/ (this file is dist/esm/cli/).
const PAGE_DIR = fileURLToPath(new URL('../../inspect/', import.meta.url));

/**
 * `rxmcp inspect`: a web page, on 127.0.0.1 at a free port, that connects to
 * an MCP server and shows it. The server is `--url URL` (the page calls it
 * itself), a stdio server (`-- command args…`, or `--config FILE --server
 * NAME`) put behind the gateway at the page's own `/mcp`, or none (the
 * page's connect form). Prints `rxmcp inspect: URL` on stdout, the URL
 * holding the run's token, and opens it unless `--no-open`. Runs until
 * SIGINT (exit 130) or SIGTERM (exit 0); then the stdio server is stopped.
 *
 * @throws UsageError for a configured server that cannot be found.
 * @throws McpClientError (as a rejection) when the page is missing, no port can be bound, or a stdio server is named without the server SDK installed.
 */
export async function inspect(request: CliRequest, io: CliIo): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`rxmcp inspect: ${terminalLine(line)}\n`);
  let aimed = request;
  if (request.serverName !== undefined || request.configPath !== undefined) aimed = aimedAt(request, (await configuredServer(request, io)).entry);
  if (aimed.url !== undefined && !['http:', 'https:'].includes(URL.canParse(aimed.url) ? new URL(aimed.url).protocol : '')) {
    throw new UsageError(`--url wants an http or https URL, got ${JSON.stringify(aimed.url)}`);
  }
  const token = newBearerToken();
  const stdio = aimed.server;
  const target: InspectTarget = aimed.url
    ? { kind: 'url', url: aimed.url, transport: aimed.httpTransport ?? 'auto', headers: aimed.headers }
    : stdio
      ? { kind: 'gateway', command: [stdio.command, ...stdio.args].join(' ') }
      : { kind: 'none' };
  // Said before any page is served: without the server SDK, the gateway would answer the page with errors alone.
  if (stdio) await serverSdkOrSay();
  const server = await startInspectServer({ token, target, pageDir: PAGE_DIR });
  const gateway = stdio
    ? stdioGateway(stdioEntry(stdio, aimed), {
        port: server.port,
        bearerToken: token,
        onWarn: say,
        ...(aimed.verbose ? { onStderr: (line: string) => say(`server: ${line}`) } : {}),
      })
    : undefined;
  if (gateway) server.setMcp(gateway.handle, gateway.upstream);
  const { stopped, release } = stopSignals();
  try {
    io.stdout.write(`rxmcp inspect: ${server.url}\n`);
    if (!request.noOpen) openBrowser(server.url);
    say('Ctrl-C stops the page and the server');
    return await stopped;
  } finally {
    release();
    await server.close();
    await gateway?.close();
  }
}

function stdioEntry(server: { command: string; args: string[] }, request: CliRequest): StdioServerEntry {
  return { name: 'server', transport: 'stdio', disabled: false, command: server.command, args: server.args, env: request.env, ...(request.cwd === undefined ? {} : { cwd: request.cwd }) };
}

// The gateway serves through the official server SDK, an optional peer (see the README): a missing one is named, with the way to have it.
async function serverSdkOrSay(): Promise<void> {
  try {
    await loadServerSdk();
  } catch (error) {
    throw new McpClientError(
      'inspect reaches a stdio server through its gateway, which needs the optional package @modelcontextprotocol/server: npm install @modelcontextprotocol/server (with npx: npx -p rxmcp -p @modelcontextprotocol/server rxmcp inspect -- …)',
      { cause: error },
    );
  }
}
