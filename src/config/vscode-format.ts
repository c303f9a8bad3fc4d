import { McpConfigError, quoteName, type ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { EntryReader, MAX_SERVERS, readEntries, serverPairs } from './entry-reader.js';
import type { ConfigInput, ConfigWarning, ServerEntry } from './server-config.js';

// The keys VS Code documents for an entry of `servers`. `dev` (watch and
// debug while developing a server), `gallery` and `version` are the
// editor's own and left aside. `alwaysLoad` is not the editor's: it is
// Claude Code's key, read here too so one file can say it for `rxmcp serve`.
const KNOWN = new Set(['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'dev', 'gallery', 'version', 'sandboxEnabled', 'sandbox', 'alwaysLoad']);

/** VS Code's `mcp.json`: `servers` and `inputs`. Other keys at the top are the editor's and not read. */
export function readVscode(top: Record<string, unknown>, source: string | undefined, warnings: ConfigWarning[]): { servers: ServerEntry[]; inputs: ConfigInput[] } {
  const servers = readEntries({ source }, serverPairs({ source }, top['servers'], 'servers'), (place, name, value) => readEntry(place, name, value, warnings));
  return { servers, inputs: readInputs({ source }, top['inputs']) };
}

function readEntry(place: ConfigPlace, name: string, value: unknown, warnings: ConfigWarning[]): ServerEntry {
  const entry = EntryReader.of(place, value, 'a server entry', warnings);
  entry.onlyKnown(KNOWN, 'VS Code');
  // A sandbox the user asked for cannot be given here: refuse rather than run the server unconfined.
  if (entry.boolean('sandboxEnabled') === true) entry.fail('sandboxEnabled', 'rxmcp cannot sandbox a server; remove the key to run it unsandboxed');
  const base = { name, disabled: false, ...entry.alwaysLoad('alwaysLoad'), ...(place.source === undefined ? {} : { source: place.source }) };
  const type = entry.string('type') ?? (entry.has('command') ? 'stdio' : 'http');
  if (type === 'stdio') {
    if (entry.has('url')) entry.fail('url', 'a stdio server has no url');
    return { ...base, ...entry.stdioFields(), ...(entry.has('envFile') ? { envFile: entry.requiredString('envFile') } : {}) };
  }
  if (type !== 'http' && type !== 'sse') entry.fail('type', `must be "stdio", "http" or "sse", not ${quoteName(type.slice(0, 40))}`);
  if (entry.has('command')) entry.fail('command', 'an HTTP server has no command');
  if (entry.has('envFile')) entry.fail('envFile', 'an HTTP server has no envFile');
  entry.refuseStdioKeys();
  // VS Code's `http` tries Streamable HTTP and falls back to HTTP+SSE: rxmcp's `auto`.
  return { ...base, transport: 'http', url: entry.requiredString('url'), headers: entry.stringMap('headers'), httpTransport: type === 'sse' ? 'sse' : 'auto' };
}

function readInputs(place: ConfigPlace, value: unknown): ConfigInput[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new McpConfigError({ ...place, key: 'inputs' }, 'must be an array');
  if (value.length > MAX_SERVERS) throw new McpConfigError({ ...place, key: 'inputs' }, `has more than ${MAX_SERVERS} items`);
  return value.map((item: unknown, n) => {
    const input = EntryReader.of({ ...place, key: `inputs[${n}]` }, item, 'an input');
    const id = input.string('id');
    if (id === undefined || id === '') throw new McpConfigError({ ...place, key: `inputs[${n}].id` }, 'must be a non-empty string');
    const description = isObject(item) && typeof item['description'] === 'string' ? item['description'] : id;
    return { id, description, password: isObject(item) && item['password'] === true };
  });
}
