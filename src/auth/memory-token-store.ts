import type { StoredTokens, TokenStore } from './auth-options.js';
import { tokenStoreKey } from './token-store-key.js';

/** The default token store: a map that lives as long as the client. A URL key is kept without its user info (see `tokenStoreKey`). */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();

  get(key: string): StoredTokens | undefined {
    return this.tokens.get(tokenStoreKey(key));
  }

  set(key: string, tokens: StoredTokens): void {
    this.tokens.set(tokenStoreKey(key), tokens);
  }

  clear(key: string): void {
    this.tokens.delete(tokenStoreKey(key));
  }
}
