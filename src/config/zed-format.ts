import type { ConfigPlace } from '../errors/config-errors.js';
import { EntryReader, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigWarning, ServerEntry } from './server-config.js';

// The keys of a Zed `context_servers` entry. `source` is "custom" for a
// server the user wrote, "extension" for one an extension provides (with
// its `settings`); `alwaysLoad` is Claude Code's key, read everywhere.
const KNOWN = new Set(['source', 'enabled', 'command', 'args', 'env', 'url', 'headers', 'settings', 'alwaysLoad']);
const COMMAND_KNOWN = new Set(['path', 'args', 'env']);

/**
 * Zed's `settings.json`: its `context_servers` map. A server is a command
 * (`{ command, args, env }`, or the older `{ command: { path, args, env } }`)
 * or a `url` with `headers`. An extension's server (`source: "extension"`,
 * or an entry with only `settings`) is run by the extension's own code,
 * which rxmcp does not have: it is left out, with a warning.
 */
export function readZed(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[]): ServerEntry[] {
  const pairs = serverPairs({ source }, top['context_servers'], 'context_servers');
  return readEntries({ source }, pairs, (place, name, value) => readEntry(place, name, value, warnings), { key: 'enabled', when: false });
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry | undefined {
  const entry = EntryReader.of(place, value, 'a server entry', warnings);
  entry.onlyKnown(KNOWN, 'Zed');
  const origin = entry.string('source');
  if (origin === 'extension' || (origin === undefined && !entry.has('command') && !entry.has('url') && entry.has('settings'))) {
    entry.warn(undefined, 'is a Zed extension\'s server, which only Zed can start: left out');
    return undefined;
  }
  const base = { name, disabled: entry.boolean('enabled') === false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  if (entry.has('url')) {
    if (entry.has('command')) entry.fail('url', 'an entry has a command or a url, not both');
    entry.refuseStdioKeys();
    return { ...base, transport: 'http', url: entry.requiredString('url'), headers: entry.stringMap('headers'), httpTransport: 'auto' };
  }
  if (!entry.has('command')) entry.fail(undefined, 'an entry needs a command or a url');
  const command = entry.value['command'];
  if (typeof command === 'string') return { ...base, ...entry.stdioFields() };
  // The older form: the command is an object of its own.
  const inner = EntryReader.of({ ...place, key: 'command' }, command, 'command (a string, or an object with path, args and env)', warnings, 'command.');
  inner.onlyKnown(COMMAND_KNOWN, 'Zed command');
  if (entry.has('args') || entry.has('env')) entry.fail('args', 'give args and env inside command, or beside a command string, not both');
  return { ...base, transport: 'stdio', command: inner.requiredString('path'), args: inner.strings('args'), env: inner.stringMap('env') };
}
