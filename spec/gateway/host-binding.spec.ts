import { rmSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../src/gateway/index.js';
import { permissionKey } from '../../src/gateway/permission-form.js';
import { type InputHooks, McpClient, Policy, Registry } from '../../src/index.js';
import type { PermissionQuestion } from '../../src/index.js';
import { officialClient, RULES, textOf, upstreamConfig } from './gateway-support.js';

// A permission answer binds only the host that was asked, for the request it
// was asked about, and an "always" binds only that host unless the policy
// file shares grants. Hosts: the official client v2 in both eras over HTTP,
// and raw requests for what a hostile host would send. Behind the gateway,
// the SDK fixture (its fx_add is asked about, fx_deploy asks a question).

let registry: Registry;
const gateways: Array<{ gateway: Gateway; served: { url: string; close(): Promise<void> } }> = [];
let folder: string;

async function serve(sharedGrants: boolean): Promise<string> {
  let gateway: Gateway | undefined;
  const hooks: InputHooks = {
    onElicit: (request) => (gateway as Gateway).upstreamHooks.onElicit(request),
    onSample: (request) => (gateway as Gateway).upstreamHooks.onSample(request),
    onListRoots: (request) => (gateway as Gateway).upstreamHooks.onListRoots(request),
  };
  const upstream = upstreamConfig();
  folder = upstream.folder;
  registry = Registry.fromConfig({ mcpServers: { fx: upstream.config.mcpServers.fx } }, { client: hooks });
  const policy = new Policy({ provider: registry, rules: RULES, onAsk: (question) => (gateway as Gateway).ask(question) });
  const servers = Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as unknown as { client(): McpClient }).client()]));
  gateway = new Gateway({ provider: policy, servers, ...(sharedGrants ? { sharedGrants } : {}) });
  const served = await gateway.listen({ port: 0, bearerToken: false });
  gateways.push({ gateway, served });
  return served.url;
}

afterEach(async () => {
  for (const { gateway, served } of gateways.splice(0)) {
    await gateway.close();
    await served.close();
  }
  await registry?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const http = (url: string) => ({ connect: () => new StreamableHTTPClientTransport(new URL(url)) });
const alwaysAllow = (asked: string[]) => (params: Record<string, unknown>) => {
  asked.push(String(params.message));
  return { action: 'accept', content: { decision: 'always-allow' } };
};

describe.each(['modern', 'legacy'] as const)('"always" answers over HTTP (%s era)', (era) => {
  it('binds only the host that gave it: another host is not allowed by it', async () => {
    const url = await serve(false);
    const asked: string[] = [];
    const a = await officialClient(era, http(url), alwaysAllow(asked), 'host-a');
    // B declared no elicitation: it cannot be asked, so only a grant could allow its call.
    const b = await officialClient(era, http(url), undefined, 'host-b');
    try {
      expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } }))).toBe('5');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('"Always" choices apply for this host only.');
      const other = await b.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain('declared no elicitation');
      // The host that answered is not asked again.
      expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 4, b: 4 } }))).toBe('8');
      expect(asked).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});

it('keeps no grant for the whole tool from a call whose locations the Policy could not read, as the Policy keeps none', async () => {
  const url = await serve(false);
  const asked: string[] = [];
  const a = await officialClient('modern', http(url), alwaysAllow(asked), 'host-a');
  try {
    // A climbing relative path reads as a location, but as none the Policy can place: no folder is suggested.
    expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 2, b: 3, note: '../../elsewhere/x' } }))).toBe('5');
    expect(asked).toHaveLength(1);
    // "Always" held for that call alone: a later call naming /etc/passwd is asked about, not allowed by it.
    expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 1, b: 1, note: '/etc/passwd' } }))).toBe('2');
    expect(asked).toHaveLength(2);
  } finally {
    await a.close();
  }
}, 30_000);

it('spells out the controls and bidi characters of the arguments its permission form shows', async () => {
  const url = await serve(false);
  const asked: string[] = [];
  const a = await officialClient('modern', http(url), alwaysAllow(asked), 'host-a');
  try {
    // A model's arguments: a bidi override that shows /tmp/x/hs.png for /tmp/x/gnp.sh, a C1 CSI that erases a line.
    expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 2, b: 3, note: '/tmp/x/\u202egnp.sh', more: '\u009b1A\u009b2K\u2028' } }))).toBe('5');
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toMatch(/[\u202e\u009b\u2028]/);
    expect(asked[0]).toContain('"note":"/tmp/x/\\u202egnp.sh","more":"\\x9b1A\\x9b2K\\u2028"');
  } finally {
    await a.close();
  }
}, 30_000);

