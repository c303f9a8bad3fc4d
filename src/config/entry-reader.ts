import { McpConfigError, type ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import { keyHint } from './key-hint.js';
import type { ConfigWarning, HttpServerEntry, ServerEntry, StdioServerEntry } from './server-config.js';

/** The most servers one file may define. */
export const MAX_SERVERS = 1000;
/** The most items in one list or map of an entry (args, env, headers). */
const MAX_ITEMS = 10_000;

/**
 * Reads one object of a config file (a server entry, or the file's top)
 * with its place, so every error names the file, the server and the key.
 * It only ever looks at an object's own keys, and builds maps without a
 * prototype: a key such as `__proto__` stays an ordinary key.
 */
export class EntryReader {
  constructor(
    readonly place: ConfigPlace,
    readonly value: Record<string, unknown>,
    private readonly warnings: ConfigWarning[] = [],
    /** What the keys of this object are named after in messages (`command.` for an object at `command`). */
    private readonly prefix = '',
  ) {}

  /** A reader for `value`, which must be an object; what it warns of goes to `warnings`. */
  static of(place: ConfigPlace, value: unknown, what: string, warnings?: ConfigWarning[], prefix?: string): EntryReader {
    if (!isObject(value)) throw new McpConfigError(place, `${what} must be an object`);
    return new EntryReader(place, value, warnings, prefix);
  }

  fail(key: string | undefined, reason: string): never {
    throw new McpConfigError(this.at(key), reason);
  }

  private at(key: string | undefined): ConfigPlace {
    if (key === undefined) return this.prefix === '' ? this.place : { ...this.place, key: this.prefix.slice(0, -1) };
    return { ...this.place, key: this.prefix + key };
  }

  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== undefined;
  }

  /**
   * Warns of every key outside `known`, naming it and the known key it most
   * likely stands for: another app's key must not cost the file, and a typo
   * must not pass silently. The key is not read.
   */
  onlyKnown(known: ReadonlySet<string>, format: string): void {
    const keys = Object.keys(this.value);
    for (const key of keys.slice(0, MAX_WARNINGS)) {
      if (!known.has(key)) this.warn(key, `is not a key of a ${format} server entry, and is ignored${keyHint(key, known)}`);
    }
  }

  /** Adds a warning at `key` of this entry (or the entry itself). */
  warn(key: string | undefined, reason: string): void {
    const place = this.at(key);
    this.warnings.push({ ...place, message: new McpConfigError(place, reason).message });
  }

  string(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.value[key];
    if (typeof value !== 'string') this.fail(key, 'must be a string');
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined || value === '') this.fail(key, 'must be a non-empty string');
    return value;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.value[key];
    if (typeof value !== 'boolean') this.fail(key, 'must be true or false');
    return value;
  }

  /** `{ alwaysLoad: true }` when the entry sets `key` to true, `{}` when it is absent or false; any other value is refused. */
  alwaysLoad(key: string): { alwaysLoad?: true } {
    return this.boolean(key) === true ? { alwaysLoad: true } : {};
  }

  strings(key: string): string[] {
    if (!this.has(key)) return [];
    const value = this.value[key];
    if (!Array.isArray(value)) this.fail(key, 'must be an array of strings');
    if (value.length > MAX_ITEMS) this.fail(key, `has more than ${MAX_ITEMS} items`);
    return value.map((item, n) => {
      if (typeof item !== 'string') this.fail(`${key}[${n}]`, 'must be a string');
      return item;
    });
  }

  /** The fields of a stdio entry, as the JSON formats write them (`command`, `args`, `env`, `cwd`). */
  stdioFields(): Pick<StdioServerEntry, 'transport' | 'command' | 'args' | 'env' | 'cwd'> {
    return {
      transport: 'stdio',
      command: this.requiredString('command'),
      args: this.strings('args'),
      env: this.stringMap('env'),
      ...(this.has('cwd') ? { cwd: this.requiredString('cwd') } : {}),
    };
  }

  /** An HTTP entry with stdio settings is a mistake, unless they are empty (as some apps write them). */
  refuseStdioKeys(): void {
    if (this.strings('args').length > 0) this.fail('args', 'an HTTP server has no args');
    if (Object.keys(this.stringMap('env')).length > 0) this.fail('env', 'an HTTP server has no env');
    if (this.has('cwd')) this.fail('cwd', 'an HTTP server has no cwd');
  }

  /**
   * A map of strings (env, headers), without a prototype. Values are never
   * quoted in errors: they are where secrets live.
   */
  stringMap(key: string): Record<string, string> {
    const map: Record<string, string> = Object.create(null) as Record<string, string>;
    if (!this.has(key)) return map;
    const value = this.value[key];
    if (!isObject(value)) this.fail(key, 'must be an object of strings');
    const names = Object.keys(value);
    if (names.length > MAX_ITEMS) this.fail(key, `has more than ${MAX_ITEMS} entries`);
    for (const name of names) {
      const item = value[name];
      if (typeof item !== 'string') this.fail(`${key}.${name}`, 'must be a string');
      map[name] = item;
    }
    return map;
  }
}

