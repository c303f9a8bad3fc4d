import { httpGuard, isLoopbackHost } from '../../src/gateway/http-guard.js';

const request = (headers: Record<string, string>) => new Request('http://gateway.invalid/mcp', { method: 'POST', headers });
const TOKEN = 'x'.repeat(32);

describe('httpGuard', () => {
  it('lets a loopback Host on the bound port through, and no other port or name', () => {
    const guard = httpGuard({}, 8080);
    expect(guard.refuse(request({ host: '127.0.0.1:8080' }))).toBeUndefined();
    expect(guard.refuse(request({ host: 'localhost:8080' }))).toBeUndefined();
    expect(guard.refuse(request({ host: '[::1]:8080' }))).toBeUndefined();
    expect(guard.refuse(request({ host: '127.0.0.1:8081' }))?.status).toBe(403);
    expect(guard.refuse(request({ host: 'attacker.example:8080' }))?.status).toBe(403);
    expect(guard.refuse(request({}))?.status).toBe(403);
  });

  it('accepts the Hosts it is told, with or without a port', () => {
    const guard = httpGuard({ allowedHosts: ['gateway.internal', 'proxy:443'] }, 8080);
    expect(guard.refuse(request({ host: 'gateway.internal:9999' }))).toBeUndefined();
    expect(guard.refuse(request({ host: 'proxy:443' }))).toBeUndefined();
    expect(guard.refuse(request({ host: 'proxy:80' }))?.status).toBe(403);
  });

  it('refuses any Origin unless it is allowed', () => {
    expect(httpGuard().refuse(request({ host: 'localhost:1', origin: 'null' }))?.status).toBe(403);
    expect(httpGuard({ allowedOrigins: ['https://app.example'] }).refuse(request({ host: 'localhost:1', origin: 'https://app.example' }))).toBeUndefined();
  });

  it("accepts the gateway's own loopback origins on the bound port under listen, and no other", () => {
    const guard = httpGuard({}, 8080);
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      expect(guard.refuse(request({ host: 'localhost:8080', origin }))).toBeUndefined();
    }
    for (const origin of ['http://localhost:8081', 'https://localhost:8080', 'http://evil.example', 'null']) {
      expect(guard.refuse(request({ host: 'localhost:8080', origin }))?.status).toBe(403);
    }
    expect(httpGuard({ allowedOrigins: ['https://app.example'] }, 8080).refuse(request({ host: 'localhost:8080', origin: 'http://localhost:8080' }))?.status).toBe(403);
  });

  it('challenges a missing or wrong bearer token with WWW-Authenticate', async () => {
    const guard = httpGuard({ bearerToken: TOKEN });
    const missing = guard.refuse(request({ host: 'localhost:1' }));
    expect(missing?.status).toBe(401);
    expect(missing?.headers.get('www-authenticate')).toBe('Bearer realm="rxmcp-gateway"');
    const wrong = guard.refuse(request({ host: 'localhost:1', authorization: `Bearer ${TOKEN}y` }));
    expect(wrong?.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await wrong?.text()).not.toContain(TOKEN);
    expect(guard.refuse(request({ host: 'localhost:1', authorization: `bearer ${TOKEN}` }))).toBeUndefined();
  });

  it('refuses malformed options without quoting the token', () => {
    expect(() => httpGuard({ bearerToken: 'short secret' })).toThrow(/at least 16 characters/);
    expect(() => httpGuard({ bearerToken: 'short secret' })).not.toThrow(/short secret/);
    expect(() => httpGuard({ allowedHosts: [''] })).toThrow(/allowedHosts/);
    expect(() => httpGuard({ allowedOrigin: [] } as never)).toThrow(/unknown option: allowedOrigin/);
  });

  it('knows the loopback hosts', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'localhost.example'].some(isLoopbackHost)).toBe(false);
  });
});
