import type { ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { EntryReader, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigWarning, ServerEntry } from './server-config.js';
import { withToolFilters } from './tool-filters.js';

// The keys Gemini CLI documents for an `mcpServers` entry. Used:
const USED = ['command', 'args', 'env', 'cwd', 'url', 'httpUrl', 'type', 'headers', 'includeTools', 'excludeTools', 'alwaysLoad'];
// Gemini's own: its timeout, its OAuth and Google credentials settings, and
// `trust`, which skips Gemini's confirmations. rxmcp reads past them: a
// file cannot make a server trusted here, and no `Policy` rule is skipped.
const APP_ONLY = ['timeout', 'trust', 'description', 'oauth', 'authProviderType', 'targetAudience', 'targetServiceAccount'];
const KNOWN = new Set([...USED, ...APP_ONLY]);

/**
 * Gemini CLI's `settings.json`: its `mcpServers` map, where `url` is an
 * HTTP+SSE endpoint and `httpUrl` a Streamable HTTP one, and `includeTools`
 * and `excludeTools` choose tools. Gemini's top-level `mcp.allowed` and
 * `mcp.excluded` lists switch servers on and off by name. Other keys at the
 * top are Gemini's own settings and are not read.
 */
export function readGemini(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[]): ServerEntry[] {
  const pairs = serverPairs({ source }, top['mcpServers'], 'mcpServers');
  const servers = readEntries({ source }, pairs, (place, name, value) => readEntry(place, name, value, warnings));
  const mcp = isObject(top['mcp']) ? top['mcp'] : {};
  const allowed = names(mcp['allowed']);
  const excluded = names(mcp['excluded']);
  return servers.map((entry) => ((allowed && !allowed.has(entry.name)) || excluded?.has(entry.name) ? { ...entry, disabled: true } : entry));
}

function names(value: unknown): Set<string> | undefined {
  return Array.isArray(value) ? new Set(value.filter((item): item is string => typeof item === 'string')) : undefined;
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry {
  const entry = EntryReader.of(place, value, 'a server entry', warnings);
  entry.onlyKnown(KNOWN, 'Gemini CLI');
  const base = { name, disabled: false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  const filters = { enabled: 'includeTools', disabled: 'excludeTools' };
  const given = ['command', 'url', 'httpUrl'].filter((key) => entry.has(key));
  if (given.length !== 1) entry.fail(given[1], given.length === 0 ? 'an entry needs a command, a url (HTTP+SSE) or an httpUrl (Streamable HTTP)' : `an entry has one of command, url and httpUrl, not ${given.join(' and ')}`);
  if (entry.has('command')) return withToolFilters(entry, { ...base, ...entry.stdioFields() }, filters);
  entry.refuseStdioKeys();
  // Newer Gemini CLI versions let `type` say which transport a `url` speaks.
  const type = entry.string('type');
  if (type !== undefined && type !== 'sse' && type !== 'http') entry.fail('type', 'must be "sse" or "http"');
  const streamable = entry.has('httpUrl') || type === 'http';
  const url = entry.requiredString(entry.has('httpUrl') ? 'httpUrl' : 'url');
  return withToolFilters(entry, { ...base, transport: 'http', url, headers: entry.stringMap('headers'), httpTransport: streamable ? 'streamable-http' : 'sse' }, filters);
}
