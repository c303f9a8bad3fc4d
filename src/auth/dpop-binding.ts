import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import type { StoredTokens } from './auth-options.js';
import { isObject } from '../util/values.js';
import { DpopKey, dpopKeyProblem } from './dpop-key.js';

/** RFC 9449 §8.1: a nonce is NQCHAR (printable ASCII but `"` and `\`); rxmcp also bounds its length. */
const NONCE = /^[\x21\x23-\x5B\x5D-\x7E]{1,512}$/;
/** Servers remembered for their nonces: the MCP server and an authorization server or two. */
const MAX_NONCE_ORIGINS = 8;

/**
 * One client's DPoP state: the key every proof is signed with, and the
 * latest nonce each server asked for. The key is the caller's, or the one
 * kept with the tokens (so tokens from a memory store stay usable), or a
 * fresh one; it is chosen once, on first use, and kept for the client's life.
 */
export class DpopBinding {
  private key: Promise<DpopKey> | undefined;
  private readonly nonces = new Map<string, string>();

  constructor(private readonly option: true | CryptoKeyPair) {}

  /**
   * The key, chosen on the first call.
   *
   * @param stored The tokens kept for this server: their key is taken over when the store held it.
   */
  keyFor(stored: StoredTokens | undefined): Promise<DpopKey> {
    this.key ??= this.choose(stored).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  /** True when `tokens` are bound to this client's key (and so may be sent). */
  async binds(tokens: StoredTokens): Promise<boolean> {
    // A store is free to hand back anything: a record that is not what rxmcp wrote binds nothing.
    return isObject(tokens.dpop) && tokens.dpop.thumbprint === (await this.keyFor(tokens)).thumbprint;
  }

  /**
   * A fresh proof for one request, with the nonce the server asked for last.
   *
   * @throws McpAuthError at `step` when the key cannot sign (the message never holds key material).
   */
  async proof(method: string, url: string | URL, step: AuthStep, accessToken?: string): Promise<string> {
    const key = await this.keyFor(undefined);
    const nonce = this.nonces.get(new URL(String(url)).origin);
    try {
      return await key.proof({ htm: method, htu: url, ...(accessToken !== undefined ? { accessToken } : {}), ...(nonce !== undefined ? { nonce } : {}) });
    } catch (error) {
      throw new McpAuthError(step, `cannot sign a DPoP proof: ${(error as Error).name}`, { cause: error });
    }
  }

  /**
   * Keeps the nonce a server sent in `DPoP-Nonce`, for its next proofs.
   * Answers true when the server gave a usable nonce; a malformed one is ignored.
   */
  remember(url: string | URL, header: string | null): boolean {
    if (header === null || !NONCE.test(header)) return false;
    const origin = new URL(String(url)).origin;
    this.nonces.delete(origin);
    if (this.nonces.size >= MAX_NONCE_ORIGINS) this.nonces.delete(this.nonces.keys().next().value as string);
    this.nonces.set(origin, header);
    return true;
  }

  private async choose(stored: StoredTokens | undefined): Promise<DpopKey> {
    try {
      if (this.option !== true) return await DpopKey.of(this.option);
      const kept = isObject(stored?.dpop) ? stored.dpop.keyPair : undefined;
      // Only a key as rxmcp keeps one: unexportable, with the thumbprint the
      // record names. Another was put there by someone else, who may hold its
      // private half; tokens bound to it would be theirs to use.
      if (kept !== undefined && dpopKeyProblem(kept) === undefined && !kept.privateKey.extractable) {
        // Something shaped like a key pair that Web Crypto refuses is no key: a fresh one replaces it.
        const key = await DpopKey.of(kept).catch(() => undefined);
        if (key !== undefined && key.thumbprint === stored?.dpop?.thumbprint) return key;
      }
      return await DpopKey.generate();
    } catch (error) {
      throw new McpAuthError('token', `cannot prepare the DPoP key: ${(error as Error).name}`, { cause: error });
    }
  }
}
