import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpStoreError } from '../errors/store-errors.js';
import { validateGrant } from '../providers/policy/grants.js';
import type { GrantsStore } from '../providers/policy/grants-store.js';
import type { PolicyRule } from '../providers/policy/rules.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';
import { inTurn } from './file-turns.js';

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
/** How long an add waits for another process's add to finish before it gives up. */
const LOCK_WAIT_MS = 5000;
/** A lock file older than this was left by a process that died while adding. */
const STALE_LOCK_MS = 30_000;
const POSIX = process.platform !== 'win32';

/**
 * A grant book (`GrantsStore`) kept in a JSON file, so that a human's
 * "always" outlives the process: give it to `Policy` as `grantsStore`.
 * Several processes may share one file; a grant added by any of them binds
 * the others from their next decision, since `current()` reads the file each
 * time (a decision reaches the book only when the rules said ask).
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

  constructor(options: FileGrantsOptions) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    if (typeof options?.path !== 'string' || options.path === '' || options.path.includes('\0')) throw new McpClientError('option path must be a file path');
    this.path = resolve(options.path);
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
    this.book = await this.read('read');
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
      this.locked(async () => {
        const book = [...(await this.read('add')), ...checked];
        await this.write(book);
        this.book = book;
      }),
    );
  }

  private async read(operation: string): Promise<PolicyRule[]> {
    let text: string;
    try {
      const handle = await open(this.path, 'r');
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw this.broken(operation, 'is not a file');
        if (POSIX && info.uid !== process.getuid?.()) throw this.broken(operation, `belongs to another user (uid ${info.uid})`);
        // Whoever may write the book may grant themselves anything.
        if (POSIX && (info.mode & 0o022) !== 0) throw this.broken(operation, 'may be written by others (its mode lets group or others write); make it 0600');
        if (info.size > MAX_BYTES) throw this.broken(operation, `is larger than ${MAX_BYTES} bytes`);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof McpStoreError) throw error;
      if (codeOf(error) === 'ENOENT') return [];
      throw this.broken(operation, `cannot be read (${codeOf(error) ?? 'failed'})`, error);
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw this.broken(operation, 'is not JSON');
    }
    if (!isObject(document) || document['format'] !== FORMAT) throw this.broken(operation, 'is not an rxmcp grants file');
    if (document['version'] !== VERSION) throw this.broken(operation, `is in grants file version ${JSON.stringify(document['version'])}, which this rxmcp does not read`);
    const entries = document['grants'];
    if (!Array.isArray(entries)) throw this.broken(operation, 'has no list of grants');
    return entries.map((grant: unknown, n) => {
      try {
        return validateGrant(grant);
      } catch {
        // Not the grant itself: it could be huge, or anything.
        throw this.broken(operation, `holds grants[${n}], which is not a valid allow or deny rule`);
      }
    });
  }

  private async write(book: PolicyRule[]): Promise<void> {
    const folder = dirname(this.path);
    const temp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      // 'wx' never reuses a file someone else placed at the temporary name.
      const handle = await open(temp, 'wx', 0o600);
      try {
        // The umask only narrows the creation mode: make it exactly 0600.
        await handle.chmod(0o600);
        await handle.writeFile(`${JSON.stringify({ format: FORMAT, version: VERSION, grants: book }, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw this.broken('add', `cannot be written (${codeOf(error) ?? 'failed'})`, error);
    }
  }

  // Runs `task` holding `<path>.lock`, made with O_EXCL, against adds from other processes.
  private async locked<T>(task: () => Promise<T>): Promise<T> {
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
        await (await open(lock, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw this.broken('add', `cannot take the lock file (${codeOf(error) ?? 'failed'})`, error);
      }
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      // A process that died mid-add must not block every later grant.
      if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      else if (Date.now() > deadline) throw this.broken('add', `another process has held ${JSON.stringify(lock)} for over ${LOCK_WAIT_MS} ms`);
      else await new Promise((done) => setTimeout(done, 20));
    }
    try {
      return await task();
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  }

  private broken(operation: string, reason: string, cause?: unknown): McpStoreError {
    return new McpStoreError('FileGrants', JSON.stringify(this.path), operation, `the file ${reason}`, cause === undefined ? undefined : { cause });
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
