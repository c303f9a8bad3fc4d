import type { StoredTokens, TokenStore } from './auth-options.js';

/** The default token store: a map that lives as long as the client. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();

  get(key: string): StoredTokens | undefined {
    return this.tokens.get(key);
  }

  set(key: string, tokens: StoredTokens): void {
    this.tokens.set(key, tokens);
  }

  clear(key: string): void {
    this.tokens.delete(key);
  }
}
