import { resolve } from 'node:path';
import { McpClientError } from '../errors/mcp-client-error.js';
import { validateGrant } from '../providers/policy/grants.js';
import type { GrantsStore } from '../providers/policy/grants-store.js';
import type { PolicyRule } from '../providers/policy/rules.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { inTurn } from './file-turns.js';
import { JsonFile } from './json-file.js';

/** Options of `FileGrants`. */
export interface FileGrantsOptions {
  /** The JSON file the grants are kept in; created (with its folder) on the first grant. */
  path: string;
}

const OPTION_KEYS = keysOf<FileGrantsOptions>({ path: true });
const FORMAT = 'rxmcp-grants';
const VERSION = 1;
/** The largest grants file read (4 MiB): tens of thousands of grants. */
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * A grant book (`GrantsStore`) kept in a JSON file, so that a human's
 * "always" outlives the process: give it to `Policy` as `grantsStore`.
 * Several processes may share one file; a grant added by any of them binds
 * the others from their next decision, since `current()` looks at the file
 * each time (a stat, and a new read whenever the file changed; a decision
 * reaches the book only when the rules said ask).
 *
 * Writes are atomic: the whole book goes to a temporary file of mode 0600
 * that then replaces the old one by rename, so a reader sees the old book or
 * the new one, never half. Adds from several processes take turns through a
 * lock file next to it (`<path>.lock`), so none is lost.
 *
 * Fails closed: a file it cannot read as a grants file (not JSON, another
 * format, an entry that is not a valid grant, too large, unreadable), or one
 * that others may write to or that belongs to another user, makes `current`
 * and `add` throw `McpStoreError`; a `Policy` then asks instead of allowing,
 * and never overwrites the file. A missing file is an empty book.
 *
 * @throws McpClientError at construction, for an unknown option or a missing path.
 * @example
 * ```ts
 * import { Policy } from 'rxmcp';
 * import { FileGrants } from 'rxmcp/node';
 *
 * const policy = new Policy({ provider, rules: Policy.defaultRules(), onAsk, grantsStore: new FileGrants({ path: 'grants.json' }) });
 * ```
 */
export class FileGrants implements GrantsStore {
  /** The file, resolved at construction. */
  readonly path: string;
  private book: PolicyRule[] = [];
  private readonly file: JsonFile;

  constructor(options: FileGrantsOptions) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    if (typeof options?.path !== 'string' || options.path === '' || options.path.includes('\0')) throw new McpClientError('option path must be a file path');
    this.path = resolve(options.path);
    this.file = new JsonFile(this.path, 'FileGrants', MAX_BYTES);
  }

  /** A copy of the grants as of the last read or add, oldest first. */
  get grants(): PolicyRule[] {
    return this.book.map((grant) => ({ ...grant }));
  }

  /**
   * The grants the file holds now.
   * @throws McpStoreError when the file cannot be read as a grants file.
   */
  async current(): Promise<PolicyRule[]> {
    // Every decision reads the book: the file is parsed again only when it changed.
    this.book = await this.file.readKept('read', (document) => this.grantsIn(document, 'read'));
    return this.grants;
  }

  /**
   * Adds grants (each validated; all or none) and resolves once the file holds them.
   * @throws McpClientError for a grant that is not a valid allow or deny rule (nothing is written).
   * @throws McpStoreError when the file cannot be read or written (it is left as it was).
   */
  add(grants: readonly PolicyRule[]): Promise<void> {
    let checked: PolicyRule[];
    try {
      checked = grants.map(validateGrant);
    } catch (error) {
      return Promise.reject(error);
    }
    return inTurn(this.path, () =>
      this.file.locked('add', async () => {
        const book = [...(await this.read('add')), ...checked];
        await this.file.write('add', { format: FORMAT, version: VERSION, grants: book });
        this.book = book;
      }),
    );
  }

  private async read(operation: string): Promise<PolicyRule[]> {
    return this.grantsIn(await this.file.read(operation), operation);
  }

  private grantsIn(document: unknown, operation: string): PolicyRule[] {
    if (document === undefined) return [];
    if (!isObject(document) || document['format'] !== FORMAT) throw this.file.broken(operation, 'is not an rxmcp grants file');
    if (document['version'] !== VERSION) throw this.file.broken(operation, `is in grants file version ${JSON.stringify(document['version'])}, which this rxmcp does not read`);
    const entries = document['grants'];
    if (!Array.isArray(entries)) throw this.file.broken(operation, 'has no list of grants');
    return entries.map((grant: unknown, n) => {
      try {
        return validateGrant(grant);
      } catch {
        // Not the grant itself: it could be huge, or anything.
        throw this.file.broken(operation, `holds grants[${n}], which is not a valid allow or deny rule`);
      }
    });
  }
}
