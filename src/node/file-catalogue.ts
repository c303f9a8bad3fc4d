import { resolve } from 'node:path';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { McpStoreError } from '../errors/store-errors.js';
import { type CatalogueStore, checkStoredCatalogue, maxAgeOf, type StoredCatalogue } from '../providers/catalogue-store.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { inTurn } from './file-turns.js';
import { JsonFile } from './json-file.js';

/** Options of `FileCatalogue`. */
export interface FileCatalogueOptions {
  /** The JSON file the tool lists are kept in; created (with its folder) on the first write. */
  path: string;
  /** How old an entry may be and still stand in for its server (default 7 days; 0 starts every server). */
  maxAgeMs?: number;
}

const OPTION_KEYS = keysOf<FileCatalogueOptions>({ path: true, maxAgeMs: true });
const FORMAT = 'rxmcp-catalogue';
const VERSION = 1;
/** The largest catalogue file read or written (16 MiB): a few hundred servers' lists. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * A catalogue (`CatalogueStore`) kept in a JSON file, so that the tools of
 * a config's servers outlive the process: give it to `Registry.fromConfig`
 * as `catalogue`, and the next run answers the model without starting the
 * servers it does not call. Use one file per config: entries are filed by
 * server name.
 *
 * What it holds: per server, the tools as the server listed them, when,
 * and a SHA-256 digest of the server's config entry. Never an env value, a
 * header value, an argument or a command: those are inside the digest only.
 *
 * Writes are atomic (a temporary file of mode 0600 renamed over the old
 * one) and take turns with other processes through `<path>.lock`, as
 * `FileGrants` does. Fails closed: a file it cannot read as a catalogue
 * (not JSON, cut short, of another format or version, larger than 16 MiB,
 * writable by others, another user's) makes `get` and `set` throw
 * `McpStoreError`, so every server starts, with a warning; it is never
 * overwritten (remove it to start afresh). An entry that does not read as
 * a tool list starts its server alone, and is replaced by what it lists.
 *
 * @throws McpClientError at construction, for an unknown option, a missing path, or a `maxAgeMs` that is not 0 or more.
 * @example
 * ```ts
 * import { Registry } from 'rxmcp';
 * import { FileCatalogue, readServerConfig } from 'rxmcp/node';
 *
 * const tools = Registry.fromConfig(await readServerConfig('.mcp.json'), { catalogue: new FileCatalogue({ path: '.rxmcp/catalogue.json' }) });
 * ```
 */
export class FileCatalogue implements CatalogueStore {
  /** The file, resolved at construction. */
  readonly path: string;
  readonly maxAgeMs: number;
  private readonly file: JsonFile;
  // One read serves every server that asks while it runs: a registry asks for all of them at once.
  private reading: Promise<Map<string, unknown>> | undefined;

  constructor(options: FileCatalogueOptions) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    if (typeof options?.path !== 'string' || options.path === '' || options.path.includes('\0')) throw new McpClientError('option path must be a file path');
    this.path = resolve(options.path);
    this.maxAgeMs = maxAgeOf('FileCatalogue', options.maxAgeMs);
    this.file = new JsonFile(this.path, 'FileCatalogue', MAX_BYTES);
  }

  /**
   * The entry the file holds for a server, as it is written (the registry checks it), or `undefined`.
   * @throws McpStoreError when the file cannot be read as a catalogue.
   */
  async get(server: string): Promise<StoredCatalogue | undefined> {
    const reading = (this.reading ??= this.read('get'));
    void reading.then(
      () => (this.reading = undefined),
      () => (this.reading = undefined),
    );
    return (await reading).get(server) as StoredCatalogue | undefined;
  }

  /**
   * Stores a server's entry, keeping the others'.
   * @throws McpClientError for an entry that does not read as one (nothing is written).
   * @throws McpStoreError when the file cannot be read as a catalogue, or written (it is left as it was).
   */
  set(server: string, entry: StoredCatalogue): Promise<void> {
    const checked = checkStoredCatalogue(entry);
    if (typeof checked === 'string') return Promise.reject(new McpClientError(`FileCatalogue: the entry for ${JSON.stringify(server)} is not stored: ${checked}`));
    return inTurn(this.path, () =>
      this.file.locked('set', async () => {
        const entries = await this.read('set');
        entries.set(server, checked);
        // fromEntries defines each member: a server named "__proto__" stays a member.
        await this.file.write('set', { format: FORMAT, version: VERSION, servers: Object.fromEntries(entries) });
      }),
    );
  }

  private async read(operation: string): Promise<Map<string, unknown>> {
    const document = await this.file.read(operation);
    if (document === undefined) return new Map();
    if (!isObject(document) || document['format'] !== FORMAT) throw this.broken(operation, 'is not an rxmcp catalogue file');
    if (document['version'] !== VERSION) throw this.broken(operation, `is in catalogue file version ${JSON.stringify(document['version'])}, which this rxmcp does not read`);
    const servers = document['servers'];
    if (!isObject(servers)) throw this.broken(operation, 'has no object of servers');
    return new Map(Object.entries(servers));
  }

  private broken(operation: string, reason: string): McpStoreError {
    return this.file.broken(operation, `${reason} (remove it, and rxmcp writes a new one)`);
  }
}