it('binds every host when the grants are shared (sharedGrants), and the form says so', async () => {
  const url = await serve(true);
  const asked: string[] = [];
  const a = await officialClient('modern', http(url), alwaysAllow(asked), 'host-a');
  const b = await officialClient('modern', http(url), undefined, 'host-b');
  try {
    expect(textOf(await a.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect(asked[0]).toContain('"Always" choices apply for every host of this gateway.');
    expect(textOf(await b.callTool({ name: 'fx_add', arguments: { a: 1, b: 1 } }))).toBe('2');
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);

// Raw 2026-07-28 requests, as a hostile host would write them.
interface Reply {
  result?: { resultType?: string; inputRequests?: Record<string, { params?: { message?: string } }>; requestState?: string; content?: Array<{ text?: string }> };
  error?: { code: number; message: string };
}
async function call(url: string, client: string, params: Record<string, unknown>): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params.name) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.trimStart().startsWith('{') ? text : (text.split('\n').find((line) => line.startsWith('data: ')) ?? 'data: {}').slice(6);
  return JSON.parse(data) as Reply;
}

const addQuestion = (args: Record<string, unknown>): PermissionQuestion =>
  ({ kind: 'permission', tool: 'fx_add', arguments: args, call: { id: 'x', type: 'function', function: { name: 'fx_add', arguments: JSON.stringify(args) } }, rule: RULES[1], locations: [], suggestion: undefined, caller: 'model' }) as PermissionQuestion;

describe('a permission answer nobody asked for', () => {
  it('is ignored, and the call is asked properly', async () => {
    const url = await serve(false);
    const key = permissionKey(addQuestion({ a: 1, b: 2 }));
    const forged = await call(url, 'raw-a', { name: 'fx_add', arguments: { a: 1, b: 2 }, inputResponses: { [key]: { action: 'accept', content: { decision: 'always-allow' } } } });
    expect(forged.result?.resultType).toBe('input_required');
    expect(forged.result?.inputRequests?.[key]?.params?.message).toContain('Allow the tool "fx_add" to run?');
    expect(forged.result?.content).toBeUndefined();
  }, 30_000);

  it("is refused when a host brings another host's question (its requestState) with its own answer, and counts once", async () => {
    const url = await serve(false);
    const asked = await call(url, 'raw-a', { name: 'fx_add', arguments: { a: 1, b: 2 } });
    const key = Object.keys(asked.result?.inputRequests ?? {})[0] as string;
    const requestState = asked.result?.requestState;
    expect(typeof requestState).toBe('string');
    const answer = { [key]: { action: 'accept', content: { decision: 'allow-once' } } };
    const stolen = await call(url, 'raw-b', { name: 'fx_add', arguments: { a: 1, b: 2 }, inputResponses: answer, requestState });
    expect(stolen.error?.code).toBe(-32602);
    expect(stolen.error?.message).toContain('not issued for this request');
    // The host that was asked gets its answer taken, for that call.
    const answered = await call(url, 'raw-a', { name: 'fx_add', arguments: { a: 1, b: 2 }, inputResponses: answer, requestState });
    expect(answered.result?.content?.[0]?.text).toBe('3');
    // Once: the same state and answer again are not read, and the call is asked anew.
    const replayed = await call(url, 'raw-a', { name: 'fx_add', arguments: { a: 1, b: 2 }, inputResponses: answer, requestState });
    expect(replayed.result?.resultType).toBe('input_required');
    expect(replayed.result?.requestState).not.toBe(requestState);
  }, 30_000);
});

describe('MRTR, server requirements: a requestState is bound to the principal, the request and its parameters', () => {
  it('fails a replay under another client, tool or arguments, and runs nothing', async () => {
    const url = await serve(false);
    const first = await call(url, 'raw-a', { name: 'fx_deploy', arguments: { env: 'staging' } });
    expect(first.result?.resultType).toBe('input_required');
    const requestState = first.result?.requestState;
    const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };
    for (const [client, name, args] of [
      ['raw-b', 'fx_deploy', { env: 'staging' }],
      ['raw-a', 'fx_deploy', { env: 'production' }],
      ['raw-a', 'fx_echo', { env: 'staging' }],
    ] as const) {
      const replay = await call(url, client, { name, arguments: args, inputResponses, requestState });
      expect(replay.error?.code).toBe(-32602);
      expect(replay.error?.message).toContain('not issued for this request');
    }
    const retry = await call(url, 'raw-a', { name: 'fx_deploy', arguments: { env: 'staging' }, inputResponses, requestState });
    expect(retry.result?.content?.[0]?.text).toBe('deployed to staging');
  }, 30_000);
});
