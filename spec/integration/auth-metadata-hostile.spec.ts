import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from '../../src/index.js';

// OAuth metadata is the server's to write: a value nested 100,000 levels, or
// a string of most of a megabyte, where discovery expects a URL or an issuer.
// Each must end the sign-in with McpAuthError at its step and a short
// message: never a RangeError from JSON.stringify (the stack), never a
// message that quotes the megabyte. A real HTTP server on loopback serves
// the MCP endpoint's 401, the resource metadata and the authorization
// server's metadata (the MCP server is on this machine, so its
// authorization server may be too).

const DEEP = 100_000;
const deep = (): string => '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP);
// An array, which String() (as new URL() calls it) would join level by level.
const deepArray = (): string => '['.repeat(DEEP) + ']'.repeat(DEEP);
const HUGE = 'x'.repeat(900_000);

interface Case {
  name: string;
  step: string;
  /** The resource metadata, as JSON text, given the server's own base URL. */
  resource?: (base: string) => string;
  /** The authorization server's metadata, as JSON text. */
  server?: (base: string) => string;
}

const cases: Case[] = [
  { name: 'a resource nested 100,000 levels', step: 'resource-metadata', resource: (base) => `{"resource":${deep()},"authorization_servers":["${base}"]}` },
  { name: 'a resource of 900,000 characters on another origin', step: 'resource-metadata', resource: (base) => `{"resource":"https://elsewhere.example/${HUGE}","authorization_servers":["${base}"]}` },
  { name: 'a resource of 900,000 characters that is no URL', step: 'resource-metadata', resource: (base) => `{"resource":"${HUGE}","authorization_servers":["${base}"]}` },
  { name: 'an authorization server of 900,000 characters that is no URL', step: 'server-metadata', resource: (base) => `{"resource":"${base}/mcp","authorization_servers":["${HUGE}"]}` },
  { name: 'a resource of arrays nested 100,000 levels', step: 'resource-metadata', resource: (base) => `{"resource":${deepArray()},"authorization_servers":["${base}"]}` },
  { name: 'an issuer nested 100,000 levels', step: 'server-metadata', server: () => `{"issuer":${deep()},"token_endpoint":"https://auth.example/token"}` },
  { name: 'an issuer of 900,000 characters', step: 'server-metadata', server: () => `{"issuer":"${HUGE}","token_endpoint":"https://auth.example/token"}` },
  {
    name: 'an authorization endpoint nested 100,000 levels',
    step: 'server-metadata',
    server: (base) => `{"issuer":"${base}","token_endpoint":"${base}/token","code_challenge_methods_supported":["S256"],"authorization_endpoint":${deep()}}`,
  },
  {
    name: 'an authorization endpoint of arrays nested 100,000 levels',
    step: 'server-metadata',
    server: (base) => `{"issuer":"${base}","token_endpoint":"${base}/token","code_challenge_methods_supported":["S256"],"authorization_endpoint":${deepArray()}}`,
  },
  {
    name: 'an authorization endpoint of 900,000 characters',
    step: 'server-metadata',
    server: (base) => `{"issuer":"${base}","token_endpoint":"${base}/token","code_challenge_methods_supported":["S256"],"authorization_endpoint":"${HUGE}"}`,
  },
  {
    name: 'a registration endpoint nested 100,000 levels',
    step: 'registration',
    server: (base) => `{"issuer":"${base}","token_endpoint":"${base}/token","code_challenge_methods_supported":["S256"],"authorization_endpoint":"${base}/authorize","registration_endpoint":${deep()}}`,
  },
];

describe('OAuth metadata with values too deep or too long to quote', () => {
  let server: Server;
  let base: string;
  let current: Case;

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      const json = (status: number, text: string, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      if (request.url === '/mcp') return json(401, '{}', { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
      if (request.url === '/.well-known/oauth-protected-resource/mcp') return json(200, current.resource?.(base) ?? `{"resource":"${base}/mcp","authorization_servers":["${base}"]}`);
      if (request.url === '/.well-known/oauth-authorization-server') {
        return json(200, current.server?.(base) ?? `{"issuer":"${base}","token_endpoint":"${base}/token","code_challenge_methods_supported":["S256"],"authorization_endpoint":"${base}/authorize"}`);
      }
      json(404, '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))('fails the sign-in on %s with a short McpAuthError', async (_name, entry) => {
    current = entry;
    const mcp = McpClient.connectHttp({
      url: `${base}/mcp`,
      auth: { redirectUrl: 'http://127.0.0.1/callback', authorize: () => Promise.reject(new Error('no person should be asked')) },
    });
    try {
      const failure = await firstValueFrom(mcp.listTools()).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(McpAuthError);
      expect(failure).toMatchObject({ step: entry.step });
      expect((failure as Error).message.length).toBeLessThan(1000);
    } finally {
      await mcp.close();
    }
  });
});
