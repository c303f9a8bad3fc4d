import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ConfigFormat } from './server-config.js';
import { MAX_CONFIG_CHARS } from './parse-server-config.js';
import { stripJsonComments } from './jsonc.js';
import { isObject } from '../util/values.js';

/** A config file that exists, with what wrote it. */
export interface FoundConfig {
  path: string;
  /**
   * The app whose file it is: `claude-code`, `cursor`, `vscode`, `codex`,
   * `gemini`, `zed`, `roo`, `claude-desktop`, `windsurf`, `copilot-cli`,
   * `goose`, `cline`.
   */
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

// A file that is an app's whole settings is listed only when it names servers.
type Candidate = FoundConfig & { onlyWith?: (top: Record<string, unknown>) => boolean; onlyWithText?: RegExp };

/**
 * Lists the MCP config files that exist for the current project and user,
 * in this order (the more specific first, so a name found twice is taken
 * from the earlier file):
 *
 * 1. project: `.mcp.json` (Claude Code), `.cursor/mcp.json` (Cursor),
 *    `.vscode/mcp.json` (VS Code), `.codex/config.toml` (Codex),
 *    `.gemini/settings.json` (Gemini CLI, when it has `mcpServers`),
 *    `.zed/settings.json` (Zed, when it has `context_servers`),
 *    `.roo/mcp.json` (Roo);
 * 2. user: `~/.claude.json` (Claude Code, when it holds `mcpServers`, or
 *    servers of its own for the project `cwd`), Claude Desktop's
 *    `claude_desktop_config.json`, `~/.cursor/mcp.json`, VS Code's user
 *    `mcp.json`, `~/.codeium/windsurf/mcp_config.json` (Windsurf),
 *    `$CODEX_HOME/config.toml` (default `~/.codex`), `~/.gemini/settings.json`,
 *    `~/.copilot/mcp-config.json` (Copilot CLI), Goose's `goose/config.yaml`
 *    and Zed's `zed/settings.json` (in `$XDG_CONFIG_HOME`, default
 *    `~/.config`; in `%APPDATA%` on Windows), and Cline's and Roo's files in
 *    VS Code's `globalStorage`.
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
    if ((candidate.onlyWith !== undefined || candidate.onlyWithText !== undefined) && !(await holds(candidate))) continue;
    const { onlyWith: _, onlyWithText: __, ...config } = candidate;
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
  // Goose and Zed keep theirs in the XDG folder on macOS too; on Windows in the roaming app data.
  const xdg = platform === 'win32' ? appData : (env('XDG_CONFIG_HOME') ?? join(home, '.config'));
  const goose = platform === 'win32' ? join(appData, 'Block', 'goose', 'config', 'config.yaml') : join(xdg, 'goose', 'config.yaml');
  const zed = platform === 'win32' ? join(appData, 'Zed', 'settings.json') : join(xdg, 'zed', 'settings.json');
  const globalStorage = join(appData, 'Code', 'User', 'globalStorage');
  const project = (file: string[], app: string, format: ConfigFormat): Candidate => ({ path: join(cwd, ...file), app, format, scope: 'project' });
  const user = (file: string, app: string, format: ConfigFormat): Candidate => ({ path: file, app, format, scope: 'user' });
  const has = (key: string) => (top: Record<string, unknown>) => Object.hasOwn(top, key);
  const claude = (top: Record<string, unknown>): boolean => {
    const projects = top['projects'];
    const own = isObject(projects) && Object.hasOwn(projects, cwd) ? projects[cwd] : undefined;
    return Object.hasOwn(top, 'mcpServers') || (isObject(own) && Object.hasOwn(own, 'mcpServers'));
  };
  const candidates: Candidate[] = [
    project(['.mcp.json'], 'claude-code', 'mcp-servers'),
    project(['.cursor', 'mcp.json'], 'cursor', 'mcp-servers'),
    project(['.vscode', 'mcp.json'], 'vscode', 'vscode'),
    project(['.codex', 'config.toml'], 'codex', 'codex'),
    { ...project(['.gemini', 'settings.json'], 'gemini', 'gemini'), onlyWith: has('mcpServers') },
    { ...project(['.zed', 'settings.json'], 'zed', 'zed'), onlyWith: has('context_servers') },
    project(['.roo', 'mcp.json'], 'roo', 'mcp-servers'),
    { ...user(join(home, '.claude.json'), 'claude-code', 'mcp-servers'), onlyWith: claude },
    user(join(appData, 'Claude', 'claude_desktop_config.json'), 'claude-desktop', 'mcp-servers'),
    user(join(home, '.cursor', 'mcp.json'), 'cursor', 'mcp-servers'),
    user(join(appData, 'Code', 'User', 'mcp.json'), 'vscode', 'vscode'),
    user(join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf', 'mcp-servers'),
    user(join(env('CODEX_HOME') ?? join(home, '.codex'), 'config.toml'), 'codex', 'codex'),
    { ...user(join(home, '.gemini', 'settings.json'), 'gemini', 'gemini'), onlyWith: has('mcpServers') },
    user(join(home, '.copilot', 'mcp-config.json'), 'copilot-cli', 'mcp-servers'),
    { ...user(goose, 'goose', 'goose'), onlyWithText: /^extensions:/m },
    { ...user(zed, 'zed', 'zed'), onlyWith: has('context_servers') },
    user(join(globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), 'cline', 'mcp-servers'),
    user(join(globalStorage, 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), 'roo', 'mcp-servers'),
  ];
  // Run from the home folder, a project's file (~/.cursor/mcp.json) is the
  // user's own file: listed once, as the user's.
  const usersFiles = new Set(candidates.filter((candidate) => candidate.scope === 'user').map((candidate) => candidate.path));
  return candidates.filter((candidate) => candidate.scope === 'user' || !usersFiles.has(candidate.path));
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

// Claude Code's ~/.claude.json is its whole state, Gemini's and Zed's
// settings.json and Goose's config.yaml hold all their settings: they name
// servers only sometimes. One that cannot be read or parsed is listed, so
// that reading it says why.
async function holds(candidate: Candidate): Promise<boolean> {
  try {
    if ((await stat(candidate.path)).size > MAX_CONFIG_CHARS) return true;
    const text = await readFile(candidate.path, 'utf8');
    if (candidate.onlyWithText) return candidate.onlyWithText.test(text);
    const value: unknown = JSON.parse(stripJsonComments(text.replace(/^\uFEFF/, '')));
    return !isObject(value) || (candidate.onlyWith?.(value) ?? true);
  } catch {
    return true;
  }
}
