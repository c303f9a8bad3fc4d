import { Leases, type LlmToolCall, McpStoreError, Policy, type PolicyQuestion, Toolkit } from 'rxmcp';
import { RedisGrants, RedisLeaseTable } from 'rxmcp/redis';
import { createClient } from 'redis';
import { z } from 'zod';
import { describeWithRedis, type RedisServer, startRedis } from '../support/redis.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: args } });
const files = () =>
  new Toolkit({ name: 'fs' }).tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, ({ path }) => ({
    content: [{ type: 'text', text: `wrote ${path}` }],
  }));

/** Runs `work` and answers what it gave and how long it took, in ms. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** Retries `attempt` until it holds, for up to `ms`. */
async function until(attempt: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await attempt().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not recovered within ${ms} ms`);
    await sleep(50);
  }
}

describeWithRedis('Redis going away under the fleet', () => {
  const BUDGET = 400;
  // What a busy two-core machine may add to a budget before the answer is seen.
  const SLACK = 1000;
  let redis: RedisServer;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  const closing: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(store: T): T => (closing.push(store), store);

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    redis = await startRedis();
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    redis?.resume();
    await Promise.all(closing.map((store) => store.close()));
    await redis?.dispose();
  });
  beforeEach(async () => {
    // Each test starts with Redis up, whatever the one before left behind.
    redis.resume();
    if (redis.pid === undefined) await redis.start();
  });
  afterEach(() => expect(unhandled).toEqual([]));

  it('fails closed while Redis is down, with errors naming the store, and recovers with nothing double-granted', async () => {
    const options = { url: redis.url, namespace: 'outage', timeoutMs: BUDGET };
    const tables = { a: track(new RedisLeaseTable(options)), b: track(new RedisLeaseTable(options)) };
    const agentFor = (agentId: 'a' | 'b') => new Leases({ inner: files(), table: tables[agentId], agentId, roots: { fs: '/w', lock: '/w' }, concurrent: () => 2 });
    const [a, b] = [agentFor('a'), agentFor('b')];
    const direct = track(new RedisLeaseTable(options));
    const [here, there] = [track(new RedisGrants(options)), track(new RedisGrants(options))];
    const asked: PolicyQuestion[] = [];
    const granted: unknown[] = [];
    const policyOver = (grantsStore: RedisGrants, action: string) =>
      new Policy({ provider: files(), grantsStore, onAsk: (question) => (asked.push(question), { action }), onGrant: (grants) => granted.push(grants) });

    expect((await a.executeToolCalls([call('1', 'lock_acquire', { paths: ['f'], ttl: 60 })]))[0]?.is_error).toBe(false);
    expect((await policyOver(here, 'always-allow').executeToolCalls([call('2', 'fs_write', { path: '/w/g', content: '' })]))[0]?.is_error).toBe(false);
    expect(asked).toHaveLength(1);
    expect(granted).toHaveLength(1);

    await redis.kill();

    const location = `redis://127.0.0.1:${redis.port} (namespace "outage")`;
    const [[held, free, write, release], took] = await timed(async () => [
      ...(await b.executeToolCalls([call('3', 'lock_acquire', { paths: ['f'], wait: 0 }), call('4', 'lock_acquire', { paths: ['g'], wait: 30 })])),
      ...(await a.executeToolCalls([call('5', 'fs_write', { path: '/w/f/x', content: '' }), call('6', 'lock_release', { paths: ['other'] })])),
    ]);
    expect(took).toBeLessThan(4 * BUDGET + SLACK);
    for (const refused of [held, free]) {
      expect(refused).toMatchObject({ is_error: true });
      expect(refused?.content).toContain(`lock_acquire: the lease table could not be reached, so nothing was acquired (RedisLeaseTable at ${location}: acquire failed:`);
    }
    expect(write?.content).toMatch(/^fs_write was not run: the lease table could not be read, .*RedisLeaseTable at .*: conflict failed/);
    expect(release).toMatchObject({ is_error: true, content: expect.stringContaining('lock_release: the lease table could not be reached') });
    const error = await direct.acquire('c', ['/w/h']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpStoreError);
    expect(error).toMatchObject({ name: 'McpStoreError', store: 'RedisLeaseTable', operation: 'acquire', location });

    // The book cannot be read: a decision that needed it asks, even though the mirror holds the grant.
    expect(there.grants).toEqual([{ tool: 'fs_write', under: '/w', decision: 'allow' }]);
    const [asking] = await policyOver(there, 'deny-once').executeToolCalls([call('7', 'fs_write', { path: '/w/g', content: '' })]);
    expect(asking).toMatchObject({ is_error: true, content: 'Denied by the user' });
    expect(asked).toHaveLength(2);
    const [headless] = await new Policy({ provider: files(), grantsStore: there }).executeToolCalls([call('8', 'fs_write', { path: '/w/g', content: '' })]);
    expect(headless?.content).toMatch(/^fs_write needs permission, and there is nobody to ask; the shared grants could not be read \(RedisGrants at .*: read failed: /);
    // An "always" that cannot be written decides its own call only, and nobody is told of a grant.
    const [once] = await policyOver(there, 'always-allow').executeToolCalls([call('9', 'fs_write', { path: '/w/g', content: '' })]);
    expect(once?.is_error).toBe(false);
    expect(granted).toHaveLength(1);

    await redis.start();
    // Each store reconnects on its own, each on its own backoff: every table and the book must answer before a step relies on it.
    for (const table of [direct, tables.a, tables.b]) await until(async () => (await table.covers('a', '/w/f/x')) === true, 5000);
    await until(async () => (await there.current()).length === 1, 5000);

    const [stillHeld] = await b.executeToolCalls([call('10', 'lock_acquire', { paths: ['f'], wait: 0 })]);
    expect(stillHeld?.content).toMatch(/^refused: \/w\/f is held by a /);
    expect((await a.executeToolCalls([call('11', 'fs_write', { path: '/w/f/x', content: '' })]))[0]).toMatchObject({ is_error: false });
    expect((await b.executeToolCalls([call('12', 'lock_acquire', { paths: ['g'], wait: 0 })]))[0]).toMatchObject({ is_error: false });
    const [bound] = await policyOver(there, 'deny-once').executeToolCalls([call('13', 'fs_write', { path: '/w/g', content: '' })]);
    expect(bound).toMatchObject({ is_error: false });
    expect(asked).toHaveLength(3);

    // The subscription came back too: a grant made here reaches the other book's mirror without a decision.
    await here.add([{ tool: 'fs_read', decision: 'allow' }]);
    await until(async () => there.grants.length === 2, 3000);
  }, 30_000);

  it('bounds every call, and closing, by the budget when Redis stops answering, over its own connection and over a given client', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    const owned = track(new RedisLeaseTable({ url: redis.url, namespace: 'frozen', timeoutMs: BUDGET }));
    const given = track(new RedisLeaseTable({ client, namespace: 'frozen', timeoutMs: BUDGET }));
    const book = track(new RedisGrants({ url: redis.url, namespace: 'frozen', timeoutMs: BUDGET }));
    const spare = new RedisLeaseTable({ url: redis.url, namespace: 'frozen', timeoutMs: BUDGET });
    await owned.acquire('a', ['/w/held']);
    expect(await spare.covers('a', '/w/held')).toBe(true);
    let asked = 0;
    const policy = new Policy({ provider: files(), grantsStore: book, onAsk: () => (asked++, { action: 'deny-once' }) });

    redis.pause();
    for (const table of [owned, given]) {
      const [error, took] = await timed(() => table.acquire('b', ['/w/free']).catch((e: unknown) => e));
      expect(error).toBeInstanceOf(McpStoreError);
      expect((error as Error).message).toMatch(/acquire failed: no answer within 400 ms/);
      expect(took).toBeGreaterThanOrEqual(BUDGET - 20);
      expect(took).toBeLessThan(BUDGET + SLACK);
    }
    const [[decision], took] = await timed(() => policy.executeToolCalls([call('1', 'fs_write', { path: '/w/x', content: '' })]));
    expect(decision?.is_error).toBe(true);
    expect(asked).toBe(1);
    expect(took).toBeLessThan(BUDGET + SLACK);
    const [, closing] = await timed(() => spare.close());
    expect(closing).toBeLessThan(BUDGET + SLACK);

    redis.resume();
    await until(async () => (await given.conflict('b', '/w/held'))?.[1].holder === 'a', 3000);
    expect(await owned.covers('a', '/w/held')).toBe(true);
    await client.close();
  }, 20_000);

  it('fails at once, typed, when Redis was never there, and closes cleanly', async () => {
    const table = new RedisLeaseTable({ url: 'redis://127.0.0.1:9', namespace: 'nowhere', timeoutMs: 300 });
    const [first, took] = await timed(() => table.acquire('a', ['/w']).catch((e: unknown) => e));
    expect(first).toBeInstanceOf(McpStoreError);
    expect((first as Error).message).toMatch(/^RedisLeaseTable at redis:\/\/127\.0\.0\.1:9 \(namespace "nowhere"\): acquire failed: no answer within 300 ms; Redis is unreachable \(.*ECONNREFUSED/);
    expect(took).toBeLessThan(300 + SLACK);
    const [again, fast] = await timed(() => table.release('a').catch((e: unknown) => e));
    expect((again as Error).message).toMatch(/release failed: Redis is unreachable/);
    expect(fast).toBeLessThan(300);
    await table.close();
    await expect(table.covers('a', '/w')).rejects.toThrow(/covers failed: the store is closed/);
  });
});
