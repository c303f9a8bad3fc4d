import { toolPage } from '../protocol/page-shapes.js';
import type { Tool } from '../protocol/types.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { isObject } from '../util/values.js';

// A catalogue is read back from a file or a shared store that anyone with
// access could have edited, truncated or filled: what it holds is checked as
// a server's own tools/list page is, and an entry that does not pass is not
// used at all (the server starts), never in part.

/**
 * One server's tools as a catalogue keeps them: what `listTools()` gave the
 * last time the server ran, with when and for which config entry.
 */
export interface StoredCatalogue {
  /**
   * A digest of the server's config entry (command, args, env, cwd, url,
   * headers), so that an edited entry is started rather than trusted. A
   * SHA-256 over all of it: no value of the entry can be read from it.
   */
  fingerprint: string;
  /** When the list was read from the server (milliseconds since the epoch). */
  savedAt: number;
  /** The server's tools as it listed them. */
  tools: Tool[];
}

/**
 * Where `Registry.fromConfig(config, { catalogue })` keeps each server's last
 * tool list, by the server's name in the config: `MemoryCatalogue`, or
 * `FileCatalogue` from `rxmcp/node`, or one of your own. `get` may resolve
 * to anything: what it gives is checked before it is used, and an entry
 * that fails the check (or a `get` that throws) starts the server, with a
 * warning.
 */
export interface CatalogueStore {
  /** The entry stored for a server, or `undefined` when there is none. */
  get(server: string): Promise<StoredCatalogue | undefined>;
  /** Stores a server's entry, in place of any before it. */
  set(server: string, entry: StoredCatalogue): Promise<void>;
  /** How old an entry may be and still stand in for its server (default 7 days). */
  readonly maxAgeMs?: number;
}

/** The default `maxAgeMs` of a catalogue: a week. */
export const DEFAULT_CATALOGUE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** The most tools one stored entry may hold: as many as one listing may give. */
export const MAX_STORED_TOOLS = 100_000;

/** The longest fingerprint read back: a digest is far shorter. */
const MAX_FINGERPRINT = 256;

/**
 * A stored entry as it may be used: a fresh object with the three members,
 * or why it may not (in words that never quote the entry).
 */
export function checkStoredCatalogue(value: unknown): StoredCatalogue | string {
  if (!isObject(value)) return 'it is not an object';
  const { fingerprint, savedAt, tools } = value;
  if (typeof fingerprint !== 'string' || fingerprint === '' || fingerprint.length > MAX_FINGERPRINT) return 'its fingerprint is not a short string';
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt) || savedAt < 0) return 'its savedAt is not a time';
  if (!Array.isArray(tools)) return 'its tools are not a list';
  if (tools.length > MAX_STORED_TOOLS) return `it holds more than ${MAX_STORED_TOOLS} tools`;
  const problem = toolPage({ tools });
  if (problem) return `its tools do not read as a tools/list page (${problem})`;
  return { fingerprint, savedAt, tools: tools as Tool[] };
}

/** The `maxAgeMs` option of a catalogue, checked. */
export function maxAgeOf(store: string, value: unknown): number {
  if (value === undefined) return DEFAULT_CATALOGUE_MAX_AGE_MS;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) throw new McpClientError(`${store} option maxAgeMs must be a number of milliseconds, 0 or more`);
  return value;
}
