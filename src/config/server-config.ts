import type { ConfigPlace, McpConfigError } from '../errors/config-errors.js';

/**
 * The shapes of config file rxmcp reads:
 *
 * - `mcp-servers`: the `mcpServers` map of Claude Desktop, Claude Code
 *   (`.mcp.json`, and `~/.claude.json` with its per-project servers), Cursor,
 *   Windsurf, Copilot CLI, Cline and Roo;
 * - `vscode`: VS Code's `mcp.json` (`servers` and `inputs`);
 * - `codex`: Codex's `config.toml` (`[mcp_servers.NAME]` tables);
 * - `gemini`: Gemini CLI's `settings.json` (`mcpServers`, where `url` means
 *   HTTP+SSE and `httpUrl` Streamable HTTP);
 * - `goose`: Goose's `config.yaml` (`extensions`), read with the optional
 *   `yaml` package;
 * - `zed`: Zed's `settings.json` (`context_servers`).
 */
export type ConfigFormat = 'mcp-servers' | 'vscode' | 'codex' | 'gemini' | 'goose' | 'zed';

/**
 * Something in a config file rxmcp read past without using: a key it does
 * not know (with the known key it most likely stands for, when one is
 * close), or an entry it cannot run (a Zed extension's). The file and its
 * servers load; the warning says what was left aside. `message` names the
 * place (quoted, escaped as `McpConfigError`'s are) and never a value.
 */
export interface ConfigWarning extends ConfigPlace {
  message: string;
}

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
   * Why this server cannot be used: its entry is broken (a key of the wrong
   * type, neither a command nor a url), a placeholder could not be filled
   * in (`resolvePlaceholders`: a variable not set, an input not answered),
   * or its `envFile` or `headersHelper` failed (`readServerConfig`). Such an
   * entry is kept (as written, as far as it reads) and is never started; the
   * other servers are unaffected.
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
  /**
   * A file of `KEY=VALUE` lines whose variables the server gets under its
   * `env` (VS Code's, Cursor's and Claude Code's `envFile`), as written.
   * `readServerConfig` reads it, in a file the user chose; see docs/config.md.
   */
  envFile?: string;
}

/** A server reached over HTTP. */
export interface HttpServerEntry extends ServerEntryBase {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  /** Which HTTP transport to speak: as `connectHttp`'s `httpTransport`. */
  httpTransport: 'auto' | 'streamable-http' | 'sse';
  /**
   * A command (run through a shell, as Claude Code runs it) whose output is
   * a JSON object of HTTP headers (Claude Code's `headersHelper`), as
   * written. `readServerConfig` runs it, in a file the user chose.
   */
  headersHelper?: string;
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
  /** What was read past without being used (unknown keys, entries rxmcp cannot run), when anything was. */
  warnings?: ConfigWarning[];
}
