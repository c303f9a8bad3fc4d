import { parseBearerChallenge, parseChallenge } from '../../src/auth/www-authenticate.js';

describe('reading a WWW-Authenticate challenge', () => {
  it('reads resource_metadata, scope and error from a Bearer challenge', () => {
    const header =
      'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="more, please"';
    expect(parseBearerChallenge(header)).toEqual({
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
    });
  });

  it('finds the Bearer challenge among others, whatever the case of its scheme', () => {
    expect(parseBearerChallenge('Basic realm="old", bearer scope="a", realm="x"')).toEqual({ scope: 'a' });
    expect(parseBearerChallenge('Negotiate abc==, Bearer resource_metadata="https://x.test/m"')).toEqual({ resourceMetadata: 'https://x.test/m' });
  });

  it('reads a DPoP challenge first when asked, then a Bearer one, and a DPoP one never as Bearer', () => {
    const both = 'Bearer scope="a", DPoP error="use_dpop_nonce", algs="ES256 EdDSA", resource_metadata="https://x.test/m"';
    expect(parseChallenge(both, ['dpop', 'bearer'])).toEqual({ error: 'use_dpop_nonce', resourceMetadata: 'https://x.test/m' });
    expect(parseChallenge('Bearer scope="a"', ['dpop', 'bearer'])).toEqual({ scope: 'a' });
    expect(parseBearerChallenge('DPoP error="use_dpop_nonce"')).toEqual({});
  });

  it('takes unquoted values and escaped quotes', () => {
    expect(parseBearerChallenge('Bearer scope=read, error="a\\"b"')).toEqual({ scope: 'read', error: 'a"b' });
  });

  it('gives nothing for a missing header, another scheme, or a bare Bearer', () => {
    expect(parseBearerChallenge(null)).toEqual({});
    expect(parseBearerChallenge('Basic realm="x"')).toEqual({});
    expect(parseBearerChallenge('Bearer')).toEqual({});
    expect(parseBearerChallenge('"unterminated')).toEqual({});
  });
});