/** The most warnings one entry gives: a hostile entry with a million keys must not make a million lines. */
const MAX_WARNINGS = 100;

/**
 * Reads every server of a file with `read`; an entry `read` refuses (a key
 * of the wrong type, neither a command nor a url) fails alone: it is kept,
 * with `error`, as far as it can be told apart (its name, its transport,
 * whether it is switched off), and is never started. A file with one
 * broken server still gives the others.
 */
export function readEntries(
  place: ConfigPlace,
  pairs: Array<[string, unknown]>,
  read: (place: ConfigPlace, name: string, value: unknown) => ServerEntry | undefined,
  disabledKey: { key: string; when: boolean } = { key: 'disabled', when: true },
): ServerEntry[] {
  const servers: ServerEntry[] = [];
  for (const [name, value] of pairs) {
    const at = { ...place, server: name };
    try {
      const entry = read(at, name, value);
      if (entry) servers.push(entry);
    } catch (error) {
      if (!(error instanceof McpConfigError)) throw error;
      servers.push(brokenEntry(name, at, value, error, disabledKey));
    }
  }
  return servers;
}

function brokenEntry(name: string, place: ConfigPlace, value: unknown, error: McpConfigError, disabledKey: { key: string; when: boolean }): ServerEntry {
  const fields = isObject(value) ? value : {};
  const base = { name, disabled: fields[disabledKey.key] === disabledKey.when, error, ...(place.source === undefined ? {} : { source: place.source }) };
  // Only its shape is guessed, for a listing: nothing of a broken entry is ever run.
  const http = !(Object.hasOwn(fields, 'command') || Object.hasOwn(fields, 'cmd')) && ['url', 'httpUrl', 'serverUrl', 'uri'].some((key) => typeof fields[key] === 'string');
  if (http) return { ...base, transport: 'http', url: '', headers: Object.create(null) as Record<string, string>, httpTransport: 'auto' } satisfies HttpServerEntry;
  return { ...base, transport: 'stdio', command: '', args: [], env: Object.create(null) as Record<string, string> } satisfies StdioServerEntry;
}

/** The servers map of a file, as [name, entry] pairs in file order, bounded. */
export function serverPairs(place: ConfigPlace, value: unknown, key: string): Array<[string, unknown]> {
  if (value === undefined) return [];
  if (!isObject(value)) throw new McpConfigError({ ...place, key }, 'must be an object that maps server names to entries');
  const names = Object.keys(value);
  if (names.length > MAX_SERVERS) throw new McpConfigError({ ...place, key }, `defines more than ${MAX_SERVERS} servers`);
  return names.map((name) => {
    if (name === '') throw new McpConfigError({ ...place, key }, 'holds a server with an empty name');
    return [name, value[name]];
  });
}
