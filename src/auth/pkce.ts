import { base64Url } from '../util/base64url.js';

/** A fresh PKCE pair (RFC 7636): the verifier kept by the client, the S256 challenge sent in the authorization request. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A random, URL-safe string carrying `bytes` bytes of entropy, from the platform's CSPRNG. */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Makes a PKCE pair with Web Crypto, so it runs the same in browsers and Node. */
export async function makePkce(): Promise<Pkce> {
  const verifier = randomToken(32);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64Url(new Uint8Array(digest)) };
}
