import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';
import { MAX_CONFIG_CHARS, parseServerConfig } from './parse-server-config.js';
import { resolvePlaceholders, type ResolveOptions } from './placeholders.js';
import type { ConfigFormat, ServerConfig } from './server-config.js';
import { McpConfigError } from '../errors/config-errors.js';
import { messageOf } from '../util/values.js';

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
}

/**
 * Reads a config file of any supported format (Claude Desktop, Claude Code,
 * Cursor, Windsurf, VS Code, Codex) and fills in its placeholders: `${VAR}`
 * and `${env:VAR}` from `options.env` (default `process.env`), `${input:ID}`
 * through `options.inputs`, `${userHome}`, `${workspaceFolder}` and the
 * path separator. Each server's `source` is `path`. Each stdio server gets
 * a `cwd`: its own, read against the folder the file belongs to, or that
 * folder itself (`options.cwd` overrides it).
 *
 * A server whose variable is not set (or whose input is not answered) is
 * kept with `error` set, and fails alone: the file and its other servers work.
 *
 * @throws McpConfigError (as a rejection) for a file that cannot be read, is too large or malformed.
 * @example
 * ```ts
 * import { readServerConfig } from 'rxmcp/node';
 * const tools = Registry.fromConfig(await readServerConfig('.cursor/mcp.json'));
 * ```
 */
export async function readServerConfig(path: string, options: ReadServerConfigOptions = {}): Promise<ServerConfig> {
  const { format, maxBytes = MAX_CONFIG_CHARS, workspaceFolder, cwd, ...resolving } = options;
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
  const config = await parseServerConfig(text, { path, maxChars: maxBytes, ...(format ? { format } : {}) });
  const folder = workspaceFolder ?? projectOf(full);
  const resolved = await resolvePlaceholders(config, {
    ...resolving,
    env: resolving.env ?? process.env,
    variables: { userHome: homedir(), workspaceFolder: folder, workspaceFolderBasename: basename(folder), pathSeparator: sep, '/': sep, ...resolving.variables },
  });
  // A server left unresolved never starts: its cwd may still hold a placeholder.
  const base = cwd === undefined ? ownerOf(full) : resolve(cwd);
  const servers = resolved.servers.map((entry) => (entry.transport === 'stdio' && !entry.error ? { ...entry, cwd: resolve(base, entry.cwd ?? '.') } : entry));
  return { ...resolved, servers };
}

// The folder a config file belongs to: a project's (or the home folder's)
// for a file in its .vscode, .cursor or .codex folder, else the file's own.
function ownerOf(file: string): string {
  const folder = dirname(file);
  return ['.vscode', '.cursor', '.codex'].includes(basename(folder)) ? dirname(folder) : folder;
}

function projectOf(file: string): string {
  const folder = dirname(file);
  if (['.vscode', '.cursor', '.codex'].includes(basename(folder))) return dirname(folder);
  return basename(file) === '.mcp.json' ? folder : process.cwd();
}
