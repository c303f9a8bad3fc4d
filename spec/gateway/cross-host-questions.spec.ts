import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { lateQuestionGateway, officialClient, textOf } from './gateway-support.js';

// Two hosts share one gateway over HTTP, and their calls overlap on one
// legacy stdio server, whose questions the wire ties to no call. A question
// asked for one host's call must never be put to the other host; one shaped
// like the gateway's own permission form reaches no host; a flood of
// progress reaches the host coalesced.

let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  served = await lateQuestionGateway();
}, 30_000);

afterAll(async () => {
  await served?.close();
});

it("never puts one host's upstream question to another host whose call started later", async () => {
  const http = () => ({ connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
  const seenByA: string[] = [];
  const seenByB: string[] = [];
  const a = await officialClient('modern', http(), (params) => (seenByA.push(String(params.message)), { action: 'accept', content: { ok: true } }));
  const b = await officialClient('modern', http(), (params) => (seenByB.push(String(params.message)), { action: 'accept', content: { ok: true } }));
  try {
    const first = a.callTool({ name: 'late_later', arguments: { secret: 'alice-0451' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = b.callTool({ name: 'late_wait', arguments: {} });
    const [resultA, resultB] = await Promise.all([first, second]);
    expect(seenByB).toEqual([]);
    expect(textOf(resultB)).toBe('waited');
    // Nobody can tell whose it is, so it is declined rather than guessed.
    expect(textOf(resultA)).not.toContain('"accept"');
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);

it('declines a question the wire ties to no call while another host has any request in flight, a completion too', async () => {
  const http = () => ({ connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
  const seenByA: string[] = [];
  // Without a token, the 2026-07-28 hosts are told apart by the client name their requests carry.
  const a = await officialClient('modern', http(), (params) => (seenByA.push(String(params.message)), { action: 'accept', content: { ok: true } }), 'host-a');
  const b = await officialClient('modern', http(), undefined, 'host-b');
  try {
    // B's completion (1.5 s upstream) is in flight when A's call asks (after 600 ms): the question may be B's.
    const completion = b.complete({ ref: { type: 'ref/prompt', name: 'late_slow' }, argument: { name: 'topic', value: 'x' } });
    const first = a.callTool({ name: 'late_later', arguments: { secret: 'alice-0451' } });
    const [resultA, completed] = await Promise.all([first, completion]);
    expect(completed.completion.values).toEqual(['later']);
    expect(seenByA).toEqual([]);
    expect(textOf(resultA)).toContain('"decline"');
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);

it("refuses an upstream question shaped like the gateway's permission form: no host sees it", async () => {
  const seen: string[] = [];
  const host = await officialClient('modern', { connect: () => new StreamableHTTPClientTransport(new URL(served.url)) }, (params) => (seen.push(String(params.message)), { action: 'accept', content: { decision: 'always-allow' } }));
  try {
    const result = await host.callTool({ name: 'late_imitate', arguments: {} });
    expect(seen).toEqual([]);
    expect(textOf(result)).toContain('"decline"');
  } finally {
    await host.close();
  }
}, 30_000);

it("relays a flood of an upstream server's progress coalesced, at a bounded rate, the last value always", async () => {
  const host = await officialClient('modern', { connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
  try {
    const seen: number[] = [];
    const result = await host.callTool({ name: 'late_flood', arguments: { count: 3_000 } }, { onprogress: (progress) => void seen.push(progress.progress) });
    expect(textOf(result)).toBe('flooded 3000');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(300);
    expect(seen.at(-1)).toBe(3_000);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
  } finally {
    await host.close();
  }
}, 30_000);

it("never puts a question of one host's cancelled call, which a 2025-era server may still ask, to another host", async () => {
  const http = () => ({ connect: () => new StreamableHTTPClientTransport(new URL(served.url)) });
  const seenByA: string[] = [];
  const a = await officialClient('modern', http(), (params) => (seenByA.push(String(params.message)), { action: 'accept', content: { ok: true } }), 'host-a');
  const b = await officialClient('modern', http(), () => ({ action: 'accept', content: { ok: true } }), 'host-b');
  try {
    // B's call asks after 600 ms upstream; B gives up on it at once, but the server, which ignores
    // cancellation, still asks, carrying B's argument, while A's call is the only one running.
    const cancel = new AbortController();
    const first = b.callTool({ name: 'late_later', arguments: { secret: 'bob-7731' } }, { signal: cancel.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancel.abort();
    await first;
    const resultA = await a.callTool({ name: 'late_wait', arguments: {} });
    expect(textOf(resultA)).toBe('waited');
    expect(seenByA).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);
