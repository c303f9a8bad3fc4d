import { quoteName, type ConfigPlace } from '../errors/config-errors.js';
import { EntryReader, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigWarning, ServerEntry } from './server-config.js';
import { withToolFilters } from './tool-filters.js';

// The keys of a Goose extension. Used: what starts or reaches the server,
// and whether it is on. `env_keys` names variables Goose fills from its
// keyring; rxmcp passes them on from the environment when set, as Codex's
// `env_vars`. The rest is Goose's own (its display name, timeout, bundling).
const USED = ['type', 'cmd', 'args', 'envs', 'env_keys', 'uri', 'headers', 'enabled', 'available_tools', 'alwaysLoad'];
const APP_ONLY = ['name', 'display_name', 'description', 'timeout', 'bundled'];
const KNOWN = new Set([...USED, ...APP_ONLY]);
// Extensions Goose runs inside itself: there is no server to start.
const BUILT_IN = new Set(['builtin', 'platform', 'frontend', 'inline_python']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Goose's `config.yaml`, already parsed: its `extensions` map. An extension
 * of `type` `stdio` is a command (`cmd`, `args`, `envs`); `streamable_http`
 * and `sse` are a `uri`. Goose's built-in extensions (`builtin`,
 * `platform`, `frontend`, `inline_python`) run inside Goose and are left
 * out. `enabled: false` switches one off; `available_tools`, when not
 * empty, lists the tools offered.
 */
export function readGoose(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[]): ServerEntry[] {
  const pairs = serverPairs({ source }, top['extensions'], 'extensions');
  return readEntries({ source }, pairs, (place, name, value) => readEntry(place, name, value, warnings), { key: 'enabled', when: false });
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry | undefined {
  const entry = EntryReader.of(place, value, 'an extension', warnings);
  const type = entry.requiredString('type');
  if (BUILT_IN.has(type)) return undefined;
  entry.onlyKnown(KNOWN, 'Goose');
  const base = { name, disabled: entry.boolean('enabled') === false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  const tools = entry.has('available_tools') && entry.strings('available_tools').length > 0 ? { enabledTools: entry.strings('available_tools') } : {};
  if (type === 'stdio') {
    if (entry.has('uri')) entry.fail('uri', 'a stdio extension has no uri');
    const env = entry.stringMap('envs');
    for (const [n, variable] of entry.strings('env_keys').entries()) {
      if (!NAME.test(variable)) entry.fail(`env_keys[${n}]`, 'must name an environment variable (letters, digits and _)');
      env[variable] ??= `\${env:${variable}}`;
    }
    return withToolFilters(entry, { ...base, ...tools, transport: 'stdio', command: entry.requiredString('cmd'), args: entry.strings('args'), env });
  }
  if (type !== 'streamable_http' && type !== 'sse') entry.fail('type', `must be "stdio", "streamable_http", "sse" or a built-in type, not ${quoteName(type.slice(0, 40))}`);
  if (entry.has('cmd')) entry.fail('cmd', 'an HTTP extension has no cmd');
  if (entry.strings('args').length > 0) entry.fail('args', 'an HTTP extension has no args');
  const httpTransport = type === 'sse' ? 'sse' : 'streamable-http';
  return withToolFilters(entry, { ...base, ...tools, transport: 'http', url: entry.requiredString('uri'), headers: entry.stringMap('headers'), httpTransport });
}
