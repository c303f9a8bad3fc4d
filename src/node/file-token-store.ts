import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Stats } from 'node:fs';
import { z } from 'zod';
import type { StoredTokens, TokenStore } from '../auth/auth-options.js';
import { tokenStoreKey } from '../auth/token-store-key.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { inTurn } from './file-turns.js';

/** Where a `FileTokenStore` keeps its files. */
export interface FileTokenStoreOptions {
  /**
   * The directory that holds one file per server (default
   * `$XDG_CONFIG_HOME/rxmcp/tokens`, or `~/.config/rxmcp/tokens` when
   * `XDG_CONFIG_HOME` is unset or not an absolute path). Created with mode
   * 0700 when missing; an existing one is narrowed to 0700, and refused when
   * it is not a directory or belongs to another user.
   */
  directory?: string;
}

const OPTION_KEYS = keysOf<FileTokenStoreOptions>({ directory: true });

/** Whether file modes and owners mean anything here (not on Windows). */
const POSIX = process.platform !== 'win32';

const FORMAT = 'rxmcp-tokens';
const VERSION = 1;

const storedTokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
  scope: z.string().optional(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecret: z.string().optional(),
  // A file keeps the thumbprint of a DPoP key, never the key (a CryptoKey has no JSON form).
  dpop: z.object({ thumbprint: z.string() }).optional(),
});

const tokenFileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  key: z.string(),
  tokens: storedTokensSchema,
});

