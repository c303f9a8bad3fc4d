import { McpConfigError, quoteName } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { readCodex } from './codex-format.js';
import { readMcpServers } from './mcp-servers-format.js';
import type { ConfigFormat, ServerConfig } from './server-config.js';
import { readVscode } from './vscode-format.js';

/** Options of `normalizeServerConfig` and `parseServerConfig`. */
export interface ServerConfigOptions {
  /** The file the config came from: named in errors, and kept as each entry's `source`. */
  path?: string;
  /** The format; guessed from the shape (and, for text, the file's extension) when not given. */
  format?: ConfigFormat;
}

const FORMATS: readonly ConfigFormat[] = ['mcp-servers', 'vscode', 'codex'];

/**
 * Reads a config object already parsed (from JSON, TOML or code) into the one
 * model of every format. Placeholders such as `${env:API_KEY}` are kept as
 * written: `resolvePlaceholders` fills them in.
 *
 * The format is guessed from the top-level key: `mcpServers` (Claude
 * Desktop, Claude Code, Cursor, Windsurf), `servers` (VS Code) or
 * `mcp_servers` (Codex). Keys beside it belong to the app and are not read;
 * inside a server entry every key must be one its format documents.
 *
 * @throws McpConfigError naming the source, server and key of the first problem.
 * @example
 * ```ts
 * const config = normalizeServerConfig({ mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } });
 * config.servers[0]; // { name: 'fs', transport: 'stdio', command: 'npx', … }
 * ```
 */
export function normalizeServerConfig(value: unknown, options: ServerConfigOptions = {}): ServerConfig {
  const source = options.path;
  if (!isObject(value)) throw new McpConfigError({ source }, 'a server config must be an object');
  const format = options.format ?? guessFormat(value, source);
  if (!FORMATS.includes(format)) throw new McpConfigError({ source }, `unknown format ${quoteName(String(format).slice(0, 40))}`);
  const at = source === undefined ? {} : { source };
  switch (format) {
    case 'mcp-servers':
      return { format, ...at, servers: readMcpServers(value, source) };
    case 'codex':
      return { format, ...at, servers: readCodex(value, source) };
    default: {
      const { servers, inputs } = readVscode(value, source);
      return { format, ...at, servers, inputs };
    }
  }
}

function guessFormat(value: Record<string, unknown>, source: string | undefined): ConfigFormat {
  if (Object.hasOwn(value, 'mcpServers')) return 'mcp-servers';
  if (Object.hasOwn(value, 'servers')) return 'vscode';
  if (Object.hasOwn(value, 'mcp_servers')) return 'codex';
  throw new McpConfigError({ source }, 'found no servers: expected mcpServers (Claude, Cursor, Windsurf), servers (VS Code) or mcp_servers (Codex)');
}
