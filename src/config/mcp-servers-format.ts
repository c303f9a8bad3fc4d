import { quoteName, type ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { EntryReader, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigWarning, HttpServerEntry, ServerEntry } from './server-config.js';
import { withToolFilters } from './tool-filters.js';

// The keys the apps that write an `mcpServers` map document for an entry.
// Used: what says which server and how to reach it, and which of its tools are offered or always loaded
// (`tools` is Copilot CLI's allow-list; `envFile` and `headersHelper` are honoured by readServerConfig).
const USED = ['command', 'args', 'env', 'cwd', 'type', 'url', 'serverUrl', 'headers', 'disabled', 'disabledTools', 'alwaysLoad', 'tools', 'envFile', 'headersHelper'];
// Accepted and left aside: each app's own settings, which do not change which
// server runs (OAuth client settings come from rxmcp's own `auth` option;
// Cline's and Roo's approvals never bypass a Policy).
const APP_ONLY = ['oauth', 'auth', 'timeout', 'autoApprove', 'alwaysAllow', 'watchPaths', 'description', 'networkTimeout'];
const KNOWN = new Set([...USED, ...APP_ONLY]);

/**
 * The `mcpServers` map of Claude Desktop, Claude Code (`.mcp.json` and
 * `~/.claude.json`), Cursor, Windsurf, Copilot CLI, Cline and Roo. Keys
 * beside `mcpServers` at the top belong to the app (Claude Desktop keeps
 * its preferences there) and are not read, but for Claude Code's
 * `projects[project].mcpServers` when `project` is given: those servers
 * come first, and a top-level server of the same name is left out (Claude
 * Code's own order: a project's servers over the user's).
 */
export function readMcpServers(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[], project?: string): ServerEntry[] {
  const read = (place: ConfigPlace, name: string, value: unknown) => readEntry(place, name, value, warnings);
  const own = projectServers(top, project);
  const mine = own === undefined ? [] : readEntries({ source }, serverPairs({ source }, own, `projects.${project}.mcpServers`), read);
  const taken = new Set(mine.map((entry) => entry.name));
  const everywhere = readEntries({ source }, serverPairs({ source }, top['mcpServers'], 'mcpServers'), read).filter((entry) => !taken.has(entry.name));
  return [...mine, ...everywhere];
}

function projectServers(top: Record<string, unknown>, project: string | undefined): unknown {
  if (project === undefined) return undefined;
  const projects = top['projects'];
  if (!isObject(projects) || !Object.hasOwn(projects, project)) return undefined;
  const settings = projects[project];
  return isObject(settings) && Object.hasOwn(settings, 'mcpServers') ? settings['mcpServers'] : undefined;
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry {
  const entry = EntryReader.of(place, value, 'a server entry', warnings);
  entry.onlyKnown(KNOWN, 'mcpServers');
  const base = { name, disabled: entry.boolean('disabled') ?? false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  const type = entry.string('type');
  const url = entry.string('url') ?? entry.string('serverUrl');
  const command = entry.string('command');
  if (command !== undefined && url !== undefined) entry.fail('url', 'an entry has a command or a url, not both');
  const tools = copilotTools(entry);
  // Copilot CLI writes `local` for a server it starts.
  if (type === 'stdio' || type === 'local' || (type === undefined && command !== undefined)) {
    if (url !== undefined) entry.fail('url', 'a stdio server has no url');
    if (entry.has('headersHelper')) entry.fail('headersHelper', 'a stdio server has no headersHelper');
    const envFile = entry.has('envFile') ? { envFile: entry.requiredString('envFile') } : {};
    return withToolFilters(entry, { ...base, ...tools, ...entry.stdioFields(), ...envFile });
  }
  const httpTransport = httpTransportOf(entry, type);
  if (url === undefined || url === '') return entry.fail(entry.has('serverUrl') ? 'serverUrl' : 'url', 'an HTTP server needs a url (or a command, to start it over stdio)');
  entry.refuseStdioKeys();
  if (entry.has('envFile')) entry.fail('envFile', 'an HTTP server has no envFile');
  const helper = entry.has('headersHelper') ? { headersHelper: entry.requiredString('headersHelper') } : {};
  const http: HttpServerEntry = { ...base, ...tools, transport: 'http', url, headers: entry.stringMap('headers'), httpTransport, ...helper };
  return withToolFilters(entry, http);
}

// Copilot CLI's `tools`: the tools offered, `["*"]` for all of them.
function copilotTools(entry: EntryReader): { enabledTools?: string[] } {
  if (!entry.has('tools')) return {};
  const tools = entry.strings('tools');
  return tools.includes('*') ? {} : { enabledTools: tools };
}

function httpTransportOf(entry: EntryReader, type: string | undefined): HttpServerEntry['httpTransport'] {
  switch (type) {
    case undefined:
      return 'auto';
    // Claude Code's `http` is Streamable HTTP; Cline writes `streamableHttp`.
    case 'http':
    case 'streamable-http':
    case 'streamableHttp':
      return 'streamable-http';
    case 'sse':
      return 'sse';
    default:
      return entry.fail('type', `must be "stdio", "local", "http", "streamable-http" or "sse", not ${quoteName(type.slice(0, 40))}`);
  }
}
