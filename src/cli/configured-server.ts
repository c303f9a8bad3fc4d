import type { ServerConfig, ServerEntry } from '../index.js';
import { McpConfigError } from '../errors/config-errors.js';
import { type FoundConfig, findServerConfigs, readServerConfig } from '../node/index.js';
import { type CliRequest, UsageError } from './args.js';
import { askConfigInput } from './config-input.js';
import type { CliIo } from './connect.js';
import { terminalLine } from './terminal-text.js';

/** A server picked from a config file, and the file it came from. */
export interface ConfiguredServer {
  entry: ServerEntry;
  source: string;
}

/** A config file, read, or the reason it could not be. */
export interface ConfigFile {
  path: string;
  /** Set for a file rxmcp found (not one given with --config). */
  found?: FoundConfig;
  config?: ServerConfig;
  error?: Error;
}

/**
 * The config files a request names: its `--config FILE` alone, or every file
 * `findServerConfigs()` finds, in that order. A file that cannot be read
 * (malformed, a variable missing) is kept with its error, so that one bad
 * file does not hide the others. VS Code's `${input:ID}` placeholders are
 * asked at the terminal (unless --no-input, or stdin is not one).
 */
export async function configFiles(request: CliRequest, io: CliIo): Promise<ConfigFile[]> {
  const found: Array<{ path: string; found?: FoundConfig }> =
    request.configPath === undefined ? (await findServerConfigs()).map((file) => ({ path: file.path, found: file })) : [{ path: request.configPath }];
  // VS Code's ${input:ID} is asked at the terminal, when there is one to ask at.
  const interactive = !request.noInput && io.stdin.isTTY === true;
  const files: ConfigFile[] = [];
  // One file after another: two files must not ask their inputs at once.
  for (const file of found) {
    const inputs = (id: string, description: string): Promise<string> => {
      if (interactive) return askConfigInput(id, description, file.path, io);
      throw new McpConfigError({ source: file.path }, `input ${JSON.stringify(id)} is asked at a terminal, and ${request.noInput ? '--no-input is given' : 'stdin is not one'}`);
    };
    // A project's file found here is listed, not run: nothing of the environment
    // is filled into it (its command or URL could carry a secret into the
    // listing), and none of its inputs is asked (a cloned file's question).
    const listedOnly = file.found?.scope === 'project';
    try {
      // Nor is its envFile read or its headersHelper run: scope 'project' fails those servers instead.
      files.push({ ...file, config: await readServerConfig(file.path, listedOnly ? { env: {}, inputs: notAsked(file.path), scope: 'project' } : { inputs }) });
    } catch (error) {
      if (!(error instanceof McpConfigError)) throw error;
      files.push({ ...file, error });
    }
  }
  return files;
}

/**
 * Says a file's warnings (keys rxmcp read past, entries it cannot run) on
 * stderr, one line each, safe for the terminal.
 */
export function sayWarnings(file: ConfigFile, io: CliIo): void {
  for (const warning of file.config?.warnings ?? []) io.stderr.write(`rxmcp: warning: ${terminalLine(warning.message)}\n`);
}

function notAsked(path: string) {
  return (id: string): never => {
    throw new McpConfigError({ source: path }, `input ${JSON.stringify(id)} is not asked for a project's file rxmcp found: name it with --config`);
  };
}

/**
 * Whether rxmcp starts the servers of this file: any file named with
 * --config, and a found file of the user's own, but not a project's file
 * found in the working directory, which came with the project (a cloned
 * repository) and would run whatever command it names.
 */
export function startable(file: ConfigFile): boolean {
  return file.found?.scope !== 'project';
}

/**
 * The server `--server NAME` and/or `--config FILE` name: the first of that
 * name in the files' order (with --config alone, the file's only enabled
 * server).
 *
 * @throws UsageError when no file is found, no server has that name (the
 *   message lists the names there are), the server is disabled, or it is in
 *   a project's file found in the working directory (which runs only when
 *   named with --config).
 * @throws McpConfigError when the --config file cannot be read.
 */
export async function configuredServer(request: CliRequest, io: CliIo): Promise<ConfiguredServer> {
  const files = await configFiles(request, io);
  if (files.length === 0) throw new UsageError('found no MCP config file here or in your home directory; name one with --config FILE');
  const name = request.serverName;
  if (name === undefined) {
    const [file] = files as [ConfigFile];
    if (file.error) throw file.error;
    sayWarnings(file, io);
    const enabled = (file.config as ServerConfig).servers.filter((entry) => !entry.disabled);
    if (enabled.length !== 1) {
      throw new UsageError(`${JSON.stringify(file.path)} holds ${enabled.length} enabled servers: pick one with --server NAME${namesIn(enabled)}`);
    }
    const only = enabled[0] as ServerEntry;
    if (only.error) throw only.error;
    return { entry: only, source: file.path };
  }
  for (const file of files) {
    const entry = file.config?.servers.find((server) => server.name === name);
    if (entry === undefined) continue;
    if (entry.disabled) throw new UsageError(`server ${JSON.stringify(name)} is disabled in ${JSON.stringify(file.path)}`);
    if (!startable(file)) {
      throw new UsageError(
        `server ${JSON.stringify(name)} comes from the project's ${JSON.stringify(file.path)}; rxmcp runs a project's servers only when you name the file: --config ${JSON.stringify(file.path)}`,
      );
    }
    sayWarnings(file, io);
    // A variable missing for this server (and this server alone): exit 3, naming it.
    if (entry.error) throw entry.error;
    return { entry, source: file.path };
  }
  if (files.length === 1 && files[0]?.error) throw files[0].error;
  const known = files.flatMap((file) => file.config?.servers ?? []);
  const unread = files.filter((file) => file.error).map((file) => JSON.stringify(file.path));
  throw new UsageError(
    `no server named ${JSON.stringify(name)}${namesIn(known)}${unread.length ? `; could not read ${unread.join(', ')}` : ''}`,
  );
}

function namesIn(entries: readonly ServerEntry[]): string {
  const names = [...new Set(entries.map((entry) => JSON.stringify(entry.name)))];
  return names.length ? `; the servers there are ${names.join(', ')}` : '; there are none';
}

/**
 * The request, aimed at a configured server: its URL and headers, or its
 * command, arguments, environment and directory. What the command line
 * gave itself (--header, --env, --cwd) goes on top.
 */
export function aimedAt(request: CliRequest, entry: ServerEntry): CliRequest {
  if (entry.transport === 'http') {
    return { ...request, url: entry.url, httpTransport: entry.httpTransport, headers: { ...entry.headers, ...request.headers } };
  }
  return {
    ...request,
    server: { command: entry.command, args: entry.args },
    env: { ...entry.env, ...request.env },
    ...(request.cwd === undefined && entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
  };
}
