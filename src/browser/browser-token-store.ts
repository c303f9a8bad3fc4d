import type { StoredTokens, TokenStore } from '../auth/auth-options.js';
import { tokenStoreKey } from '../auth/token-store-key.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';
import { isObject } from '../util/values.js';

/** Which of the browser's storages a `BrowserTokenStore` uses, and under what prefix. */
export interface BrowserTokenStoreOptions {
  /**
   * `session` (default): `sessionStorage`, this tab only, gone when the tab
   * closes. `local`: `localStorage`, every tab of this origin, until cleared.
   */
  storage?: 'session' | 'local';
  /** The prefix of this store's keys, so that two apps on one origin keep apart (default `rxmcp`). */
  namespace?: string;
}

const OPTION_KEYS = keysOf<BrowserTokenStoreOptions>({ storage: true, namespace: true });
const FORMAT = 'rxmcp-tokens';
const VERSION = 1;
/** An entry longer than this is not one rxmcp wrote. */
const MAX_ENTRY_CHARS = 64 * 1024;
const STRING_FIELDS = ['accessToken', 'issuer', 'clientId'] as const;
const OPTIONAL_STRING_FIELDS = ['refreshToken', 'scope', 'clientSecret'] as const;

/**
 * Keeps OAuth tokens in the browser's storage, one entry per MCP server,
 * under `<namespace>:tokens:<server URI>`: `sessionStorage` by default,
 * `localStorage` on request. A URL key is kept without its user info (see
 * `tokenStoreKey`): neither the entry's name nor its body holds it.
 *
 * Anything that runs script on this origin can read them: a cross-site
 * scripting flaw anywhere on the origin is a stolen token, in either
 * storage. `sessionStorage` narrows what is lost: the tokens live in one
 * tab and go when it closes (a reload keeps them), so a later flaw finds
 * nothing, at the price of signing in again in each new tab. `localStorage`
 * keeps them across tabs and restarts, and so keeps them within reach for
 * as long as they are valid, refresh tokens included. Short-lived access
 * tokens and refresh token rotation on the authorization server limit the
 * harm either way.
 *
 * An entry is read back with care: one that is not JSON, not an rxmcp
 * entry, or written for another server is removed and reported as no
 * tokens (a fresh sign-in), never thrown into the page. A storage the
 * browser refuses (disabled, private mode, full) reads as empty; a write
 * that fails is `McpAuthError`, step `token-store`.
 *
 * @throws McpClientError at construction, for an unknown option.
 * @example
 * ```ts
 * import { BrowserTokenStore, popupSignIn } from 'rxmcp/browser';
 *
 * const signIn = popupSignIn({ redirectUrl: '/signed-in.html' });
 * const mcp = McpClient.connectHttp({
 *   url: 'https://tools.example.com/mcp',
 *   auth: { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new BrowserTokenStore({ storage: 'local' }) },
 * });
 * ```
 */
export class BrowserTokenStore implements TokenStore {
  /** Which storage this store uses. */
  readonly storage: 'session' | 'local';
  /** The prefix of its keys. */
  readonly namespace: string;

  constructor(options: BrowserTokenStoreOptions = {}) {
    if (!isObject(options as unknown)) throw new McpClientError('BrowserTokenStore options must be an object');
    refuseUnknown(options, OPTION_KEYS);
    if (options.storage !== undefined && options.storage !== 'session' && options.storage !== 'local') {
      throw new McpClientError(`option storage must be 'session' or 'local'; got ${JSON.stringify(options.storage)}`);
    }
    if (options.namespace !== undefined && (typeof options.namespace !== 'string' || options.namespace === '')) {
      throw new McpClientError(`option namespace must be a non-empty string; got ${JSON.stringify(options.namespace)}`);
    }
    this.storage = options.storage ?? 'session';
    this.namespace = options.namespace ?? 'rxmcp';
  }

  /** The tokens kept for `key`, or undefined when there are none or the entry is not one this store wrote for `key` (it is then removed). */
  get(key: string): StoredTokens | undefined {
    key = tokenStoreKey(key);
    const storage = this.area();
    const text = storage?.getItem(this.entryOf(key)) ?? null;
    if (storage === undefined || text === null) return undefined;
    const tokens = text.length <= MAX_ENTRY_CHARS ? tokensOf(text, key) : undefined;
    if (tokens === undefined) storage.removeItem(this.entryOf(key));
    return tokens;
  }

  /**
   * Keeps `tokens` for `key`, replacing what was kept before.
   *
   * @throws McpAuthError (step `token-store`) when the browser refuses the write (storage disabled or full).
   */
  set(key: string, tokens: StoredTokens): void {
    key = tokenStoreKey(key);
    const storage = this.area();
    const entry = JSON.stringify({ format: FORMAT, version: VERSION, key, tokens: pick(tokens) });
    try {
      if (storage === undefined) throw new Error('unavailable');
      storage.setItem(this.entryOf(key), entry);
    } catch (error) {
      throw new McpAuthError('token-store', `the browser refused to keep the tokens in ${this.storage}Storage (disabled or full)`, { cause: error });
    }
  }

  /** Forgets the tokens for `key`. */
  clear(key: string): void {
    this.area()?.removeItem(this.entryOf(tokenStoreKey(key)));
  }

  private entryOf(key: string): string {
    return `${this.namespace}:tokens:${key}`;
  }

  /** The storage, or undefined where the browser refuses it (reading it throws in some sandboxes and privacy modes). */
  private area(): Storage | undefined {
    try {
      return this.storage === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    } catch {
      return undefined;
    }
  }
}

/** The tokens an entry holds, when it is an rxmcp entry for `key` with every field of the right type. */
function tokensOf(text: string, key: string): StoredTokens | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed['format'] !== FORMAT || parsed['version'] !== VERSION || parsed['key'] !== key) return undefined;
  const tokens = parsed['tokens'];
  if (!isObject(tokens)) return undefined;
  if (!STRING_FIELDS.every((name) => typeof tokens[name] === 'string' && tokens[name] !== '')) return undefined;
  if (!OPTIONAL_STRING_FIELDS.every((name) => tokens[name] === undefined || typeof tokens[name] === 'string')) return undefined;
  if (tokens['expiresAt'] !== undefined && !(typeof tokens['expiresAt'] === 'number' && Number.isFinite(tokens['expiresAt']))) return undefined;
  const dpop = tokens['dpop'];
  if (dpop !== undefined && !(isObject(dpop) && typeof dpop['thumbprint'] === 'string')) return undefined;
  return pick(tokens as unknown as StoredTokens);
}

/** The fields of `StoredTokens` alone, in a fresh object: nothing else is written or handed back (of `dpop`, the thumbprint alone). */
function pick(tokens: StoredTokens): StoredTokens {
  const kept: StoredTokens = { accessToken: tokens.accessToken, issuer: tokens.issuer, clientId: tokens.clientId };
  if (tokens.refreshToken !== undefined) kept.refreshToken = tokens.refreshToken;
  if (tokens.expiresAt !== undefined) kept.expiresAt = tokens.expiresAt;
  if (tokens.scope !== undefined) kept.scope = tokens.scope;
  if (tokens.clientSecret !== undefined) kept.clientSecret = tokens.clientSecret;
  // A DPoP key pair cannot be written as text, as with the file store: its
  // thumbprint is kept, and tokens bound to a key the page no longer holds are not sent.
  if (tokens.dpop !== undefined) kept.dpop = { thumbprint: tokens.dpop.thumbprint };
  return kept;
}
