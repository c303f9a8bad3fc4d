import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';
import { MAX_CONFIG_CHARS, parseServerConfig } from './parse-server-config.js';
import { markResolved, resolvePlaceholders, type ResolveOptions } from './placeholders.js';
import type { ConfigFormat, ServerConfig, ServerEntry } from './server-config.js';
import { McpConfigError } from '../errors/config-errors.js';
import { messageOf } from '../util/values.js';
import { readEnvFile } from './env-file.js';
import { checkHeaders } from './header-check.js';
import { runHeadersHelper } from './headers-helper.js';

/** Options of `readServerConfig`. */
export interface ReadServerConfigOptions extends ResolveOptions {
  /** The format; guessed from the extension and the shape when not given. */
  format?: ConfigFormat;
  /** The largest file read, in bytes (default 16 MiB). */
  maxBytes?: number;
  /**
   * The project `${workspaceFolder}` names. By default the folder holding the
   * file's `.vscode`, `.cursor` or `.codex` folder, or a `.mcp.json`'s own
   * folder; else the current directory.
   */
  workspaceFolder?: string;
  /**
   * The folder a stdio server whose entry names no `cwd` starts in, and the
   * one a relative `cwd` is read against. By default the folder the file
   * belongs to: the project holding its `.vscode`, `.cursor` or `.codex`
   * folder (`~/.cursor/mcp.json` belongs to the home folder), else the
   * file's own folder. Never the current directory: that may be a cloned
   * repository, whose `node_modules`, `.npmrc` or `package.json` would
   * choose what a user's `npx -y` server runs.
   */
  cwd?: string;
  /**
   * Where the file came from, as `findServerConfigs` says: `user` (the
   * default) for a file of the user's own or one the user chose, `project`
   * for one found in the working directory that nobody chose (it may have
   * come with a cloned repository). A project's file gets no `envFile` read
   * and no `headersHelper` run: each server that names one fails with an
   * McpConfigError saying so, rather than start without what it asks for.
   */
  scope?: 'user' | 'project';
  /**
   * For Claude Code's `~/.claude.json`: the project whose own servers
   * (`projects[project].mcpServers`) are read before the file's top-level
   * ones (default: the current directory, for a file named `.claude.json`).
   */
  project?: string;
  /** How long a `headersHelper` may run, in ms (default 10 000). */
  helperTimeoutMs?: number;
}

/**
 * Reads a config file of any supported format (Claude Desktop, Claude Code,
 * Cursor, Windsurf, Copilot CLI, Cline, Roo, VS Code, Codex, Gemini CLI,
 * Goose, Zed) and fills in its placeholders: `${VAR}`
 * and `${env:VAR}` from `options.env` (default `process.env`), `${input:ID}`
 * through `options.inputs`, `${userHome}`, `${workspaceFolder}` and the
 * path separator. Each server's `source` is `path`. Each stdio server gets
 * a `cwd`: its own, read against the folder the file belongs to, or that
 * folder itself (`options.cwd` overrides it).
 *
 * A server whose variable is not set (or whose input is not answered) is
 * kept with `error` set, and fails alone: the file and its other servers work.
 *
 * In a file of the user's own (`scope: 'user'`, the default), a stdio
 * server's `envFile` is read (`KEY=VALUE` lines, under its `env`, read
 * against the folder the file belongs to) and an HTTP server's
 * `headersHelper` is run (Claude Code's: a shell command printing a JSON
 * object of headers, laid over its `headers`); either failing fails that
 * server alone. The entries returned hold the result, without the two keys.
 *
 * @throws McpConfigError (as a rejection) for a file that cannot be read, is too large or malformed.
 * @example
 * ```ts
 * import { readServerConfig } from 'rxmcp/node';
 * const tools = Registry.fromConfig(await readServerConfig('.cursor/mcp.json'));
 * ```
 */
