import { firstValueFrom } from 'rxjs';
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../src/gateway/index.js';
import { McpClient } from '../../src/index.js';
import { callCases, hostileServer } from '../support/hostile-corpus.js';
import { officialClient, textOf } from './gateway-support.js';

// The hostile-answer corpus (spec/fixtures/hostile-corpus.cjs) from an
// upstream server, through the gateway, to a 2026-07-28 host: whatever the
// server answers, each of the host's requests gets an answer or an error in
// time, and the gateway serves on after the case. Served with the key '' (one
// server, no prefix), the server's own names and URIs reach the host.

// Cases that only measure how long a client pages through endless lists, or how it expands schemas, say nothing new here;
// nor do the ReDoS patterns of an outputSchema: the gateway passes schemas on unrun, and the host here (the official
// client) runs them when it checks the result, for a minute and a half of the host's own time.
const SLOW = /endless|huge-page|repeated-cursor|-5000$|ref-bomb|exponential|ref-loops|^redos-/;
// HOSTILE_CASES=name,… runs only those cases, as spec/support/hostile-run.ts does.
const CASES = callCases.filter((entry) => !SLOW.test(entry.name) && (!process.env.HOSTILE_CASES || process.env.HOSTILE_CASES.split(',').includes(entry.name))).map((entry) => entry.name);
const ANSWER_MS = 20_000;

let upstream: McpClient;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
let host: Client;

beforeAll(async () => {
  upstream = McpClient.connectStdio(hostileServer);
  gateway = new Gateway({ provider: upstream, servers: { '': upstream } });
  served = await gateway.listen({ port: 0, bearerToken: false });
  host = await officialClient('modern', { connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
}, 30_000);

afterAll(async () => {
  await host?.close();
  await gateway?.close();
  await served?.close();
  await upstream?.close();
});

// What became of one request: answered, refused with an error, or nothing in time.
async function settle(request: () => Promise<unknown>): Promise<'answered' | 'error' | 'hung'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ANSWER_MS)));
  try {
    return await Promise.race([request().then(() => 'answered' as const, () => 'error' as const), hung]);
  } finally {
    clearTimeout(timer);
  }
}

it(`answers every request in time through ${CASES.length} hostile cases, and serves on after them`, async () => {
  const problems: string[] = [];
  for (const name of CASES) {
    await firstValueFrom(upstream.callTool('select_case', { case: name }));
    const requests: Record<string, () => Promise<unknown>> = {
      'tools/list': () => host.listTools(),
      'tools/call': () => host.callTool({ name: 'echo', arguments: { text: 'hi' } }),
      'resources/list': () => host.listResources(),
      'resources/templates/list': () => host.listResourceTemplates(),
      'resources/read': () => host.readResource({ uri: 'file:///a.txt' }),
      'prompts/list': () => host.listPrompts(),
      'prompts/get': () => host.getPrompt({ name: 'greet', arguments: {} }),
      'completion/complete': () => host.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'a' } }),
    };
    for (const [method, request] of Object.entries(requests)) {
      if ((await settle(request)) === 'hung') problems.push(`${name}: ${method} got no answer in ${ANSWER_MS} ms`);
    }
  }
  await firstValueFrom(upstream.callTool('select_case', { case: 'none' }));
  expect(problems).toEqual([]);
  expect(textOf(await host.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  expect((await host.readResource({ uri: 'file:///a.txt' })).contents).toHaveLength(1);
}, 600_000);
