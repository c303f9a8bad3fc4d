import { quoteName, type ConfigPlace } from '../errors/config-errors.js';
import { EntryReader, serverPairs } from './entry-reader.js';
import type { HttpServerEntry, ServerEntry } from './server-config.js';
import { withToolFilters } from './tool-filters.js';

// The keys the apps that write an `mcpServers` map document for an entry.
// Used: what says which server and how to reach it, and which of its tools are offered or always loaded.
const USED = ['command', 'args', 'env', 'cwd', 'type', 'url', 'serverUrl', 'headers', 'disabled', 'disabledTools', 'alwaysLoad'];
// Accepted and left aside: each app's own settings, which do not change which
// server runs (OAuth client settings come from rxmcp's own `auth` option).
const APP_ONLY = ['oauth', 'auth', 'timeout', 'autoApprove', 'alwaysAllow', 'watchPaths', 'description'];
// Documented by an app, but rxmcp cannot honour them: refused with a reason
// rather than dropped, since the server would start without what they give.
const UNSUPPORTED: Record<string, string> = {
  envFile: 'is not supported: put the variables in env, or in the environment of the process that reads the file',
  headersHelper: 'is not supported: rxmcp runs no command to make headers; give headers, or the auth option',
};
const KNOWN = new Set([...USED, ...APP_ONLY, ...Object.keys(UNSUPPORTED)]);

/**
 * The `mcpServers` map of Claude Desktop, Claude Code (`.mcp.json` and
 * `~/.claude.json`), Cursor and Windsurf. Keys beside `mcpServers` at the
 * top belong to the app (Claude Desktop keeps its preferences there) and are
 * not read.
 */
export function readMcpServers(top: Record<string, unknown>, source: string | undefined): ServerEntry[] {
  return serverPairs({ source }, top['mcpServers'], 'mcpServers').map(([name, value]) => readEntry({ source, server: name }, name, value));
}

function readEntry(place: ConfigPlace, name: string, value: unknown): ServerEntry {
  const entry = EntryReader.of(place, value, 'a server entry');
  entry.onlyKnown(KNOWN, 'mcpServers');
  for (const key of Object.keys(UNSUPPORTED)) if (entry.has(key)) entry.fail(key, UNSUPPORTED[key] as string);
  const base = { name, disabled: entry.boolean('disabled') ?? false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  const type = entry.string('type');
  const url = entry.string('url') ?? entry.string('serverUrl');
  const command = entry.string('command');
  if (command !== undefined && url !== undefined) entry.fail('url', 'an entry has a command or a url, not both');
  if (type === 'stdio' || (type === undefined && command !== undefined)) {
    if (url !== undefined) entry.fail('url', 'a stdio server has no url');
    return withToolFilters(entry, { ...base, ...entry.stdioFields() });
  }
  const httpTransport = httpTransportOf(entry, type);
  if (url === undefined || url === '') return entry.fail(entry.has('serverUrl') ? 'serverUrl' : 'url', 'an HTTP server needs a url (or a command, to start it over stdio)');
  entry.refuseStdioKeys();
  const http: HttpServerEntry = { ...base, transport: 'http', url, headers: entry.stringMap('headers'), httpTransport };
  return withToolFilters(entry, http);
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
      return entry.fail('type', `must be "stdio", "http", "streamable-http" or "sse", not ${quoteName(type.slice(0, 40))}`);
  }
}
