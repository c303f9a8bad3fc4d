import { randomBytes } from 'node:crypto';
import { type BigIntStats, statSync } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McpStoreError } from '../errors/store-errors.js';

/** How long a writer waits for another process's write to finish before it gives up. */
const LOCK_WAIT_MS = 5000;
/** A lock file older than this was left by a process that died while writing. */
const STALE_LOCK_MS = 30_000;
const POSIX = process.platform !== 'win32';
/**
 * How old (by its ctime) a file must have been when it was read for that
 * read to be reused by `readKept`: every later change of the file (a write
 * in place, a rename over it, a chmod) then gives it a later ctime, however
 * coarse the file system's clock, so an unchanged stat means unchanged bytes.
 */
const SETTLED_MS = 3000;
/**
 * How long a kept read is reused at most, even with the stat unchanged: some
 * writes change the bytes and not the stat (through a shared memory map; a
 * network file system whose attribute cache answers the stat), and the full
 * read opens the file, which makes such a system look again. A check
 * therefore sees a change within this time, whoever made it, however.
 */
const KEPT_MS = 1000;

/**
 * One JSON document in a file that decides what is trusted (grants, pins),
 * shared by the stores that keep one (`FileGrants`, `FilePins`). Reads
 * refuse a file that is not a file, belongs to another user, may be written
 * by others, or is too large; writes are atomic (a temporary file of mode
 * 0600, renamed over the old one); writers of several processes take turns
 * through `<path>.lock`. Every failure is an `McpStoreError` naming the
 * store and the file. Not exported from the package.
 */
export class JsonFile {
  // What `readKept` made of the file's last full read, under the identity the file had then.
  private kept: { identity: BigIntStats; value: unknown; until: number } | undefined;

  constructor(
    /** The file, resolved. */
    readonly path: string,
    /** The store's name, for errors (`FileGrants`). */
    private readonly store: string,
    private readonly maxBytes: number,
    /** `SETTLED_MS`; a spec makes it short. */
    private readonly settledMs = SETTLED_MS,
  ) {}

  /**
   * The parsed document, or `undefined` when there is no file.
   * @throws McpStoreError when it cannot be read, or is not JSON.
   */
  async read(operation: string): Promise<unknown> {
    return (await this.readWhole(operation)).document;
  }

  /**
   * What `build` makes of the document (`undefined` when there is no file),
   * as `read` would give it, for a store that reads the file at every check:
   * the file is stat'ed each time (and refused as `read` refuses it), and
   * read and parsed again only when it changed. `build`'s value is kept and
   * handed out again, so it must not be changed by whoever gets it. Reused
   * only when the file was already `SETTLED_MS` old when read (see there),
   * for at most `KEPT_MS` after that read, and never on Windows, whose stat
   * says less.
   * @throws McpStoreError when it cannot be read, is not JSON, or `build` throws one.
   */
  async readKept<T>(operation: string, build: (document: unknown) => T): Promise<T> {
    const kept = this.kept;
    if (kept !== undefined && Date.now() < kept.until) {
      let info: BigIntStats | undefined;
      try {
        // One stat of a small local file, made at every tool call: synchronous, since a round trip through
        // libuv's thread pool costs the call more (a thread woken, twice) than the stat itself.
        info = statSync(this.path, { bigint: true, throwIfNoEntry: false });
      } catch (error) {
        this.kept = undefined;
        throw this.broken(operation, `cannot be read (${codeOf(error) ?? 'failed'})`, error);
      }
      // Gone: read as `read` reads it, which says what is there now.
      if (info !== undefined) {
        this.refuse(operation, info);
        if (sameIdentity(info, kept.identity)) return kept.value as T;
      }
    }
    this.kept = undefined;
    const started = Date.now();
    const { document, info } = await this.readWhole(operation);
    const value = build(document);
    this.kept = info !== undefined && POSIX && Number(info.ctimeMs) < started - this.settledMs ? { identity: info, value, until: started + KEPT_MS } : undefined;
    return value;
  }

  // The document, with the stat of the very file it was read from (none when there is no file).
  private async readWhole(operation: string): Promise<{ document: unknown; info?: BigIntStats }> {
    let text: string;
    let info: BigIntStats;
    try {
      const handle = await open(this.path, 'r');
      try {
        info = await handle.stat({ bigint: true });
        this.refuse(operation, info);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof McpStoreError) throw error;
      if (codeOf(error) === 'ENOENT') return { document: undefined };
      throw this.broken(operation, `cannot be read (${codeOf(error) ?? 'failed'})`, error);
    }
    try {
      return { document: JSON.parse(text), info };
    } catch {
      throw this.broken(operation, 'is not JSON');
    }
  }

  // A file that is not one to trust is refused, at every read, kept or not.
  private refuse(operation: string, info: BigIntStats): void {
    if (!info.isFile()) throw this.broken(operation, 'is not a file');
    if (POSIX && Number(info.uid) !== process.getuid?.()) throw this.broken(operation, `belongs to another user (uid ${info.uid})`);
    // Whoever may write the file may trust themselves anything.
    if (POSIX && (info.mode & 0o022n) !== 0n) throw this.broken(operation, 'may be written by others (its mode lets group or others write); make it 0600');
    if (info.size > BigInt(this.maxBytes)) throw this.broken(operation, `is larger than ${this.maxBytes} bytes`);
  }

  /**
   * Replaces the file with `document`, atomically.
   * @throws McpStoreError when it cannot be written (the old file is left as it was), or would be larger than the store reads.
   */
  async write(operation: string, document: unknown): Promise<void> {
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (Buffer.byteLength(text) > this.maxBytes) throw this.broken(operation, `would grow larger than ${this.maxBytes} bytes`);
    const temp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      // 'wx' never reuses a file someone else placed at the temporary name.
      const handle = await open(temp, 'wx', 0o600);
      try {
        // The umask only narrows the creation mode: make it exactly 0600.
        await handle.chmod(0o600);
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw this.broken(operation, `cannot be written (${codeOf(error) ?? 'failed'})`, error);
    }
  }

  /** Runs `task` holding `<path>.lock`, made with O_EXCL, against writers in other processes. */
  async locked<T>(operation: string, task: () => Promise<T>): Promise<T> {
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
        await (await open(lock, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw this.broken(operation, `cannot take the lock file (${codeOf(error) ?? 'failed'})`, error);
      }
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      // A process that died mid-write must not block every later one.
      if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      else if (Date.now() > deadline) throw this.broken(operation, `another process has held ${JSON.stringify(lock)} for over ${LOCK_WAIT_MS} ms`);
      else await new Promise((done) => setTimeout(done, 20));
    }
    try {
      return await task();
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  }

  /** The error for a file that cannot serve: `the file <reason>`. */
  broken(operation: string, reason: string, cause?: unknown): McpStoreError {
    return new McpStoreError(this.store, JSON.stringify(this.path), operation, `the file ${reason}`, cause === undefined ? undefined : { cause });
  }
}

// Whether two stats are of the same file in the same version: another file (a rename over it), or any change
// to it, differs in one of these. Compared field by field: it runs at every tool call, and a string of seven
// bigints made each time cost more than the stat.
function sameIdentity(now: BigIntStats, then: BigIntStats): boolean {
  return (
    now.dev === then.dev &&
    now.ino === then.ino &&
    now.size === then.size &&
    now.mtimeNs === then.mtimeNs &&
    now.ctimeNs === then.ctimeNs &&
    now.mode === then.mode &&
    now.uid === then.uid
  );
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
