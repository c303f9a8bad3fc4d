import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../src/gateway/index.js';
import { type InputHooks, McpClient, Policy, Registry } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';
import { officialClient, RULES, textOf, upstreamConfig } from './gateway-support.js';

// The gateway in this process, served on a loopback listener; behind it, the
// SDK fixture over HTTP and over stdio, server-everything and
// server-filesystem. Hosts: the official client v2 in both eras, and rxmcp.

const TOKEN = 'a-long-enough-test-token-0123456789';

let web: RunningServer;
let registry: Registry;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
let folder: string;
const upstreamStderr: string[] = [];
const asked: string[] = [];

const answer = (params: Record<string, unknown>): Record<string, unknown> => {
  const message = String(params.message);
  asked.push(message);
  return message.startsWith('Allow the tool') ? { action: 'accept', content: { decision: 'allow-once' } } : { action: 'accept', content: { confirm: true } };
};
const http = (url = served.url, token = TOKEN) => ({
  connect: () => new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
});

beforeAll(async () => {
  web = await startHttpServer('http-server.mjs');
  const upstream = upstreamConfig({ web: { type: 'http', url: web.url } });
  folder = upstream.folder;
  const hooks: InputHooks = {
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onSample: (request) => gateway.upstreamHooks.onSample(request),
    onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
  };
  registry = Registry.fromConfig(upstream.config, { client: { ...hooks, onStderr: (line: string) => void upstreamStderr.push(line) } });
  const policy = new Policy({ provider: registry, rules: RULES, onAsk: (question) => gateway.ask(question) });
  const servers = Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as unknown as { client(): McpClient }).client()]));
  gateway = new Gateway({ provider: policy, servers });
  served = await gateway.listen({ port: 0, bearerToken: TOKEN });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await served?.close();
  await registry?.close();
  await web?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe.each(['modern', 'legacy'] as const)('the gateway over HTTP, to the official client v2 (%s era)', (era) => {
  it('lists the tools of the servers behind it, the HTTP one included, and runs them', async () => {
    const client = await officialClient(era, http(), answer);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['web_echo', 'fx_echo', 'everything_echo', 'fs_list_directory']));
      expect(textOf(await client.callTool({ name: 'web_echo', arguments: { text: 'over two HTTP hops' } }))).toBe('over two HTTP hops');
      const denied = await client.callTool({ name: 'fx_environment', arguments: { names: [] } });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('the environment holds secrets');
    } finally {
      await client.close();
    }
  });

  it('reads a resource and renders a prompt of the server behind it over HTTP', async () => {
    const client = await officialClient(era, http());
    try {
      const read = await client.readResource({ uri: 'rxmcp://web/fixture://readme' });
      expect(read.contents[0]).toMatchObject({ uri: 'rxmcp://web/fixture://readme', text: '# Fixture' });
      const prompt = await client.getPrompt({ name: 'web_greet', arguments: { name: 'Ada', language: 'English' } });
      expect(JSON.stringify(prompt.messages)).toContain('Greet Ada in English.');
      await expect(client.readResource({ uri: 'rxmcp://nobody/fixture://readme' })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
  });

  it("lists the servers' resources, templates and prompts under their prefixes, and completes an argument", async () => {
    const client = await officialClient(era, http());
    try {
      const resources = (await client.listResources()).resources.map((resource) => resource.uri);
      expect(resources).toEqual(expect.arrayContaining(['rxmcp://web/fixture://readme', 'rxmcp://fx/fixture://readme']));
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
      expect(templates).toContain('rxmcp://web/fixture://items/{n}');
      const read = await client.readResource({ uri: 'rxmcp://web/fixture://items/7' });
      expect(read.contents[0]).toMatchObject({ uri: 'rxmcp://web/fixture://items/7', text: '{"n":7}' });
      const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
      expect(prompts).toEqual(expect.arrayContaining(['web_greet', 'fx_greet']));
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'web_greet' }, argument: { name: 'language', value: 'Es' } });
      expect(completed.completion.values).toEqual(['Esperanto', 'Estonian']);
    } finally {
      await client.close();
    }
  });
});

