import { firstValueFrom, lastValueFrom, type Observable, tap } from 'rxjs';
import { flattenContent } from '../tools/flatten.js';
import {
  McpAuthError,
  McpCancelledError,
  McpClientError,
  McpProtocolError,
  type CallToolResult,
  type ContentBlock,
  type McpClient,
  type TaskEvent,
} from '../index.js';
import { canonicalUri } from '../auth/discovery.js';
import { isSecureUrl } from '../auth/oauth-http.js';
import { FileTokenStore } from '../node/file-token-store.js';
import { loopbackSignIn } from '../node/loopback-sign-in.js';
import { approveTool } from './approve-command.js';
import { promptArguments, toolArguments } from './call-arguments.js';
import { type CliRequest, UsageError } from './args.js';
import { aimedAt, configuredServer } from './configured-server.js';
import { type CliIo, connect, NeedsLogin } from './connect.js';
import { FAILURE, INTERRUPTED, OK, TOOL_ERROR, USAGE_ERROR } from './exit-codes.js';
import { jsonText } from './json-text.js';
import { ProgressView } from './progress-view.js';
import { listServers } from './servers-command.js';
import { terminalLine, terminalMessage, terminalText } from './terminal-text.js';

/** The signals that stop a command, and their numbers: it exits 128 + the number, as shells report it. */
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
const STOP_SIGNALS = Object.keys(SIGNAL_NUMBERS) as Array<keyof typeof SIGNAL_NUMBERS>;

/**
 * Runs one parsed command line's command (main.ts has answered --help and
 * --version already) and resolves with its exit code. Loaded by main.ts only
 * when a command runs, with the library it needs.
 * @throws what no command foresaw; main.ts reports it as one line.
 */
export async function command(given: CliRequest, io: CliIo): Promise<number> {
  let request: CliRequest;
  try {
    if (given.command === 'servers' && given.approve !== undefined) return await approveTool(given, io);
    if (given.command === 'servers') return await listServers(given, io);
    // The gateway and the server SDK load only for serve.
    if (given.command === 'serve') return await (await import('./serve-command.js')).serve(given, io);
    if (given.command === 'inspect') return await (await import('./inspect-command.js')).inspect(given, io);
    request = await aimed(given, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`rxmcp: ${terminalText(error.message)}\n`);
      return USAGE_ERROR;
    }
    if (!(error instanceof McpClientError)) throw error;
    io.stderr.write(`rxmcp: ${terminalMessage(error.message)}\n`);
    return FAILURE;
  }
  if (request.command === 'logout') return logout(request.url as string, request.json, io);
  if (request.command === 'login' && !isSecureUrl(new URL(request.url as string))) {
    io.stderr.write(`rxmcp: will not sign in to ${terminalLine(request.url as string)}: a token must not travel in the clear to another machine (use https)\n`);
    return FAILURE;
  }
  // Ctrl-C, a service manager's SIGTERM, a closed terminal's SIGHUP: each
  // cancels the call and closes the server (its whole process group) before
  // the exit, which Node's default handling of the signal would skip.
  const interrupted = new AbortController();
  let exitCode = INTERRUPTED;
  const onSignal = (signal: NodeJS.Signals): void => {
    exitCode = 128 + (SIGNAL_NUMBERS[signal as keyof typeof SIGNAL_NUMBERS] ?? 2);
    interrupted.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const signIn =
    request.command === 'login' ? await loopbackSignIn({ open: !request.noBrowser, print: (line) => io.stderr.write(`${terminalText(line)}\n`) }) : undefined;
  const mcp = connect(request, io, signIn);
  try {
    return await run(request, mcp, io, interrupted.signal);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`rxmcp: ${terminalText(error.message)}\n`);
      return USAGE_ERROR;
    }
    if (error instanceof McpCancelledError || interrupted.signal.aborted) {
      io.stderr.write('rxmcp: interrupted\n');
      return exitCode;
    }
    if (!(error instanceof McpClientError)) throw error;
    if (error instanceof McpAuthError && error.cause instanceof NeedsLogin) {
      const url = terminalLine(request.url as string);
      const again = request.serverName === undefined ? `--url ${url}` : `--server ${terminalLine(request.serverName)}`;
      io.stderr.write(`rxmcp: ${url} wants you to sign in: run rxmcp login ${again}\n`);
    } else {
      io.stderr.write(`rxmcp: ${terminalMessage(error.message)}\n`);
      if (request.verbose && error instanceof McpProtocolError && error.data !== undefined) io.stderr.write(`error data: ${jsonText(error.data, 0)}\n`);
    }
    return FAILURE;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    await mcp.close();
    await signIn?.close();
  }
}

