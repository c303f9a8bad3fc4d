import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpClient, type InputRequest, type LoggingLevel } from '../index.js';
import type { AuthOptions } from '../auth/auth-options.js';
import { isSecureUrl } from '../auth/oauth-http.js';
import { FileTokenStore } from '../node/file-token-store.js';
import { type LoopbackSignIn, openBrowser } from '../node/loopback-sign-in.js';
import type { CliRequest } from './args.js';
import { askForm } from './elicitation-form.js';
import { askToOpenUrl } from './elicitation-url.js';
import { jsonText } from './json-text.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** Where the CLI reads and writes; the process's own streams unless a test says otherwise. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Other commands do not open a browser: they say to run `rxmcp login`. */
export class NeedsLogin extends Error {}

/**
 * Opens a client to the server a request names (its `url`, or its stdio
 * `server`), with the CLI's hooks. `label` prefixes the server's stderr
 * lines under --verbose, so that several servers probed at once can be told
 * apart.
 */
export function connect(request: CliRequest, io: CliIo, signIn: LoopbackSignIn | undefined, label = 'server'): McpClient {
  const verbose = (line: string): void => {
    if (request.verbose) io.stderr.write(`${terminalText(line)}\n`);
  };
  const common = {
    clientName: 'rxmcp-cli',
    tasks: true,
    onWarn: (message: string) => verbose(`warning: ${message}`),
    onElicit: (question: InputRequest) => elicit(question, request, io),
    onElicitUrl: (question: InputRequest) =>
      askToOpenUrl(question.params, {
        input: io.stdin,
        output: io.stderr,
        interactive: !request.noInput && io.stdin.isTTY === true,
        open: request.noBrowser ? undefined : openBrowser,
      }),
    // Each --root as the file:// URL of its absolute path; the client refuses one it cannot offer safely.
    ...(request.roots.length === 0 ? {} : { roots: request.roots.map((dir) => ({ uri: pathToFileURL(resolve(dir)).href, name: basename(resolve(dir)) })) }),
    ...(request.timeoutMs === undefined ? {} : { requestTimeoutMs: request.timeoutMs }),
    ...(request.protocolVersion === undefined ? {} : { protocolVersions: [request.protocolVersion] }),
    ...(request.logLevel === undefined
      ? {}
      : {
          logLevel: request.logLevel as LoggingLevel,
          onLog: ({ level, logger, data }: { level: string; logger?: string; data: unknown }) =>
            io.stderr.write(
              `[${terminalLine(level)}]${logger ? ` ${terminalLine(logger)}:` : ''} ${typeof data === 'string' ? terminalText(data) : jsonText(data, 0)}\n`,
            ),
        }),
  };
  if (request.url !== undefined) {
    const auth = authFor(request, signIn);
    return McpClient.connectHttp({
      ...common,
      url: request.url,
      headers: request.headers,
      ...(request.httpTransport === undefined ? {} : { httpTransport: request.httpTransport }),
      ...(auth ? { auth } : {}),
    });
  }
  const server = request.server as { command: string; args: string[] };
  return McpClient.connectStdio({
    ...common,
    command: server.command,
    args: server.args,
    env: request.env,
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    onStderr: (line) => verbose(`${terminalLine(label)}: ${terminalLine(line)}`),
  });
}

// Tokens from `rxmcp login`, used and refreshed by every --url command. Not
// for a server the user gives its own Authorization header, nor for one a
// token must not travel to in the clear.
function authFor(request: CliRequest, signIn: LoopbackSignIn | undefined): AuthOptions | undefined {
  const url = new URL(request.url as string);
  const ownCredentials = Object.keys(request.headers).some((name) => name.toLowerCase() === 'authorization');
  if (ownCredentials || !isSecureUrl(url)) return undefined;
  return {
    tokenStore: new FileTokenStore(),
    ...(request.clientId === undefined ? {} : { clientId: request.clientId }),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
    ...(signIn
      ? { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize }
      : {
          authorize: () => {
            throw new NeedsLogin();
          },
        }),
  };
}

async function elicit(question: InputRequest, request: CliRequest, io: CliIo): Promise<unknown> {
  if (request.noInput) return { action: 'decline' };
  if (!io.stdin.isTTY) {
    io.stderr.write(`rxmcp: declined a question from the server (stdin is not a terminal): ${terminalText(String(question.params.message ?? ''))}\n`);
    return { action: 'decline' };
  }
  return askForm(question.params, io.stdin, io.stderr);
}