/**
 * Keeps OAuth tokens on disk, one JSON file per server, readable by this
 * user alone.
 *
 * A file per server rather than one shared file: two processes signing in to
 * two different servers at once cannot overwrite each other's tokens (with a
 * shared file, the later read-modify-write would drop the other's key, and
 * with refresh-token rotation a dropped refresh token is a forced sign-in).
 * Each file is named after the server's host and a hash of its canonical URI
 * (`tools.example.com-…json`), and repeats the URI inside, which is checked on
 * every read. A URL key is kept without its user info (`https://user:pass@host/mcp`
 * is `https://host/mcp` here, file name and all): see `tokenStoreKey`.
 *
 * Files are created with mode 0600 before any token is written to them and
 * replace the old file by rename, so a crash leaves the old tokens or the new
 * ones, never half of either. On POSIX systems, every read and write first
 * makes sure the directory is this user's and no one else's (mode 0700,
 * narrowed when it was looser, refused when it belongs to another user) and
 * a file read is narrowed to 0600: others who could write there could plant
 * or swap token files. Operations on one file from this process run in
 * turn. A file rxmcp cannot read as its own (not JSON, another format, another
 * server's tokens) is reported as `McpAuthError` with step `token-store`, and
 * `set` will not overwrite it; `clear` removes it.
 *
 * @throws McpClientError at construction, for an unknown option.
 * @example
 * ```ts
 * import { FileTokenStore } from 'rxmcp/node';
 *
 * const mcp = McpClient.connectHttp({
 *   url: 'https://tools.example.com/mcp',
 *   auth: { tokenStore: new FileTokenStore() },
 * });
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** The directory this store reads and writes, resolved at construction. */
  readonly directory: string;

  constructor(options: FileTokenStoreOptions = {}) {
    refuseUnknown(options, OPTION_KEYS);
    if (options.directory !== undefined && (typeof options.directory !== 'string' || options.directory === '')) {
      throw new McpClientError(`option directory must be a non-empty path; got ${JSON.stringify(options.directory)}`);
    }
    this.directory = options.directory ?? defaultDirectory();
  }

  /**
   * The tokens kept for `key`, or `undefined` when there are none.
   *
   * @throws McpAuthError (step `token-store`) when the file cannot be read or is not one rxmcp wrote for `key`.
   */
  get(key: string): Promise<StoredTokens | undefined> {
    key = tokenStoreKey(key);
    const file = this.fileFor(key);
    return inTurn(file, () => this.read(file, key));
  }

  /**
   * Keeps `tokens` for `key`, replacing what was kept before.
   *
   * @throws McpAuthError (step `token-store`) when the file cannot be written, or
   *   when a file rxmcp cannot read as its own is in the way.
   */
  set(key: string, tokens: StoredTokens): Promise<void> {
    key = tokenStoreKey(key);
    const file = this.fileFor(key);
    return inTurn(file, async () => {
      // Reading first is what keeps a damaged or foreign file from vanishing
      // under a fresh sign-in: the person hears about it instead.
      await this.read(file, key);
      // The DPoP key pair stays out: tokens read back without it are not used, and a fresh sign-in binds new ones.
      const { dpop, ...rest } = tokens;
      await this.write(file, { format: FORMAT, version: VERSION, key, tokens: { ...rest, ...(dpop ? { dpop: { thumbprint: dpop.thumbprint } } : {}) } });
    });
  }

  /**
   * Forgets the tokens for `key` by deleting its file, whatever the file holds.
   *
   * @throws McpAuthError (step `token-store`) when the file exists and cannot be deleted.
   */
  clear(key: string): Promise<void> {
    const file = this.fileFor(tokenStoreKey(key));
    return inTurn(file, async () => {
      try {
        await unlink(file);
      } catch (error) {
        if (codeOf(error) !== 'ENOENT') throw storeError(`cannot delete ${JSON.stringify(file)}`, error);
      }
    });
  }

  /** The file that holds the tokens for `key`. */
  private fileFor(key: string): string {
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
    return join(this.directory, `${labelOf(key)}-${digest}.json`);
  }

  private async read(file: string, key: string): Promise<StoredTokens | undefined> {
    if (!(await this.guardDirectory())) return undefined;
    let text: string;
    try {
      const handle = await open(file, 'r');
      try {
        if (POSIX && ((await handle.stat()).mode & 0o077) !== 0) await handle.chmod(0o600);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw storeError(`cannot read ${JSON.stringify(file)}`, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // No cause: a JSON parse error quotes the text around the fault, and
      // that text may be a token.
      throw unreadable(file, 'is not JSON');
    }
    const document = tokenFileSchema.safeParse(parsed);
    if (!document.success) throw unreadable(file, problemOf(parsed, document.error));
    if (document.data.key !== key) throw unreadable(file, `holds the tokens of another server, ${JSON.stringify(document.data.key)}`);
    return document.data.tokens;
  }

  private async write(file: string, document: z.input<typeof tokenFileSchema>): Promise<void> {
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw storeError(`cannot create the directory ${JSON.stringify(this.directory)}`, error);
    }
    await this.guardDirectory();
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      // 'wx' never reuses a file someone else placed at the temporary name.
      const handle = await open(temp, 'wx', 0o600);
      try {
        // The umask can only narrow the creation mode; chmod makes it exactly
        // 0600 before any secret reaches the file.
        await handle.chmod(0o600);
        await handle.writeFile(`${JSON.stringify(document, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw storeError(`cannot write ${JSON.stringify(file)}`, error);
    }
  }

  /**
   * Makes sure the directory is this user's alone before a token file in it
   * is trusted or written: mkdir's mode applies only to a directory it
   * creates, so one made earlier (by hand, by another tool, with a loose
   * umask) is narrowed here. Answers false when there is no directory.
   */
  private async guardDirectory(): Promise<boolean> {
    let info: Stats;
    try {
      info = await stat(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return false;
      throw storeError(`cannot read ${JSON.stringify(this.directory)}`, error);
    }
    if (!info.isDirectory()) throw new McpAuthError('token-store', `${JSON.stringify(this.directory)} is not a directory`);
    if (!POSIX) return true;
    if (info.uid !== process.getuid?.()) {
      throw new McpAuthError('token-store', `${JSON.stringify(this.directory)} belongs to another user (uid ${info.uid}); tokens are kept only in a directory of your own`);
    }
    if ((info.mode & 0o077) !== 0) {
      try {
        await chmod(this.directory, 0o700);
      } catch (error) {
        throw storeError(`cannot narrow ${JSON.stringify(this.directory)} to mode 0700`, error);
      }
    }
    return true;
  }
}

/** `$XDG_CONFIG_HOME/rxmcp/tokens`, or `~/.config/rxmcp/tokens`. */
function defaultDirectory(): string {
  const xdg = process.env['XDG_CONFIG_HOME'];
  // The XDG spec tells programs to ignore a relative path here.
  const config = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  return join(config, 'rxmcp', 'tokens');
}

/** A readable file-name prefix for `key`: its host when it is a URL, else `server`. */
function labelOf(key: string): string {
  let host = '';
  try {
    host = new URL(key).host;
  } catch {
    // Not a URL: the hash alone names the file.
  }
  const label = host.toLowerCase().replace(/[^a-z0-9.-]/g, '_').slice(0, 64);
  return label === '' ? 'server' : label;
}

/** Says what is wrong with a parsed file, naming fields but never quoting their values. */
function problemOf(parsed: unknown, error: z.ZodError): string {
  const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  if (record?.['format'] !== FORMAT) return 'is not an rxmcp token file';
  if (record['version'] !== VERSION) return `is in token file format ${JSON.stringify(record['version'])}, which this rxmcp does not read`;
  const fields = [...new Set(error.issues.map((issue) => issue.path.map(String).join('.') || '(top level)'))];
  return `is damaged (${fields.join(', ')})`;
}

function unreadable(file: string, problem: string): McpAuthError {
  return new McpAuthError('token-store', `${JSON.stringify(file)} ${problem}; delete it, or clear this server's tokens, to sign in again`);
}

function storeError(what: string, cause: unknown): McpAuthError {
  return new McpAuthError('token-store', `${what}: ${codeOf(cause) ?? 'failed'}`, { cause });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