describe('questions over HTTP', () => {
  it('asks a 2026-07-28 host through input_required, and puts an upstream question to it', async () => {
    const client = await officialClient('modern', http(), answer);
    try {
      expect(textOf(await client.callTool({ name: 'fx_add', arguments: { a: 20, b: 22 } }))).toBe('42');
      expect(asked.some((message) => message.includes('"a":20'))).toBe(true);
      expect(textOf(await client.callTool({ name: 'fx_deploy', arguments: { env: 'eu' } }))).toBe('deployed to eu');
      expect(textOf(await client.callTool({ name: 'web_deploy', arguments: { env: 'us' } }))).toBe('deployed to us');
    } finally {
      await client.close();
    }
  });

  it('refuses with -32021 the call of a 2026-07-28 host whose upstream server needs a capability it did not declare', async () => {
    const client = await officialClient('modern', http());
    try {
      const refused = client.callTool({ name: 'web_deploy', arguments: { env: 'eu' } });
      await expect(refused).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
      // A Policy ask is not the tool's need: without elicitation the call is denied headlessly, as the tool's error.
      const denied = await client.callTool({ name: 'fx_add', arguments: { a: 5, b: 6 } });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('declared no elicitation');
    } finally {
      await client.close();
    }
  });

  it('asks a 2025-11-25 host on its session, and puts an upstream question to it', async () => {
    const client = await officialClient('legacy', http(), answer);
    try {
      expect(textOf(await client.callTool({ name: 'fx_add', arguments: { a: 3, b: 4 } }))).toBe('7');
      expect(asked.some((message) => message.includes('"a":3'))).toBe(true);
      expect(textOf(await client.callTool({ name: 'web_deploy', arguments: { env: 'ap' } }))).toBe('deployed to ap');
    } finally {
      await client.close();
    }
  });
});

describe('progress and cancellation over HTTP', () => {
  it("passes an upstream call's progress to the host's progress token, coalesced, the last value always", async () => {
    const client = await officialClient('modern', http());
    try {
      const seen: Array<{ progress: number; total?: number }> = [];
      const result = await client.callTool({ name: 'fx_count', arguments: { steps: 3, delayMs: 20 } }, { onprogress: (progress) => seen.push(progress) });
      expect(textOf(result)).toBe('counted to 3');
      // Coalesced: the first value at once, the latest at a bounded rate, the last before the result.
      const values = seen.map((event) => event.progress);
      expect(values[0]).toBe(1);
      expect(values.at(-1)).toBe(3);
      expect(values).toEqual([...new Set(values)].sort());
      expect(seen[0]?.total).toBe(3);
    } finally {
      await client.close();
    }
  });

  it("cancels the upstream call when the host cancels its request", async () => {
    const client = await officialClient('modern', http());
    try {
      const before = upstreamStderr.filter((line) => line.startsWith('cancelled')).length;
      const abort = new AbortController();
      const call = client.callTool({ name: 'fx_sleep', arguments: { ms: 30_000 } }, { signal: abort.signal });
      call.catch(() => undefined);
      await eventually(() => upstreamStderr.some((line) => line.startsWith('started sleep')), 10_000);
      abort.abort();
      await expect(call).rejects.toThrow();
      await eventually(() => upstreamStderr.filter((line) => line.startsWith('cancelled')).length > before, 10_000);
    } finally {
      await client.close();
    }
  });
});

describe('rxmcp as the host over HTTP', () => {
  it('lists, calls and reads through the gateway', async () => {
    const mcp = McpClient.connectHttp({ url: served.url, headers: { authorization: `Bearer ${TOKEN}` } });
    try {
      const tools = await firstValueFrom(mcp.listTools());
      expect(tools.map((tool) => tool.name)).toContain('fs_read_text_file');
      expect(textOf(await firstValueFrom(mcp.callTool('everything_echo', { message: 'from rxmcp' })))).toContain('from rxmcp');
      const read = await firstValueFrom(mcp.readResource('rxmcp://fx/fixture://readme'));
      expect(read.contents[0]).toMatchObject({ text: '# Fixture' });
    } finally {
      await mcp.close();
    }
  });
});

