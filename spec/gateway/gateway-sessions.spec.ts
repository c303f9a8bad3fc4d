import { z } from 'zod';
import { Gateway } from '../../src/gateway/index.js';
import { LegacySessions } from '../../src/gateway/legacy-sessions.js';
import { loadServerSdk } from '../../src/gateway/server-sdk.js';
import { Toolkit } from '../../src/index.js';

// 2025-era hosts over HTTP get sessions: what a host sees of their bounds,
// spoken as raw Streamable HTTP to the gateway's fetch handler.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEADERS = { host: 'localhost:1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const initialize = (): Request =>
  new Request('http://gateway.invalid/mcp', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } }),
  });
const inSession = (id: string, method: string, body?: unknown): Request =>
  new Request('http://gateway.invalid/mcp', {
    method,
    headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const ping = (id: string): Request => inSession(id, 'POST', { jsonrpc: '2.0', id: 2, method: 'ping' });

async function open(handle: (request: Request) => Promise<Response>): Promise<string> {
  const response = await handle(initialize());
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id') as string;
}

let gateway: Gateway;
let handle: (request: Request) => Promise<Response>;

beforeEach(() => {
  const tools = new Toolkit({ name: 'kit' }).tool('kit_echo', { input: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  gateway = new Gateway({ provider: tools });
  handle = gateway.fetchHandler();
});

afterEach(async () => {
  await gateway.close();
});

describe('2025-11-25 sessions over HTTP', () => {
  it('opens a session per initialize under a random UUID, serves it, and ends it on DELETE', async () => {
    const id = await open(handle);
    expect(id).toMatch(UUID);
    expect(await open(handle)).not.toBe(id);
    const pong = await handle(ping(id));
    expect(pong.status).toBe(200);
    expect(await pong.text()).toContain('"result":{}');
    expect((await handle(inSession(id, 'DELETE'))).status).toBe(200);
    const gone = await handle(ping(id));
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('Session not found');
  });

  it('answers an unknown session id 404', async () => {
    const response = await handle(ping('00000000-0000-4000-8000-000000000000'));
    expect(response.status).toBe(404);
    await response.text();
  });

  it('refuses the 257th initialize with 503 while 256 sessions are open, and takes one once a session ends', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 256; i++) ids.push(await open(handle));
    const refused = await handle(initialize());
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('256 sessions open');
    expect((await handle(inSession(ids[0] as string, 'DELETE'))).status).toBe(200);
    expect(await open(handle)).toMatch(UUID);
  }, 60_000);

  it('closes every session when the gateway closes', async () => {
    const id = await open(handle);
    await gateway.close();
    const response = await handle(ping(id));
    expect(response.status).toBe(404);
    await response.text();
  });
});

describe('LegacySessions', () => {
  it('closes a session that has had no request for its idle time, and keeps one in use', async () => {
    const { sdk } = await loadServerSdk();
    const build = async () => new sdk.Server({ name: 'spec', version: '1' }, { capabilities: {} }) as never;
    const sessions = new LegacySessions(sdk, build, { max: 4, idleMs: 400 });
    try {
      const idle = await open((request) => sessions.handle(request));
      const used = await open((request) => sessions.handle(request));
      for (let i = 0; i < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await (await sessions.handle(ping(used))).text();
      }
      expect((await sessions.handle(ping(idle))).status).toBe(404);
      expect((await sessions.handle(ping(used))).status).toBe(200);
      expect(sessions.size).toBe(1);
    } finally {
      await sessions.close();
    }
  });
});
