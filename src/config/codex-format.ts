import type { ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { EntryReader, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigWarning, ServerEntry } from './server-config.js';
import { withToolFilters } from './tool-filters.js';

// The keys Codex reads in a `[mcp_servers.NAME]` table. The ones rxmcp acts on
// (and `always_load`, which Codex has no word for: Claude Code's `alwaysLoad`,
// spelled as Codex spells its keys, for `rxmcp serve --tool-search`):
const USED = ['command', 'args', 'env', 'env_vars', 'cwd', 'url', 'http_headers', 'env_http_headers', 'bearer_token_env_var', 'enabled', 'enabled_tools', 'disabled_tools', 'always_load'];
// Codex's own settings (timeouts, approvals, OAuth client, per-tool table), left aside.
const APP_ONLY = [
  'experimental_environment',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
  'required',
  'supports_parallel_tool_calls',
  'default_tools_approval_mode',
  'scopes',
  'oauth',
  'oauth_resource',
  'name',
  'tools',
];
const KNOWN = new Set([...USED, ...APP_ONLY, 'bearer_token']);

/**
 * Codex's `config.toml`, already parsed: the `mcp_servers` table. Codex
 * expands no placeholders in values, so the only `${env:NAME}` an entry
 * holds are the ones written here for `env_vars`, `env_http_headers` and
 * `bearer_token_env_var`, which name variables to read when the server
 * starts.
 */
export function readCodex(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[]): ServerEntry[] {
  const pairs = serverPairs({ source }, top['mcp_servers'], 'mcp_servers');
  return readEntries({ source }, pairs, (place, name, value) => readEntry(place, name, value, warnings), { key: 'enabled', when: false });
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry {
  const entry = EntryReader.of(place, value, 'a server table', warnings);
  entry.onlyKnown(KNOWN, 'Codex');
  // Codex refuses a token written into the file; so does rxmcp.
  if (entry.has('bearer_token')) entry.fail('bearer_token', 'is refused: name an environment variable in bearer_token_env_var instead');
  const base = { name, disabled: entry.boolean('enabled') === false, ...entry.alwaysLoad('always_load'), ...(place.source === undefined ? {} : { source: place.source }) };
  const filters = { enabled: 'enabled_tools', disabled: 'disabled_tools' };
  if (entry.has('command')) {
    if (entry.has('url')) entry.fail('url', 'a table has a command or a url, not both');
    for (const key of ['http_headers', 'env_http_headers', 'bearer_token_env_var']) if (entry.has(key)) entry.fail(key, 'a stdio server has no ' + key);
    const env = entry.stringMap('env');
    for (const variable of envVars(entry)) env[variable] ??= `\${env:${variable}}`;
    return withToolFilters(
      entry,
      { ...base, transport: 'stdio', command: entry.requiredString('command'), args: entry.strings('args'), env, ...(entry.has('cwd') ? { cwd: entry.requiredString('cwd') } : {}) },
      filters,
    );
  }
  if (!entry.has('url')) entry.fail(undefined, 'a server table needs a command or a url');
  if (entry.has('env_vars')) entry.fail('env_vars', 'an HTTP server has no env_vars');
  entry.refuseStdioKeys();
  const headers = entry.stringMap('http_headers');
  const fromEnv = entry.stringMap('env_http_headers');
  for (const header of Object.keys(fromEnv)) headers[header] = `\${env:${variableName(entry, `env_http_headers.${header}`, fromEnv[header] as string)}}`;
  const bearer = entry.string('bearer_token_env_var');
  if (bearer !== undefined) headers['Authorization'] = `Bearer \${env:${variableName(entry, 'bearer_token_env_var', bearer)}}`;
  return withToolFilters(entry, { ...base, transport: 'http', url: entry.requiredString('url'), headers, httpTransport: 'streamable-http' }, filters);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// These keys name a variable; a token pasted in their place must not be sent
// as a literal header, nor quoted back in an error: the value is never shown.
function variableName(entry: EntryReader, key: string, value: string): string {
  if (!NAME.test(value)) entry.fail(key, 'must name an environment variable (letters, digits and _), not hold its value');
  return value;
}

/** `env_vars`: names of variables passed on from the environment, each a string or `{ name, source }`. */
function envVars(entry: EntryReader): string[] {
  if (!entry.has('env_vars')) return [];
  const value = entry.value['env_vars'];
  if (!Array.isArray(value)) entry.fail('env_vars', 'must be an array');
  return value.map((item: unknown, n) => {
    const variable = typeof item === 'string' ? item : isObject(item) ? item['name'] : undefined;
    if (typeof variable !== 'string' || variable === '') entry.fail(`env_vars[${n}]`, 'must be a variable name, or a table with a name');
    return variableName(entry, `env_vars[${n}]`, variable);
  });
}
