import { McpConfigError, quoteName } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { readCodex } from './codex-format.js';
import { readGemini } from './gemini-format.js';
import { readGoose } from './goose-format.js';
import { readMcpServers } from './mcp-servers-format.js';
import type { ConfigFormat, ConfigWarning, ServerConfig, ServerEntry } from './server-config.js';
import { readVscode } from './vscode-format.js';
import { readZed } from './zed-format.js';

/** Options of `normalizeServerConfig` and `parseServerConfig`. */
export interface ServerConfigOptions {
  /** The file the config came from: named in errors, and kept as each entry's `source`. */
  path?: string;
  /** The format; guessed from the shape (and, for text, the file's extension) when not given. */
  format?: ConfigFormat;
  /**
   * The project (an absolute folder, as Claude Code spells it) whose own
   * servers in Claude Code's `~/.claude.json` (`projects[project].mcpServers`)
   * are read, before the file's top-level `mcpServers`. `readServerConfig`
   * gives the current directory for a file named `.claude.json`.
   */
  project?: string;
}

const FORMATS: readonly ConfigFormat[] = ['mcp-servers', 'vscode', 'codex', 'gemini', 'goose', 'zed'];
/** The most warnings one config keeps: a hostile file must not fill a terminal. */
const MAX_WARNINGS = 200;
// Keys only Gemini CLI writes in an mcpServers entry.
const GEMINI_KEYS = ['httpUrl', 'includeTools', 'excludeTools', 'trust'];

/**
 * Reads a config object already parsed (from JSON, TOML, YAML or code) into
 * the one model of every format. Placeholders such as `${env:API_KEY}` are
 * kept as written: `resolvePlaceholders` fills them in.
 *
 * The format is guessed from the top-level key: `mcpServers` (Claude
 * Desktop, Claude Code, Cursor, Windsurf, Copilot CLI, Cline, Roo; Gemini
 * CLI's when the path is a `.gemini/settings.json` or an entry has a key
 * only Gemini writes, such as `httpUrl`), `servers` (VS Code),
 * `mcp_servers` (Codex), `extensions` (Goose) or `context_servers` (Zed).
 * Keys beside it belong to the app and are not read.
 *
 * Inside a server entry, a key the format does not document is not read:
 * it becomes a warning in `warnings` (with the known key it most likely
 * stands for). An entry that cannot be used (a key of the wrong type,
 * neither a command nor a url) fails alone: it is kept with `error` set,
 * and the other servers are read.
 *
 * @throws McpConfigError for a config that is not an object, has no servers
 *   map of a known format, or whose map is not one (too many servers, an
 *   empty name).
 * @example
 * ```ts
 * const config = normalizeServerConfig({ mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } });
 * config.servers[0]; // { name: 'fs', transport: 'stdio', command: 'npx', … }
 * ```
 */
export function normalizeServerConfig(value: unknown, options: ServerConfigOptions = {}): ServerConfig {
  const source = options.path;
  if (!isObject(value)) throw new McpConfigError({ source }, 'a server config must be an object');
  const format = options.format ?? guessFormat(value, source, options.project);
  if (!FORMATS.includes(format)) throw new McpConfigError({ source }, `unknown format ${quoteName(String(format).slice(0, 40))}`);
  const at = source === undefined ? {} : { source };
  const warnings: ConfigWarning[] = [];
  const read = (servers: ServerEntry[], inputs?: ServerConfig['inputs']): ServerConfig => ({
    format,
    ...at,
    servers,
    ...(inputs ? { inputs } : {}),
    ...(warnings.length > 0 ? { warnings: bounded(warnings, source) } : {}),
  });
  switch (format) {
    case 'mcp-servers':
      return read(readMcpServers(value, source, warnings, options.project));
    case 'codex':
      return read(readCodex(value, source, warnings));
    case 'gemini':
      return read(readGemini(value, source, warnings));
    case 'goose':
      return read(readGoose(value, source, warnings));
    case 'zed':
      return read(readZed(value, source, warnings));
    default: {
      const { servers, inputs } = readVscode(value, source, warnings);
      return read(servers, inputs);
    }
  }
}

function bounded(warnings: ConfigWarning[], source: string | undefined): ConfigWarning[] {
  if (warnings.length <= MAX_WARNINGS) return warnings;
  const more = warnings.length - MAX_WARNINGS;
  return [...warnings.slice(0, MAX_WARNINGS), { ...(source === undefined ? {} : { source }), message: new McpConfigError({ source }, `${more} more warnings left out`).message }];
}

function guessFormat(value: Record<string, unknown>, source: string | undefined, project: string | undefined): ConfigFormat {
  if (Object.hasOwn(value, 'mcpServers')) return isGemini(value['mcpServers'], source) ? 'gemini' : 'mcp-servers';
  // Claude Code's ~/.claude.json may hold a project's servers and none of its own.
  if (project !== undefined && Object.hasOwn(value, 'projects')) return 'mcp-servers';
  if (Object.hasOwn(value, 'servers')) return 'vscode';
  if (Object.hasOwn(value, 'mcp_servers')) return 'codex';
  if (Object.hasOwn(value, 'context_servers')) return 'zed';
  if (Object.hasOwn(value, 'extensions')) return 'goose';
  throw new McpConfigError(
    { source },
    'found no servers: expected mcpServers (Claude, Cursor, Windsurf, Copilot CLI, Cline, Roo, Gemini CLI), servers (VS Code), mcp_servers (Codex), extensions (Goose) or context_servers (Zed)',
  );
}

function isGemini(servers: unknown, source: string | undefined): boolean {
  if (source !== undefined && /(^|[\\/])\.gemini[\\/]settings\.json$/i.test(source)) return true;
  if (!isObject(servers)) return false;
  // Bounded: serverPairs refuses a map past MAX_SERVERS anyway.
  return Object.values(servers)
    .slice(0, 1000)
    .some((entry) => isObject(entry) && GEMINI_KEYS.some((key) => Object.hasOwn(entry, key)));
}