// The request aimed at the server --server/--config name, if they do.
async function aimed(request: CliRequest, io: CliIo): Promise<CliRequest> {
  if (request.serverName === undefined && request.configPath === undefined) return request;
  const { entry, source } = await configuredServer(request, io);
  if (request.verbose) io.stderr.write(`server ${terminalLine(entry.name)} from ${terminalLine(source)}\n`);
  const aimedRequest = aimedAt(request, entry);
  if ((request.command === 'login' || request.command === 'logout') && aimedRequest.url === undefined) {
    throw new UsageError(`${request.command} signs in to an HTTP server, and ${JSON.stringify(entry.name)} runs over stdio`);
  }
  return aimedRequest;
}

async function logout(url: string, json: boolean, io: CliIo): Promise<number> {
  try {
    await new FileTokenStore().clear(canonicalUri(url));
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    io.stderr.write(`rxmcp: ${terminalText(error.message)}\n`);
    return FAILURE;
  }
  if (json) io.stdout.write(`${jsonText({ url, signedOut: true })}\n`);
  else io.stderr.write(`signed out of ${terminalLine(url)}\n`);
  return OK;
}

async function run(request: CliRequest, mcp: McpClient, io: CliIo, signal: AbortSignal): Promise<number> {
  const { command, operands, json } = request;
  const options = { signal };
  const print = (value: unknown, text: () => string): void => {
    io.stdout.write(json ? `${jsonText(value)}\n` : text());
  };
  switch (command) {
    case 'describe': {
      const description = await firstValueFrom(mcp.describe(options));
      print(description, () =>
        [
          terminalLine(`${description.serverInfo?.name ?? 'server'} ${description.serverInfo?.version ?? ''}`.trimEnd()),
          terminalLine(`era: ${description.era} (${description.protocolVersion})`),
          terminalLine(`wire: ${description.wire}`),
          `capabilities: ${terminalLine(Object.keys(description.capabilities).join(', ')) || 'none'}`,
          ...(description.instructions ? [`instructions: ${terminalText(description.instructions)}`] : []),
        ].join('\n') + '\n',
      );
      return OK;
    }
    case 'tools':
      return listing(mcp.listTools(options), (tool) => [tool.name, described(tool), marks(tool)], print);
    case 'resources':
      return listing(mcp.listResources(options), (resource) => [resource.uri, resource.title ?? resource.name, marks(resource)], print);
    case 'templates':
      return listing(mcp.listResourceTemplates(options), (template) => [template.uriTemplate, template.title ?? template.name, marks(template)], print);
    case 'prompts':
      return listing(mcp.listPrompts(options), (prompt) => [prompt.name, described(prompt), marks(prompt)], print);
    case 'call': {
      const tool = operands[0] as string;
      const args = await toolArguments(mcp, request, io, options);
      const view = new ProgressView(io.stderr);
      const watching = mcp.progress$.subscribe((event) => view.update(event));
      try {
        const result = await resultOf(mcp.callToolAsTask(tool, args, { ...options, progressToken: 'rxmcp-cli' }), view);
        return printResult(result);
      } finally {
        view.done();
        watching.unsubscribe();
      }
    }
    case 'tasks':
      return listing(mcp.listTasks(options), (task) => [task.taskId, `${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`], print);
    case 'task': {
      const taskId = operands[0] as string;
      if (request.cancel) {
        await firstValueFrom(mcp.cancelTask(taskId, options));
        if (json) print({ taskId, cancelRequested: true }, () => '');
        else io.stderr.write(`asked the server to cancel task ${terminalLine(taskId)}\n`);
        return OK;
      }
      const view = new ProgressView(io.stderr);
      try {
        // Detached: Ctrl-C leaves the task running, for a later rxmcp task ID.
        return printResult(await resultOf(mcp.resumeTask(taskId, { ...options, detach: true }), view));
      } catch (error) {
        if (!signal.aborted) throw error;
        view.done();
        const id = terminalLine(taskId);
        io.stderr.write(`rxmcp: detached from task ${id}, which goes on; rxmcp task ${id} follows it again\n`);
        return INTERRUPTED;
      } finally {
        view.done();
      }
    }
    case 'read': {
      const result = await firstValueFrom(mcp.readResource(operands[0] as string, options));
      print(result, () =>
        terminalText(result.contents.map((entry) => (typeof entry.text === 'string' ? entry.text : `[blob: ${entry.uri}, ${entry.mimeType ?? 'unknown type'}]`)).join('\n')) + '\n',
      );
      return OK;
    }
    case 'prompt': {
      const name = operands[0] as string;
      const args = await promptArguments(mcp, request, io, options);
      const result = await firstValueFrom(mcp.getPrompt(name, args, options));
      print(result, () => terminalText(result.messages.map((message) => `${message.role}: ${flattenContent([message.content as ContentBlock])}`).join('\n')) + '\n');
      return OK;
    }
    case 'listen': {
      const stream = mcp.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, options);
      io.stderr.write('listening for list changes; Ctrl-C to stop\n');
      // Interrupting is how listening ends, so it is a success here.
      await new Promise<void>((resolve, reject) => {
        const subscription = stream.subscribe({
          next: (notification) => io.stdout.write(json ? `${jsonText(notification, 0)}\n` : `${terminalLine(notification.method)}\n`),
          error: (error: unknown) => (signal.aborted ? resolve() : reject(error)),
          complete: () => resolve(),
        });
        signal.addEventListener('abort', () => (subscription.unsubscribe(), resolve()), { once: true });
      });
      return OK;
    }
    case 'login': {
      let signedIn = false;
      const watching = mcp.auth$.subscribe((auth) => (signedIn ||= auth.state === 'signed-in'));
      try {
        await firstValueFrom(mcp.listTools(options));
      } finally {
        watching.unsubscribe();
      }
      const url = terminalLine(request.url as string);
      if (json) print({ url: request.url, signedIn }, () => '');
      else io.stderr.write(signedIn ? `signed in to ${url}\n` : `${url} did not ask to sign in, or the kept tokens still serve\n`);
      return OK;
    }
    case 'ping': {
      const answered = await firstValueFrom(mcp.ping(options));
      print({ answered }, () => (answered ? 'pong\n' : 'the server does not implement ping (as a 2026-07-28 server need not)\n'));
      return OK;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }

  function printResult(result: CallToolResult): number {
    print(result, () => `${terminalText(flattenContent(result.content))}\n${result.structuredContent === undefined ? '' : `${jsonText(result.structuredContent)}\n`}`);
    return result.isError ? TOOL_ERROR : OK;
  }
}