export async function readServerConfig(path: string, options: ReadServerConfigOptions = {}): Promise<ServerConfig> {
  const { format, maxBytes = MAX_CONFIG_CHARS, workspaceFolder, cwd, scope = 'user', project, helperTimeoutMs, ...resolving } = options;
  const full = resolve(path);
  let text: string;
  try {
    const info = await stat(full);
    if (!info.isFile()) throw new McpConfigError({ source: path }, 'is not a file');
    if (info.size > maxBytes) throw new McpConfigError({ source: path }, `is larger than ${maxBytes} bytes`);
    text = await readFile(full, 'utf8');
  } catch (error) {
    if (error instanceof McpConfigError) throw error;
    throw new McpConfigError({ source: path }, `cannot be read: ${(error as { code?: string }).code ?? messageOf(error)}`);
  }
  // Claude Code keeps a project's own servers in ~/.claude.json, under the project's absolute path.
  const claude = project !== undefined ? { project } : basename(full) === '.claude.json' ? { project: process.cwd() } : {};
  const config = await parseServerConfig(text, { path, maxChars: maxBytes, ...(format ? { format } : {}), ...claude });
  const folder = workspaceFolder ?? projectOf(full);
  const resolved = await resolvePlaceholders(config, {
    ...resolving,
    env: resolving.env ?? process.env,
    variables: { userHome: homedir(), workspaceFolder: folder, workspaceFolderBasename: basename(folder), pathSeparator: sep, '/': sep, ...resolving.variables },
  });
  // A server left unresolved never starts: its cwd may still hold a placeholder.
  const base = cwd === undefined ? ownerOf(full) : resolve(cwd);
  const servers = resolved.servers.map((entry) => (entry.transport === 'stdio' && !entry.error ? { ...entry, cwd: resolve(base, entry.cwd ?? '.') } : entry));
  const helped = await Promise.all(servers.map((entry) => withHelpers(entry, { base, scope, ...(helperTimeoutMs === undefined ? {} : { timeoutMs: helperTimeoutMs }) })));
  return { ...resolved, servers: helped };
}

// The envFile read, the headersHelper run: only in a file the user chose, only
// for a server that may start. Either failing fails that server alone.
async function withHelpers(entry: ServerEntry, options: { base: string; scope: 'user' | 'project'; timeoutMs?: number }): Promise<ServerEntry> {
  if (entry.disabled || entry.error) return entry;
  const place = { source: entry.source, server: entry.name };
  const key = entry.transport === 'stdio' ? (entry.envFile === undefined ? undefined : 'envFile') : entry.headersHelper === undefined ? undefined : 'headersHelper';
  if (key === undefined) return entry;
  if (options.scope === 'project') {
    const error = new McpConfigError({ ...place, key }, `is not honoured in a project's file that was found, not chosen: name the file yourself (rxmcp --config FILE) to use it`);
    return { ...entry, error };
  }
  try {
    if (entry.transport === 'stdio') {
      const { envFile, ...rest } = entry;
      const fromFile = await readEnvFile(resolve(options.base, envFile as string), { ...place, key: 'envFile' });
      // The entry's own env wins over the file's, as in VS Code.
      return markResolved({ ...rest, env: Object.assign(Object.create(null) as Record<string, string>, fromFile, entry.env) });
    }
    const { headersHelper, ...rest } = entry;
    const made = await runHeadersHelper(headersHelper as string, { cwd: options.base, server: entry.name, url: entry.url, place, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
    const headers = Object.assign(Object.create(null) as Record<string, string>, entry.headers, made);
    const helped = { ...rest, headers };
    checkHeaders(helped, place);
    return markResolved(helped);
  } catch (error) {
    if (!(error instanceof McpConfigError)) throw error;
    return { ...entry, error };
  }
}

// The folder a config file belongs to: a project's (or the home folder's)
// for a file in its .vscode, .cursor or .codex folder, else the file's own.
function ownerOf(file: string): string {
  const folder = dirname(file);
  return PROJECT_FOLDERS.includes(basename(folder)) ? dirname(folder) : folder;
}

// The folders apps keep a project's (or, in the home folder, the user's) config in.
const PROJECT_FOLDERS = ['.vscode', '.cursor', '.codex', '.gemini', '.zed', '.roo', '.copilot'];

function projectOf(file: string): string {
  const folder = dirname(file);
  if (PROJECT_FOLDERS.includes(basename(folder))) return dirname(folder);
  return basename(file) === '.mcp.json' ? folder : process.cwd();
}
