import { canonicalUri, resourceMetadataUrls, serverMetadataUrls } from '../../src/auth/discovery.js';
import { McpAuthError } from '../../src/index.js';

const hrefs = (urls: URL[]) => urls.map((url) => url.href);

describe('where discovery looks', () => {
  it('looks for resource metadata under the endpoint path, then at the root', () => {
    expect(hrefs(resourceMetadataUrls(new URL('https://example.com/public/mcp')))).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
    expect(hrefs(resourceMetadataUrls(new URL('https://example.com/')))).toEqual(['https://example.com/.well-known/oauth-protected-resource']);
  });

  it('tries OAuth then OpenID metadata, with path insertion then appending for an issuer with a path', () => {
    expect(hrefs(serverMetadataUrls('https://auth.example.com/tenant1'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(hrefs(serverMetadataUrls('https://auth.example.com'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });

  it('refuses an authorization server that is neither https nor on this machine', () => {
    expect(() => serverMetadataUrls('http://auth.example.com')).toThrow(McpAuthError);
    expect(hrefs(serverMetadataUrls('http://127.0.0.1:9000'))).toHaveLength(2);
    expect(hrefs(serverMetadataUrls('http://localhost:9000'))).toHaveLength(2);
  });

  it('names a server by its canonical URI: lower-case host, no fragment, no trailing slash', () => {
    expect(canonicalUri('HTTPS://MCP.Example.com/mcp/#frag')).toBe('https://mcp.example.com/mcp');
    expect(canonicalUri('https://mcp.example.com/')).toBe('https://mcp.example.com');
    expect(canonicalUri('https://mcp.example.com:8443/server/mcp')).toBe('https://mcp.example.com:8443/server/mcp');
    // User info is the server's Basic credentials, never part of the resource (nor the token-store key).
    expect(canonicalUri('https://user:pass@MCP.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(canonicalUri('https://user@mcp.example.com/')).toBe('https://mcp.example.com');
  });
});
