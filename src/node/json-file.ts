import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McpStoreError } from '../errors/store-errors.js';

/** How long a writer waits for another process's write to finish before it gives up. */
const LOCK_WAIT_MS = 5000;
/** A lock file older than this was left by a process that died while writing. */
const STALE_LOCK_MS = 30_000;
const POSIX = process.platform !== 'win32';

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
  constructor(
    /** The file, resolved. */
    readonly path: string,
    /** The store's name, for errors (`FileGrants`). */
    private readonly store: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * The parsed document, or `undefined` when there is no file.
   * @throws McpStoreError when it cannot be read, or is not JSON.
   */
  async read(operation: string): Promise<unknown> {
    let text: string;
    try {
      const handle = await open(this.path, 'r');
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw this.broken(operation, 'is not a file');
        if (POSIX && info.uid !== process.getuid?.()) throw this.broken(operation, `belongs to another user (uid ${info.uid})`);
        // Whoever may write the file may trust themselves anything.
        if (POSIX && (info.mode & 0o022) !== 0) throw this.broken(operation, 'may be written by others (its mode lets group or others write); make it 0600');
        if (info.size > this.maxBytes) throw this.broken(operation, `is larger than ${this.maxBytes} bytes`);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof McpStoreError) throw error;
      if (codeOf(error) === 'ENOENT') return undefined;
      throw this.broken(operation, `cannot be read (${codeOf(error) ?? 'failed'})`, error);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw this.broken(operation, 'is not JSON');
    }
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

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