// A task's states go to the progress line; the result is what it was for.
async function resultOf(events: Observable<TaskEvent>, view: ProgressView): Promise<CallToolResult> {
  const last = await lastValueFrom(events.pipe(tap((event) => (event.kind === 'status' ? view.status(event.task) : view.done()))));
  if (last.kind !== 'result') throw new McpClientError('the task ended without a result');
  return last.result;
}

async function listing<T>(list: Observable<T[]>, columns: (item: T) => [string, string | undefined, string?], print: (value: unknown, text: () => string) => void): Promise<number> {
  const items = await firstValueFrom(list);
  print(items, () => {
    const rows = items.map(columns).map(([first, second, third]) => [terminalLine(first), `${terminalLine((second ?? '').split('\n')[0] as string)}${third ? `  ${third}` : ''}`] as const);
    const width = rows.reduce((widest, [first]) => Math.max(widest, first.length), 0);
    return rows.map(([first, second]) => `${first.padEnd(width)}  ${second}`.trimEnd()).join('\n') + (rows.length ? '\n' : '');
  });
  return OK;
}

// A listed item's second column: its title (the name meant for people,
// 2025-11-25), then the first line of its description.
function described(item: { title?: string; description?: string; annotations?: { title?: string } }): string {
  const title = item.title ?? item.annotations?.title;
  const description = (item.description ?? '').split('\n')[0] as string;
  return title && description ? `${title}: ${description}` : (title ?? description);
}

// What else a listed item carries, in brackets after it: that it has an icon
// (the image is not shown; its src was checked by the client), and a tool's
// behaviour hints, which are the server's own claims.
function marks(item: { icons?: unknown[]; annotations?: Record<string, unknown> }): string {
  const said = item.annotations ?? {};
  const hints = (
    [
      ['readOnlyHint', 'read-only'],
      ['destructiveHint', 'destructive'],
      ['idempotentHint', 'idempotent'],
      ['openWorldHint', 'open-world'],
    ] as const
  ).flatMap(([hint, word]) => (said[hint] === true ? [word] : []));
  return [...(item.icons?.length ? ['[icon]'] : []), ...(hints.length ? [`[server says: ${hints.join(', ')}]`] : [])].join(' ');
}
