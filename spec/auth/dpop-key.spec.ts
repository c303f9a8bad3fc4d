import { createHash } from 'node:crypto';
import { accessTokenHash, DpopKey, dpopKeyProblem } from '../../src/auth/dpop-key.js';

// The DPoP proof a client signs (RFC 9449 §4.2), checked the way a server
// checks it: the signature with Web Crypto against the key in its header,
// the header and the claims; and the key's thumbprint against RFC 7638's
// own example.

interface Proof {
  header: { typ: string; alg: string; jwk: Record<string, string> };
  payload: Record<string, unknown>;
  signature: Uint8Array<ArrayBuffer>;
  input: string;
}

const decode = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

function parse(proof: string): Proof {
  const [header, payload, signature] = proof.split('.') as [string, string, string];
  return {
    header: decode(header) as Proof['header'],
    payload: decode(payload) as Record<string, unknown>,
    signature: new Uint8Array(Buffer.from(signature, 'base64url')),
    input: `${header}.${payload}`,
  };
}

describe('a DPoP proof', () => {
  let key: DpopKey;
  beforeAll(async () => {
    key = await DpopKey.generate();
  });

  it('is signed ES256 by a key that cannot be exported, and verifies with the public key in its header', async () => {
    const proof = parse(await key.proof({ htm: 'POST', htu: 'https://as.example.com/token' }));
    expect(key.keyPair.privateKey.extractable).toBe(false);
    expect(proof.header).toEqual({ typ: 'dpop+jwt', alg: 'ES256', jwk: { crv: 'P-256', kty: 'EC', x: expect.any(String), y: expect.any(String) } });
    const publicKey = await crypto.subtle.importKey('jwk', proof.header.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, proof.signature, new TextEncoder().encode(proof.input));
    expect(valid).toBe(true);
    const tampered = new TextEncoder().encode(proof.input.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, proof.signature, tampered)).toBe(false);
  });

  it('carries htm, htu without query or fragment, iat now, and a fresh jti each time', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = parse(await key.proof({ htm: 'GET', htu: 'https://mcp.example.com:8443/mcp?session=1#frag' })).payload;
    const second = parse(await key.proof({ htm: 'GET', htu: new URL('https://mcp.example.com:8443/mcp') })).payload;
    expect(first).toEqual({ jti: expect.any(String), htm: 'GET', htu: 'https://mcp.example.com:8443/mcp', iat: expect.any(Number) });
    expect(first.iat).toBeGreaterThanOrEqual(before);
    expect(first.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(String(first.jti).length).toBeGreaterThanOrEqual(16);
    expect(second.jti).not.toBe(first.jti);
  });

  it('holds ath, the base64url SHA-256 of the access token, and the nonce when given', async () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
    const { payload } = parse(await key.proof({ htm: 'POST', htu: 'https://mcp.example.com/mcp', accessToken: token, nonce: 'n-1' }));
    const expected = createHash('sha256').update(token, 'ascii').digest('base64url');
    expect(payload.ath).toBe(expected);
    expect(await accessTokenHash(token)).toBe(expected);
    expect(payload.nonce).toBe('n-1');
  });

  it('names the key by its RFC 7638 thumbprint (the RFC\'s own example)', async () => {
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    const publicKey = await crypto.subtle.importKey('jwk', { kty: 'RSA', n, e: 'AQAB', alg: 'RS256' } as JsonWebKey, algorithm, true, ['verify']);
    const { privateKey } = (await crypto.subtle.generateKey({ ...algorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, false, ['sign', 'verify'])) as CryptoKeyPair;
    expect((await DpopKey.of({ privateKey, publicKey })).thumbprint).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  const rsa = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  it.each([
    ['Ed25519', { name: 'Ed25519' }, 'EdDSA', { name: 'Ed25519' }, { name: 'Ed25519' }],
    ['ECDSA P-384', { name: 'ECDSA', namedCurve: 'P-384' }, 'ES384', { name: 'ECDSA', namedCurve: 'P-384' }, { name: 'ECDSA', hash: 'SHA-384' }],
    ['RSA-PSS SHA-256', { name: 'RSA-PSS', hash: 'SHA-256', ...rsa }, 'PS256', { name: 'RSA-PSS', hash: 'SHA-256' }, { name: 'RSA-PSS', saltLength: 32 }],
    ['RSASSA-PKCS1-v1_5 SHA-512', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512', ...rsa }, 'RS512', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' }, { name: 'RSASSA-PKCS1-v1_5' }],
  ])("signs with a caller's %s key pair, with the JWS algorithm that key implies", async (_name, generate, alg, importAs, verifyAs) => {
    const pair = (await crypto.subtle.generateKey(generate as AlgorithmIdentifier, false, ['sign', 'verify'])) as CryptoKeyPair;
    expect(dpopKeyProblem(pair)).toBeUndefined();
    const own = await DpopKey.of(pair);
    const proof = parse(await own.proof({ htm: 'POST', htu: 'https://as.example.com/token' }));
    expect(proof.header.alg).toBe(alg);
    expect(proof.header.jwk).not.toHaveProperty('d');
    const publicKey = await crypto.subtle.importKey('jwk', proof.header.jwk, importAs as AlgorithmIdentifier, false, ['verify']);
    expect(await crypto.subtle.verify(verifyAs as AlgorithmIdentifier, publicKey, proof.signature, new TextEncoder().encode(proof.input))).toBe(true);
  });

  it('refuses what cannot sign proofs, naming why without showing the key', async () => {
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const ecdsa = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    // Shaped as Web Crypto describes an Ed448 pair (a real one would print Node's experimental-feature warning).
    const ed448Key = (type: string) => ({ type, algorithm: { name: 'Ed448' }, usages: [type === 'private' ? 'sign' : 'verify'], extractable: false });
    const ed448 = { privateKey: ed448Key('private'), publicKey: ed448Key('public') };
    expect(dpopKeyProblem('yes')).toMatch(/must be true or a Web Crypto key pair/);
    expect(dpopKeyProblem({ privateKey: hmac, publicKey: hmac })).toMatch(/must be true or a Web Crypto key pair/);
    expect(dpopKeyProblem({ privateKey: ecdsa.publicKey, publicKey: ecdsa.publicKey })).toMatch(/must be true or a Web Crypto key pair/);
    expect(dpopKeyProblem(ed448)).toBe('has a "Ed448" key; DPoP needs ECDSA (P-256, P-384, P-521), Ed25519, or RSA with SHA-2');
  });
});
