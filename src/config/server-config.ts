import type { McpConfigError } from '../errors/config-errors.js';

/**
 * The shapes of config file rxmcp reads: `mcp-servers` is the `mcpServers`
 * map of Claude Desktop, Claude Code (`.mcp.json`), Cursor and Windsurf;
 * `vscode` is VS Code's `mcp.json` (`servers` and `inputs`); `codex` is
 * Codex's `config.toml` (`[mcp_servers.NAME]` tables).
 */
export type ConfigFormat = 'mcp-servers' | 'vscode' | 'codex';

/** What every server entry has, whatever its transport. */
interface ServerEntryBase {
  /** The server's name in the file: the key of its entry. */
  name: string;
  /** Whether the file switches it off (`disabled: true`, or Codex's `enabled = false`). */
  disabled: boolean;
  /** The file the entry came from, when it came from one. */
  source?: string;
  /** Only these tools are offered (Codex's `enabled_tools`), when given. */
  enabledTools?: string[];
  /** These tools are never offered (Codex's `disabled_tools`, Windsurf's and Roo's `disabledTools`), when given. */
  disabledTools?: string[];
  /**
   * Whether its tools are always shown behind a `ToolSearch` (Claude Code's
   * `alwaysLoad`, Codex's `always_load` as rxmcp reads it): set, as `true`,
   * only when the file says so. Never passed to the server.
   */
  alwaysLoad?: boolean;
  /**
   * Set by `resolvePlaceholders` when this server's placeholders could not be
   * filled in (a variable not set, an input not answered): the entry is kept
   * as written and is never started; the other servers are unaffected.
   */
  error?: McpConfigError;
}

/** A server started as a child process. */
export interface StdioServerEntry extends ServerEntryBase {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Entries layered over the environment of the process that starts the server. */
  env: Record<string, string>;
  cwd?: string;
}

/** A server reached over HTTP. */
export interface HttpServerEntry extends ServerEntryBase {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  /** Which HTTP transport to speak: as `connectHttp`'s `httpTransport`. */
  httpTransport: 'auto' | 'streamable-http' | 'sse';
}

/** One server of a config file, in one shape whatever the file's format. */
export type ServerEntry = StdioServerEntry | HttpServerEntry;

/** A VS Code input: a value `${input:ID}` stands for, asked of a person. */
export interface ConfigInput {
  id: string;
  /** What to show the person asked. */
  description: string;
  /** Whether the answer is a secret (to be typed unseen). */
  password: boolean;
}

/** A config file read into one model: its format, where it came from, its servers in file order. */
export interface ServerConfig {
  format: ConfigFormat;
  /** The file, when the config came from one. */
  source?: string;
  servers: ServerEntry[];
  /** VS Code's declared inputs, for the hook that answers `${input:ID}`. */
  inputs?: ConfigInput[];
}
