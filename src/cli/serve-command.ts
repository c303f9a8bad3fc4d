import { McpConfigError } from '../errors/config-errors.js';
import { isLoopbackHost } from '../gateway/http-guard.js';
import { readPolicyFile } from '../providers/policy/policy-file.js';
import { buildServeStack } from '../gateway/serve-stack.js';
import { FileTokenStore } from '../node/file-token-store.js';
import { readServerConfig } from '../config/read-server-config.js';
import { type CliRequest, UsageError } from './args.js';
import type { CliIo } from './connect.js';
import { newBearerToken, tokenInstructions } from './serve-token.js';
import { terminalLine } from './terminal-text.js';
import { pinsPathFor } from './pins-path.js';
import { stopSignals } from './stop-signals.js';

/** The exit code of a stdio serve whose host hung up, as main.ts has it. */
const OK = 0;

/** Addresses that stand for every interface: no Host header names them. */
const WILDCARDS = ['0.0.0.0', '::', '[::]'];

/**
 * `rxmcp serve`: every server of `--config FILE` as one MCP server, behind
 * the `--policy FILE` rules (and with `--tool-search`, a `ToolSearch` per
 * host in front of it all), over stdio (the host that started this process)
 * or Streamable HTTP (`--http PORT`). Runs until the host closes stdin (stdio),
 * or SIGINT, SIGTERM or SIGHUP; then every upstream server is closed, its
 * whole process group (stdin closed, then SIGTERM, then SIGKILL), and a
 * further signal meanwhile ends the wait at once, the exit taking them down.
 *
 * Over HTTP a bearer token is always required, on loopback too (every account
 * on the machine can reach a loopback port): the one `--token-env` names, or
 * else one made for this run and printed once on stderr, with the host
 * configs that carry it.
 *
 * In stdio mode, stdout carries the protocol and nothing else: every
 * diagnostic goes to stderr, escaped, and so does anything a library would
 * print with `console.log`.
 *
 * @throws UsageError for a token variable that is missing, or a host that is not loopback without one.
 * @throws McpConfigError (as a rejection) for a config or policy file that cannot be read.
 */
export async function serve(request: CliRequest, io: CliIo): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`rxmcp serve: ${terminalLine(line)}\n`);
  const http = request.httpPort !== undefined;
  const host = request.host ?? '127.0.0.1';
  let bearerToken: string | undefined;
  if (request.tokenEnv !== undefined) {
    bearerToken = process.env[request.tokenEnv];
    if (!bearerToken) throw new UsageError(`--token-env names ${request.tokenEnv}, which is not set (or empty)`);
    // Upstream stdio servers inherit this process's environment: the token
    // that guards the gateway is not theirs to read.
    delete process.env[request.tokenEnv];
  }
  if (http && !isLoopbackHost(host) && bearerToken === undefined) {
    throw new UsageError(`--host ${host} is reachable from other machines: require a bearer token with --token-env NAME`);
  }
  const madeToken = http && bearerToken === undefined ? newBearerToken() : undefined;
  bearerToken ??= madeToken;
  const configPath = request.configPath as string;
  // stdin is the protocol (stdio) or nobody's terminal (a service): a VS Code
  // input is never asked, and the server that needs it fails alone.
  const config = await readServerConfig(configPath, {
    inputs: (id) => {
      throw new McpConfigError({ source: configPath }, `input ${JSON.stringify(id)} is not asked by rxmcp serve: set the value in the file or the environment`);
    },
  });
  for (const warning of config.warnings ?? []) say(`warning: ${warning.message}`);
  const policy = request.policyPath === undefined ? undefined : await readPolicyFile(request.policyPath);
  const restoreConsole = http ? () => undefined : consoleToStderr(io);
  const stack = await buildServeStack({
    config,
    ...(policy ? { policy } : {}),
    noPrefix: request.noPrefix,
    ...(request.timeoutMs === undefined ? {} : { timeouts: { timeoutMs: request.timeoutMs } }),
    toolSearch: request.toolSearch,
    tokenStore: new FileTokenStore(),
    pinsPath: pinsPathFor(configPath),
    onWarn: say,
    // What only someone reading the wire can use: under --verbose alone.
    ...(request.verbose ? { onStderr: (server: string, line: string) => say(`${server}: ${line}`), onDetail: say } : {}),
  });
  stack.startServers();
  const signals = stopSignals();
  const { stopped } = signals;
  try {
    if (!http) {
      return await Promise.race([stack.gateway.serveStdio({ input: io.stdin, output: io.stdout }).then(() => OK), stopped]);
    }
    const allowedHosts = request.allowedHosts.length > 0 ? request.allowedHosts : isLoopbackHost(host) || WILDCARDS.includes(host) ? undefined : [host];
    const served = await stack.gateway.listen({
      port: request.httpPort as number,
      host,
      bearerToken: bearerToken as string,
      ...(allowedHosts ? { allowedHosts } : {}),
    });
    say(`serving ${served.url} (bearer token required)`);
    // The only place the token is ever written: the person who started serve needs it.
    if (madeToken !== undefined) for (const line of tokenInstructions(served.url, madeToken)) say(line);
    return await stopped;
  } finally {
    // Each upstream server is given a moment to exit (stdin closed, then
    // SIGTERM); a signal meanwhile stops the wait, and the exit that follows
    // kills what still runs (StdioTransport's exit hook).
    await Promise.race([stack.close(), signals.next()]);
    signals.release();
    restoreConsole();
  }
}

// A library that logs with console.log would write into the protocol stream.
function consoleToStderr(io: CliIo): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...parts: unknown[]): void => void io.stderr.write(`${terminalLine(parts.map(String).join(' '))}\n`);
  console.log = console.info = console.debug = toStderr;
  return () => Object.assign(console, saved);
}
