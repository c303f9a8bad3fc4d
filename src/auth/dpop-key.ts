import { base64Url, base64UrlText } from '../util/base64url.js';
import { isObject } from '../util/values.js';
import { randomToken } from './pkce.js';

/** The claims of one DPoP proof that vary with the request (RFC 9449 §4.2). */
export interface ProofClaims {
  /** The request's method. */
  htm: string;
  /** The request's URL; its query and fragment are left out of the proof. */
  htu: string | URL;
  /** The access token the request carries, for resource requests: the proof holds its hash. */
  accessToken?: string;
  /** The nonce the server asked for, when it asked. */
  nonce?: string;
}

interface Algorithm {
  /** The JWS name. */
  alg: string;
  /** What `crypto.subtle.sign` needs for it. */
  sign: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
  /** The public JWK members that identify the key (RFC 7638 §3.2), in lexicographic order. */
  members: readonly string[];
}

/**
 * The JWS algorithm of a Web Crypto key pair, or undefined when DPoP cannot
 * use it. ECDSA on the NIST curves, Ed25519 and RSA with SHA-2: the
 * asymmetric algorithms RFC 9449 servers accept.
 */
function algorithmOf(key: CryptoKey): Algorithm | undefined {
  const algorithm = key.algorithm as Partial<EcKeyAlgorithm & RsaHashedKeyAlgorithm>;
  const hash = isObject(algorithm.hash) ? String(algorithm.hash.name) : '';
  const bits = { 'SHA-256': '256', 'SHA-384': '384', 'SHA-512': '512' }[hash];
  switch (algorithm.name) {
    case 'ECDSA': {
      const size = { 'P-256': '256', 'P-384': '384', 'P-521': '512' }[algorithm.namedCurve ?? ''];
      if (!size) return undefined;
      return { alg: `ES${size}`, sign: { name: 'ECDSA', hash: `SHA-${size}` }, members: ['crv', 'kty', 'x', 'y'] };
    }
    case 'Ed25519':
      return { alg: 'EdDSA', sign: { name: 'Ed25519' }, members: ['crv', 'kty', 'x'] };
    case 'RSASSA-PKCS1-v1_5':
      return bits ? { alg: `RS${bits}`, sign: { name: 'RSASSA-PKCS1-v1_5' }, members: ['e', 'kty', 'n'] } : undefined;
    case 'RSA-PSS':
      return bits ? { alg: `PS${bits}`, sign: { name: 'RSA-PSS', saltLength: Number(bits) / 8 }, members: ['e', 'kty', 'n'] } : undefined;
    default:
      return undefined;
  }
}

/**
 * Why a caller's key pair cannot sign DPoP proofs, or undefined when it can.
 * Looks only at the keys' descriptions, never at key material.
 */
export function dpopKeyProblem(pair: unknown): string | undefined {
  if (!isObject(pair) || !isCryptoKey(pair.privateKey, 'private') || !isCryptoKey(pair.publicKey, 'public')) {
    return 'must be true or a Web Crypto key pair ({ privateKey, publicKey })';
  }
  const privateKey = pair.privateKey as CryptoKey;
  if (!algorithmOf(privateKey)) return `has a ${JSON.stringify(String(privateKey.algorithm.name))} key; DPoP needs ECDSA (P-256, P-384, P-521), Ed25519, or RSA with SHA-2`;
  return undefined;
}

// Duck-typed: a CryptoKey made in another realm (a test VM, an iframe) fails instanceof.
function isCryptoKey(value: unknown, type: KeyType): boolean {
  return isObject(value) && value.type === type && isObject(value.algorithm) && Array.isArray(value.usages);
}

/**
 * The key pair a client proves possession of with DPoP (RFC 9449): it signs
 * a fresh proof for each request, and its public half, sent in every proof,
 * is what the authorization server binds the tokens to (by its thumbprint).
 * Web Crypto only, so it runs the same in browsers and Node.
 */
export class DpopKey {
  private constructor(
    /** The key pair; its private half never leaves Web Crypto. */
    readonly keyPair: CryptoKeyPair,
    private readonly algorithm: Algorithm,
    private readonly publicJwk: Readonly<Record<string, string>>,
    /** The JWK SHA-256 thumbprint (RFC 7638) the server binds tokens to, base64url. */
    readonly thumbprint: string,
  ) {}

  /** A fresh ES256 key pair whose private key cannot be exported, not even by this program. */
  static async generate(): Promise<DpopKey> {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    return DpopKey.of(pair);
  }

  /**
   * Wraps a key pair, such as the caller's own (`dpopKeyProblem` has passed it).
   *
   * @throws Error when the public key cannot be exported (Web Crypto's message).
   */
  static async of(pair: CryptoKeyPair): Promise<DpopKey> {
    const algorithm = algorithmOf(pair.privateKey) as Algorithm;
    const exported = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Record<string, unknown>;
    // Only the members that identify the key: no `d`, no `key_ops`, nothing private.
    const publicJwk: Record<string, string> = {};
    for (const member of algorithm.members) publicJwk[member] = String(exported[member]);
    const canonical = JSON.stringify(publicJwk);
    const thumbprint = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical))));
    return new DpopKey(pair, algorithm, publicJwk, thumbprint);
  }

  /** The JWS algorithm the proofs are signed with, such as `ES256`. */
  get alg(): string {
    return this.algorithm.alg;
  }

  /** A DPoP proof JWT for one request, with a fresh `jti` and the time now. */
  async proof(claims: ProofClaims): Promise<string> {
    const url = new URL(String(claims.htu));
    const header = { typ: 'dpop+jwt', alg: this.algorithm.alg, jwk: this.publicJwk };
    const payload = {
      jti: randomToken(16),
      htm: claims.htm,
      // RFC 9449 §4.2: the URI without query and fragment.
      htu: `${url.protocol}//${url.host}${url.pathname}`,
      iat: Math.floor(Date.now() / 1000),
      ...(claims.accessToken !== undefined ? { ath: await accessTokenHash(claims.accessToken) } : {}),
      ...(claims.nonce !== undefined ? { nonce: claims.nonce } : {}),
    };
    const input = `${base64UrlText(JSON.stringify(header))}.${base64UrlText(JSON.stringify(payload))}`;
    const signature = await crypto.subtle.sign(this.algorithm.sign, this.keyPair.privateKey, new TextEncoder().encode(input));
    return `${input}.${base64Url(new Uint8Array(signature))}`;
  }
}

/** `ath` (RFC 9449 §4.2): base64url of the SHA-256 of the access token's ASCII bytes. */
export async function accessTokenHash(accessToken: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))));
}
