import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ConfigFormat } from './server-config.js';
import { MAX_CONFIG_CHARS } from './parse-server-config.js';

/** A config file that exists, with what wrote it. */
export interface FoundConfig {
  path: string;
  /** The app whose file it is: `claude-code`, `cursor`, `vscode`, `codex`, `claude-desktop`, `windsurf`. */
  app: string;
  format: ConfigFormat;
  /** `project` for a file in the project folder, `user` for one in the user's home or app data. */
  scope: 'project' | 'user';
}

/** Options of `findServerConfigs`. */
export interface FindServerConfigsOptions {
  /** The project folder (default `process.cwd()`). */
  cwd?: string;
  /** The user's home (default `os.homedir()`). */
  home?: string;
  /** Which platform's app-data locations to look in (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** Where `APPDATA`, `XDG_CONFIG_HOME` and `CODEX_HOME` are read (default `process.env`); a relative value is ignored. */
  env?: Readonly<Record<string, string | undefined>>;
}

type Candidate = Omit<FoundConfig, 'path'> & { path: string; onlyWith?: string };

/**
 * Lists the MCP config files that exist for the current project and user,
 * in this order (the more specific first, so a name found twice is taken
 * from the earlier file):
 *
 * 1. project: `.mcp.json` (Claude Code), `.cursor/mcp.json` (Cursor),
 *    `.vscode/mcp.json` (VS Code), `.codex/config.toml` (Codex);
 * 2. user: `~/.claude.json` (Claude Code, only when it holds `mcpServers`),
 *    Claude Desktop's `claude_desktop_config.json`, `~/.cursor/mcp.json`,
 *    VS Code's user `mcp.json`, `~/.codeium/windsurf/mcp_config.json`
 *    (Windsurf), and `$CODEX_HOME/config.toml` (default `~/.codex`).
 *
 * Claude Desktop and VS Code keep theirs in the platform's app data:
 * `~/Library/Application Support` on macOS, `%APPDATA%` on Windows,
 * `$XDG_CONFIG_HOME` (default `~/.config`) elsewhere. A path is listed once.
 *
 * @example
 * ```ts
 * for (const found of await findServerConfigs()) console.log(found.scope, found.app, found.path);
 * ```
 */
export async function findServerConfigs(options: FindServerConfigsOptions = {}): Promise<FoundConfig[]> {
  const found: FoundConfig[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates(options)) {
    if (seen.has(candidate.path)) continue;
    seen.add(candidate.path);
    if (!(await isFile(candidate.path))) continue;
    if (candidate.onlyWith !== undefined && !(await holds(candidate.path, candidate.onlyWith))) continue;
    const { onlyWith: _, ...config } = candidate;
    found.push(config);
  }
  return found;
}

function candidates(options: FindServerConfigsOptions): Candidate[] {
  const platform = options.platform ?? process.platform;
  const given = options.env ?? process.env;
  // A relative folder is ignored, as the XDG spec says of its variables: read
  // against the current directory, it would make a cloned repository's
  // `.config/Code/User/mcp.json` the user's own file, whose servers run.
  const env = (name: string): string | undefined => {
    const value = given[name];
    return value !== undefined && isAbsolute(value) ? value : undefined;
  };
  const home = options.home ?? homedir();
  const cwd = options.cwd ?? process.cwd();
  const appData =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env('APPDATA') ?? join(home, 'AppData', 'Roaming'))
        : (env('XDG_CONFIG_HOME') ?? join(home, '.config'));
  const project = (file: string[], app: string, format: ConfigFormat): Candidate => ({ path: join(cwd, ...file), app, format, scope: 'project' });
  const user = (file: string, app: string, format: ConfigFormat): Candidate => ({ path: file, app, format, scope: 'user' });
  return [
    project(['.mcp.json'], 'claude-code', 'mcp-servers'),
    project(['.cursor', 'mcp.json'], 'cursor', 'mcp-servers'),
    project(['.vscode', 'mcp.json'], 'vscode', 'vscode'),
    project(['.codex', 'config.toml'], 'codex', 'codex'),
    { ...user(join(home, '.claude.json'), 'claude-code', 'mcp-servers'), onlyWith: 'mcpServers' },
    user(join(appData, 'Claude', 'claude_desktop_config.json'), 'claude-desktop', 'mcp-servers'),
    user(join(home, '.cursor', 'mcp.json'), 'cursor', 'mcp-servers'),
    user(join(appData, 'Code', 'User', 'mcp.json'), 'vscode', 'vscode'),
    user(join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf', 'mcp-servers'),
    user(join(env('CODEX_HOME') ?? join(home, '.codex'), 'config.toml'), 'codex', 'codex'),
  ];
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

// Claude Code's ~/.claude.json is its whole state; it names servers only sometimes.
// One that cannot be read or parsed is listed, so that reading it says why.
async function holds(path: string, key: string): Promise<boolean> {
  try {
    if ((await stat(path)).size > MAX_CONFIG_CHARS) return true;
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof value !== 'object' || value === null || Object.hasOwn(value, key);
  } catch {
    return true;
  }
}
