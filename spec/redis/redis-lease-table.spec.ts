import { LeaseTable, McpClientError } from 'rxmcp';
import { RedisLeaseTable } from 'rxmcp/redis';
import { createClient } from 'redis';
import { leaseStoreContract } from '../support/lease-store-contract.js';
import { describeWithRedis, type RedisServer, startRedis } from '../support/redis.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeWithRedis('RedisLeaseTable', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.dispose());

  describe('keeps the lease-store contract, each view of the table on its own connection, in real time', () => {
    let namespace = '';
    let tests = 0;
    const open: RedisLeaseTable[] = [];
    const track = (table: RedisLeaseTable) => (open.push(table), table);
    let ttl: number | undefined;
    beforeEach(() => {
      namespace = `contract-${++tests}`;
      ttl = undefined;
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((table) => table.close()));
    });

    leaseStoreContract(() => ({
      table: (options) => {
        ttl ??= options?.defaultTtlSeconds ?? 300;
        return track(new RedisLeaseTable({ url: redis.url, namespace, defaultTtlSeconds: ttl }));
      },
      sibling: () => track(new RedisLeaseTable({ url: redis.url, namespace: `${namespace}-sibling` })),
      advance: sleep,
    }));
  });

  it('answers as the in-process table does, over two thousand random operations on nested paths', async () => {
    const reference = new LeaseTable();
    const table = new RedisLeaseTable({ url: redis.url, namespace: 'random' });
    const universe = ['/', '/a', '/a/', '/a/b', '/a/b/c', '/a/bc', '/ab', '/b', '/b/a', '/b/a/x', 'rel', 'rel/x', ''];
    const holders = ['h1', 'h2', 'h3'];
    let seed = 19;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const some = () => [...new Set(Array.from({ length: 1 + random(3) }, () => universe[random(universe.length)] as string))];
    // Where several leases conflict, either may be named: it must be a real one.
    const within = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
    const isConflict = (holder: string, paths: string[], path: string, by: string) =>
      by !== holder && reference.covers(by, path) && paths.some((p) => within(p, path) || within(path, p));
    for (let step = 0; step < 2000; step++) {
      const holder = holders[random(3)] as string;
      const kind = random(10);
      const where = `step ${step}`;
      if (kind < 4) {
        const paths = some();
        const [expected, actual] = [reference.acquire(holder, paths), await table.acquire(holder, paths)];
        expect([where, actual === undefined]).toEqual([where, expected === undefined]);
        if (actual) expect([where, isConflict(holder, paths, actual.path, actual.holder)]).toEqual([where, true]);
      } else if (kind < 6) {
        const paths = some();
        const [expected, actual] = [reference.release(holder, paths), await table.release(holder, paths)];
        expect([where, [...actual].sort()]).toEqual([where, [...expected].sort()]);
      } else if (kind < 8) {
        const path = universe[random(universe.length)] as string;
        const [expected, actual] = [reference.conflict(holder, path), await table.conflict(holder, path)];
        expect([where, actual === undefined]).toEqual([where, expected === undefined]);
        if (actual) expect([where, isConflict(holder, [path], actual[0], actual[1].holder)]).toEqual([where, true]);
      } else if (kind < 9) {
        const path = universe[random(universe.length)] as string;
        expect([where, await table.covers(holder, path)]).toEqual([where, reference.covers(holder, path)]);
      } else {
        reference.releaseHolder(holder);
        await table.releaseHolder(holder);
      }
    }
    await table.close();
  }, 30_000);

  it('finds another holder inside a directory behind a hundred and more of its own leases', async () => {
    const table = new RedisLeaseTable({ url: redis.url, namespace: 'crowded' });
    await table.acquire('a', Array.from({ length: 150 }, (_, i) => `/d/${String(i).padStart(3, '0')}`));
    await table.acquire('b', ['/d/zzz']);
    expect(await table.conflict('a', '/d')).toEqual(['/d/zzz', expect.objectContaining({ holder: 'b' })]);
    expect(await table.acquire('a', ['/d'])).toMatchObject({ path: '/d/zzz', holder: 'b' });
    expect(await table.release('a')).toHaveLength(150);
    await table.close();
  });

  it('works over a client of yours, which it leaves open', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    const table = new RedisLeaseTable({ client, namespace: 'given-client' });
    expect(await table.acquire('a', ['/x'])).toBeUndefined();
    expect(await table.conflict('b', '/x/y')).toEqual(['/x', expect.objectContaining({ holder: 'a' })]);
    await table.close();
    expect(client.isReady).toBe(true);
    expect(await client.hLen('rxmcp:{given-client}:leases')).toBe(1);
    await client.close();
  });

  it('keeps time by the server: a lease lasts its TTL by the Redis clock, and its key goes with it', async () => {
    const table = new RedisLeaseTable({ url: redis.url, namespace: 'server-clock' });
    const client = createClient({ url: redis.url });
    await client.connect();
    await table.acquire('a', ['/f'], 0.5);
    const [, lease] = (await table.conflict('b', '/f')) ?? [];
    const [seconds, micros] = (await client.time()) as unknown as [number, number] | [string, string];
    const serverNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    expect(lease?.expiresAt).toBeGreaterThan(serverNow);
    expect(lease?.expiresAt).toBeLessThanOrEqual(serverNow + 500);
    expect(await client.pTTL('rxmcp:{server-clock}:leases')).toBeGreaterThan(0);
    await sleep(600);
    expect(await client.exists('rxmcp:{server-clock}:leases')).toBe(0);
    expect(await table.acquire('b', ['/f'])).toBeUndefined();
    await Promise.all([table.close(), client.close()]);
  });

  it('refuses bad options, naming them', () => {
    expect(() => new RedisLeaseTable({ namespace: 'x' })).toThrow(/give either client or url/);
    expect(() => new RedisLeaseTable({ url: redis.url, namespace: '' })).toThrow(/namespace must be a non-empty string/);
    expect(() => new RedisLeaseTable({ url: redis.url, namespace: 'x', defaultTtlSeconds: 0 })).toThrow(McpClientError);
    expect(() => new RedisLeaseTable({ url: redis.url, namespace: 'x', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new RedisLeaseTable({ url: redis.url, namespace: 'x', ttl: 5 } as never)).toThrow('unknown option: ttl');
  });
});
