import type { StoredTokens } from '../../src/auth/auth-options.js';
import { ClientIdentities } from '../../src/auth/client-identity.js';
import { McpAuthError } from '../../src/index.js';

const A = 'https://a.example.com';
const B = 'https://b.example.com';
const stored = (clientId: string, issuer: string): StoredTokens => ({ accessToken: 'at', issuer, clientId });
const choose = (options: ConstructorParameters<typeof ClientIdentities>[0], named: string[], tokens?: StoredTokens) =>
  new ClientIdentities(options, 'http://127.0.0.1/callback').chooseIssuer(named, tokens);

describe('choosing the authorization server among those a resource names', () => {
  it('takes the first named when nothing binds the client', () => {
    expect(choose({}, [A, B])).toBe(A);
    expect(choose({ clientId: 'bot' }, [B, A])).toBe(B);
    // Tokens of a registered client bind nothing: a new authorization server means registering again.
    expect(choose({}, [B], stored('registered-at-a', A))).toBe(B);
  });

  it('takes the pinned issuer wherever it is listed, and refuses a list without it', () => {
    expect(choose({ issuer: A }, [B, A])).toBe(A);
    expect(() => choose({ issuer: A }, [B])).toThrow(McpAuthError);
    expect(() => choose({ issuer: A }, [B])).toThrow(/auth.issuer names it.*\["https:\/\/b.example.com"\]/);
  });

  it('binds a pre-registered client id to the issuer the store says it was used with', () => {
    expect(choose({ clientId: 'bot' }, [B, A], stored('bot', A))).toBe(A);
    expect(() => choose({ clientId: 'bot' }, [B], stored('bot', A))).toThrow(/token store keeps its tokens/);
    expect(choose({ clientId: 'bot' }, [B], stored('someone-else', A))).toBe(B);
  });
});
