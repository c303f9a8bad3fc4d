import { McpConfigError, type ConfigPlace } from '../errors/config-errors.js';
import { isObject } from '../util/values.js';
import type { StdioServerEntry } from './server-config.js';

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
  ) {}

  /** A reader for the object at `key` of this one, or `undefined` when the key is absent. */
  static of(place: ConfigPlace, value: unknown, what: string): EntryReader {
    if (!isObject(value)) throw new McpConfigError(place, `${what} must be an object`);
    return new EntryReader(place, value);
  }

  fail(key: string | undefined, reason: string): never {
    throw new McpConfigError(key === undefined ? this.place : { ...this.place, key }, reason);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== undefined;
  }

  /** Refuses every key outside `known`, naming it: a typo must not pass silently. */
  onlyKnown(known: ReadonlySet<string>, format: string): void {
    for (const key of Object.keys(this.value)) {
      if (!known.has(key)) this.fail(key, `is not a key of a ${format} server entry`);
    }
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
