import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { type CatalogueStore, maxAgeOf, type StoredCatalogue } from './catalogue-store.js';

/** Options of `MemoryCatalogue`. */
export interface MemoryCatalogueOptions {
  /** How old an entry may be and still stand in for its server (default 7 days). */
  maxAgeMs?: number;
}

const OPTION_KEYS = keysOf<MemoryCatalogueOptions>({ maxAgeMs: true });

/**
 * A catalogue (`CatalogueStore`) kept in memory: for tests, for a browser,
 * or for several registries of one process that build the same config one
 * after another. Each entry is a copy, so nothing outside can change it.
 *
 * @throws McpClientError at construction, for an unknown option or a `maxAgeMs` that is not 0 or more.
 * @example
 * ```ts
 * const catalogue = new MemoryCatalogue();
 * const first = Registry.fromConfig(config, { catalogue }); // starts every server, stores their tools
 * await first.toolsForLlm();
 * await first.close();
 * const second = Registry.fromConfig(config, { catalogue }); // starts a server on its first call
 * ```
 */
export class MemoryCatalogue implements CatalogueStore {
  readonly maxAgeMs: number;
  private readonly entries = new Map<string, string>();

  constructor(options: MemoryCatalogueOptions = {}) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    this.maxAgeMs = maxAgeOf('MemoryCatalogue', options?.maxAgeMs);
  }

  /** The entry stored for a server, or `undefined`. */
  async get(server: string): Promise<StoredCatalogue | undefined> {
    const text = this.entries.get(server);
    return text === undefined ? undefined : (JSON.parse(text) as StoredCatalogue);
  }

  /** Stores a copy of a server's entry. */
  async set(server: string, entry: StoredCatalogue): Promise<void> {
    this.entries.set(server, JSON.stringify(entry));
  }
}
