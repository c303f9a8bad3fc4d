import { McpAuthError } from '../errors/auth-errors.js';
import type { PrivateKeyJwt } from './auth-options.js';
import { randomToken } from './pkce.js';
import { isMissingPackage } from '../util/optional-peer.js';

/**
 * Signs a `private_key_jwt` client assertion (RFC 7523 §2.2): issuer and
 * subject the client id, audience the authorization server's issuer, valid
 * for five minutes, with a fresh `jti`. The signing is jose's: it is loaded
 * only here, so a client that never uses a key never needs it.
 *
 * @throws McpAuthError when jose is not installed or the key cannot be read
 *   (the message never holds the key).
 */
export async function signClientAssertion(key: PrivateKeyJwt, clientId: string, audience: string): Promise<string> {
  let jose: typeof import('jose');
  try {
    jose = await import('jose');
  } catch (error) {
    const missing = isMissingPackage(error, 'jose');
    throw new McpAuthError('token', missing ? 'auth.privateKeyJwt needs the optional package jose: npm install jose' : 'auth.privateKeyJwt could not load jose', { cause: error });
  }
  let privateKey: CryptoKey | Uint8Array;
  try {
    privateKey =
      typeof key.privateKey === 'string' ? await jose.importPKCS8(key.privateKey, key.alg) : await jose.importJWK(key.privateKey as import('jose').JWK, key.alg);
  } catch {
    // jose's own message may quote the input; this one never does.
    throw new McpAuthError('token', `auth.privateKeyJwt.privateKey is not a ${typeof key.privateKey === 'string' ? 'PKCS#8 PEM' : 'JWK'} private key for ${JSON.stringify(key.alg)}`);
  }
  return new jose.SignJWT({})
    .setProtectedHeader({ alg: key.alg, typ: 'JWT' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomToken(16))
    .sign(privateKey);
}