/** A raw POST to the gateway with the given headers (a Buffer body goes as it is, anything else as JSON); the status, headers and body. */
function post(headers: Record<string, string>, body: unknown, at = served.url): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(at);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const modernCall = (params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    },
  },
});

describe('the HTTP checks', () => {
  it('serves a request with the token, from a loopback Host, without Origin', async () => {
    const answered = await post({ authorization: `Bearer ${TOKEN}` }, initialize);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('rxmcp-gateway');
  });

  it('refuses a Host that is not the one it is bound to (DNS rebinding)', async () => {
    const refused = await post({ authorization: `Bearer ${TOKEN}`, host: 'evil.example:80' }, initialize);
    expect(refused.status).toBe(403);
  });

  it('refuses a request from a web page (any Origin)', async () => {
    const refused = await post({ authorization: `Bearer ${TOKEN}`, origin: 'http://localhost:3000' }, initialize);
    expect(refused.status).toBe(403);
  });

  it('challenges a request without the token, or with another, and never echoes it', async () => {
    const missing = await post({}, initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    const wrong = await post({ authorization: 'Bearer not-the-token-at-all-0000000000' }, initialize);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('invalid_token');
    expect(wrong.body).not.toContain('not-the-token');
  });

  it('will not listen beyond loopback without a bearer token', async () => {
    await expect(gateway.listen({ port: 0, host: '0.0.0.0', bearerToken: false })).rejects.toThrow(/not loopback, needs a bearerToken/);
  });

  it('will not listen on loopback either without a bearer token, unless told bearerToken: false', async () => {
    await expect(gateway.listen({ port: 0 } as never)).rejects.toThrow(/listen needs a bearerToken: every account on this machine can reach a loopback port/);
    const open = await gateway.listen({ port: 0, bearerToken: false });
    try {
      const answered = await post({}, initialize, open.url);
      expect(answered.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('hostile hosts', () => {
  it('refuses a forged requestState with a clear error, running nothing', async () => {
    const forged = await post({ authorization: `Bearer ${TOKEN}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fx_echo' }, modernCall({ name: 'fx_echo', arguments: { text: 'x' }, requestState: 'rxgw1.AAAAAAAAAAAAAAAAAAAAAAAA.zzzzzz.forged' }));
    expect(forged.body).toContain('The requestState was not issued for this request');
  });

  it('reads a body as the SDK reads it: a UTF-8 BOM dropped, one that is no JSON answered with a parse error, one past 4 MiB with 413', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const modernHeaders = { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fx_echo' };
    const withBom = (message: unknown): Buffer => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(message))]);
    const opened = await post(auth, withBom(initialize));
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('rxmcp-gateway');
    const called = await post(modernHeaders, withBom(modernCall({ name: 'fx_echo', arguments: { text: 'after a BOM' } })));
    expect(called.status).toBe(200);
    expect(called.body).toContain('after a BOM');
    const cut = await post(auth, Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initi'));
    expect(cut.status).toBe(400);
    expect(cut.body).toMatch(/Parse error/);
    const padding = 'x'.repeat(4 * 1024 * 1024);
    const huge = await post(modernHeaders, Buffer.from(JSON.stringify(modernCall({ name: 'fx_echo', arguments: { text: padding } }))));
    expect(huge.status).toBe(413);
  });

  it('refuses arguments nested past the bound, before any layer reads them', async () => {
    const client = await officialClient('modern', http());
    try {
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let level = 0; level < 200; level++) deep = { deep };
      const refused = await client.callTool({ name: 'fx_echo', arguments: { text: 'x', deep } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('nest deeper than 64 levels');
    } finally {
      await client.close();
    }
  });
});
