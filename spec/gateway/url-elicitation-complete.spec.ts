import { filter, firstValueFrom } from 'rxjs';
import { Gateway } from '../../src/gateway/index.js';
import { type InputRequest, McpClient } from '../../src/index.js';
import { fixture } from '../support/servers.js';

// notifications/elicitation/complete through the gateway: a real 2025-era
// server behind it (spec/fixtures/url-elicitation-server.mjs) answers a call
// with -32042, says the page is done, and succeeds on the retry. The gateway's
// upstream client follows that and asks the host whose call it is (a 2025-era
// rxmcp host that declared elicitation.url, over HTTP); the server's
// completion must then reach that host, under the id it was asked with, and
// no other host.

const urlServer = fixture('url-elicitation-server.mjs');

let upstream: McpClient;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
const hosts: McpClient[] = [];

interface Host {
  client: McpClient;
  asked: InputRequest[];
  completed: string[];
  /** Settles once the host has been asked its first page. */
  firstAsked: Promise<void>;
}

function host(): Host {
  const asked: InputRequest[] = [];
  const completed: string[] = [];
  let wasAsked = (): void => undefined;
  const firstAsked = new Promise<void>((resolve) => (wasAsked = resolve));
  const client = McpClient.connectHttp({
    url: served.url,
    era: 'legacy',
    onElicit: () => ({ action: 'decline' }),
    onElicitUrl: (request: InputRequest) => {
      asked.push(request);
      wasAsked();
      return { action: 'accept' };
    },
  });
  client.elicitationComplete$.subscribe(({ elicitationId }) => completed.push(elicitationId));
  hosts.push(client);
  return { client, asked, completed, firstAsked };
}

// The host's result and the completion of `id` travel on different streams (the call's and the session's): both are awaited.
async function callAndHear(who: Host, token: string): Promise<string> {
  const id = `page-${token}`;
  const heard = firstValueFrom(who.client.elicitationComplete$.pipe(filter((complete) => complete.elicitationId === id)));
  const result = await firstValueFrom(who.client.callTool('legacy-page', { token }));
  await heard;
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

beforeAll(() => {
  upstream = McpClient.connectStdio({
    ...urlServer,
    era: 'legacy',
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onElicitUrl: (request) => gateway.upstreamHooks.onElicitUrl(request),
  });
});

// A gateway per case, as in url-elicitation.spec.ts: each starts with no host counted as busy.
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

describe('notifications/elicitation/complete from an upstream server, through the gateway', () => {
  it('2025-11-25 client/elicitation, Completion Notifications for URL Mode Elicitation: reaches the 2025-era host that was asked, under the elicitationId it was asked with', async () => {
    const asked = host();
    expect(await callAndHear(asked, 'a')).toBe('done after page-a');
    expect(asked.asked).toHaveLength(1);
    expect(asked.asked[0]?.params).toMatchObject({ mode: 'url', elicitationId: 'page-a' });
    expect(asked.completed).toEqual(['page-a']);
  });

  it('2025-11-25 client/elicitation, Completion Notifications for URL Mode Elicitation: is sent only to the client that was asked, never to another host', async () => {
    const first = host();
    const second = host();
    // Both sessions are open (the second's first request has been answered) before the first host calls.
    await firstValueFrom(second.client.listTools());
    expect(await callAndHear(first, 'b1')).toBe('done after page-b1');
    // Each session's notifications arrive in order: had the second host been sent page-b1, it would come before its own page-b2.
    expect(await callAndHear(second, 'b2')).toBe('done after page-b2');
    expect(await callAndHear(first, 'b3')).toBe('done after page-b3');
    expect(second.completed).toEqual(['page-b2']);
    expect(first.completed).toEqual(['page-b1', 'page-b3']);
    expect(second.asked.map((request) => request.params.elicitationId)).toEqual(['page-b2']);
  });

  it('2025-11-25 client/elicitation, Completion Notifications for URL Mode Elicitation: passes on no completion for an id handed to no host, nor a malformed one', async () => {
    const asked = host();
    // The server completes 'nobody', 42, a 10,000-character id and none, never its own page: the call waits, and is cancelled once asked.
    const waiting = asked.client.callTool('legacy-page', { token: 'u', variant: 'unknown' }).subscribe({ error: () => undefined });
    await asked.firstAsked;
    waiting.unsubscribe();
    // The session's notifications arrive in order: any of those, passed on, would come before page-u2.
    expect(await callAndHear(asked, 'u2')).toBe('done after page-u2');
    expect(asked.completed).toEqual(['page-u2']);
  });
});
