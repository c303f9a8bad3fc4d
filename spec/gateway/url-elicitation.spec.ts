import { firstValueFrom } from 'rxjs';
import { Gateway } from '../../src/gateway/index.js';
import { type InputRequest, McpClient } from '../../src/index.js';
import { everythingServer } from '../support/servers.js';

// URL-mode elicitation through the gateway: server-everything (legacy era,
// stdio) behind it asks its client to open a page (trigger-url-elicitation),
// and real rxmcp hosts call the tool over HTTP, in both eras, with and without
// `onElicitUrl`. The page goes only to the host whose call it is, only when
// that host declared `elicitation.url`, and only when the URL passes the check.

const TOOL = 'trigger-url-elicitation';
const PAGE = 'https://example.com/connect?session=42';

let upstream: McpClient;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
const hosts: McpClient[] = [];

function host(options: { era?: 'legacy'; asked?: InputRequest[]; answer?: 'accept' | 'decline'; withUrl?: boolean }): McpClient {
  const { asked = [], answer = 'accept', withUrl = true } = options;
  const client = McpClient.connectHttp({
    url: served.url,
    ...(options.era ? { era: options.era } : {}),
    onElicit: () => ({ action: 'decline' }),
    ...(withUrl
      ? {
          onElicitUrl: (request: InputRequest) => {
            asked.push(request);
            return { action: answer };
          },
        }
      : {}),
  });
  hosts.push(client);
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

beforeAll(async () => {
  upstream = McpClient.connectStdio({
    ...everythingServer,
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onElicitUrl: (request) => gateway.upstreamHooks.onElicitUrl(request),
    onSample: (request) => gateway.upstreamHooks.onSample(request),
    onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
  });
}, 30_000);

// A gateway per case: a call ended by -32042 or -32021 leaves its host counted as busy for a while (a 2025-era
// server may still ask for it), and a question the wire ties to no call is declined while two hosts are.
beforeEach(async () => {
  gateway = new Gateway({ provider: upstream, servers: { '': upstream } });
  served = await gateway.listen({ port: 0, bearerToken: false });
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((client) => client.close()));
  await gateway?.close();
  await served?.close();
});

afterAll(async () => {
  await upstream?.close();
});

describe('a URL-mode elicitation from an upstream server, through the gateway', () => {
  it.each([['2025-era', 'legacy' as const], ['2026-07-28', undefined]])('reaches a %s host that declared elicitation.url, under the asking server, and its answer goes back', async (_name, era) => {
    const asked: InputRequest[] = [];
    const client = host({ era, asked });
    const result = await firstValueFrom(client.callTool(TOOL, { url: PAGE, message: 'Connect your account', elicitationId: 'e-1' }));
    expect(textOf(result)).toContain('User completed the URL elicitation flow');
    expect(asked).toHaveLength(1);
    // 2026-07-28 has no elicitationId: a 2026-07-28 host's question is keyed by its input round instead.
    if (era === 'legacy') expect(asked[0]?.params).toMatchObject({ mode: 'url', url: PAGE, elicitationId: 'e-1' });
    else expect(asked[0]?.params).toEqual({ mode: 'url', url: PAGE, message: expect.any(String) });
    expect(asked[0]?.params.message).toMatch(/^Asked by .* \(not by the gateway\): Connect your account$/);
  });

  it('passes the host’s decline back to the upstream server', async () => {
    const client = host({ era: 'legacy', answer: 'decline' });
    const result = await firstValueFrom(client.callTool(TOOL, { url: PAGE }));
    expect(textOf(result)).toContain('User declined to open the URL');
  });

  it('2025-11-25 client/elicitation, URL Elicitation Required Error: fails the call of a 2025-era host without elicitation.url with -32042, the page in its data', async () => {
    const client = host({ era: 'legacy', withUrl: false });
    await expect(firstValueFrom(client.callTool(TOOL, { url: PAGE, message: 'Connect your account', elicitationId: 'e-2' }))).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: 'url', url: PAGE, elicitationId: 'e-2', message: expect.stringContaining('Connect your account') }] },
    });
  });

  it('2026-07-28 basic, capabilities: refuses the call of a 2026-07-28 host without elicitation.url with -32021 naming elicitation.url', async () => {
    const client = host({ withUrl: false });
    await expect(firstValueFrom(client.callTool(TOOL, { url: PAGE }))).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['http://example.com/plain'],
    ['https://bank.example@evil.example/'],
    ['https://evil.example/\u001b[31mred\u001b[0m'],
  ])('2025-11-25 client/elicitation, Safe URL Handling: never passes on %j, to any host', async (url) => {
    const asked: InputRequest[] = [];
    const declared = host({ era: 'legacy', asked });
    expect(textOf(await firstValueFrom(declared.callTool(TOOL, { url })))).toContain('User declined to open the URL');
    expect(asked).toEqual([]);
    // Nor inside a -32042: a host without URL mode gets the declined result, not the page.
    const undeclared = host({ era: 'legacy', withUrl: false });
    expect(textOf(await firstValueFrom(undeclared.callTool(TOOL, { url })))).toContain('User declined to open the URL');
  });

  it('passes a bidi override in the path only percent-encoded, so it reorders nothing the host shows', async () => {
    const asked: InputRequest[] = [];
    const client = host({ era: 'legacy', asked });
    await firstValueFrom(client.callTool(TOOL, { url: 'https://example.com/\u202epage' }));
    expect(asked[0]?.params.url).toBe('https://example.com/%E2%80%AEpage');
  });
});
