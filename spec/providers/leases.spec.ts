import { z } from 'zod';
import { LeaseTable, Leases, type LeasesOptions, type LlmToolCall, Toolkit } from '../../src/index.js';

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: args } });
const files = () =>
  new Toolkit({ name: 'fs' })
    .tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `wrote ${path}` }] }))
    .tool('fs_read', { input: z.object({ path: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `read ${path}` }] }));

function agent(table: LeaseTable, agentId: string, extra: Partial<LeasesOptions> = {}): Leases {
  return new Leases({ inner: files(), table, agentId, roots: { fs: '/srv', lock: '/srv' }, ...extra });
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('LeaseTable', () => {
  it('grants all paths or none, and names the holder and how long it has held', () => {
    const table = new LeaseTable();
    expect(table.acquire('a', ['/srv/x'])).toBeUndefined();
    jest.advanceTimersByTime(12_000);
    expect(table.acquire('b', ['/srv/y', '/srv/x'])).toEqual({ path: '/srv/x', holder: 'a', heldForSeconds: 12 });
    expect(table.acquire('b', ['/srv/y'])).toBeUndefined();
    expect(table.acquire('a', ['/srv/y/inner'])).toEqual({ path: '/srv/y', holder: 'b', heldForSeconds: 0 });
  });

  it('refreshes a lease its holder acquires again, and expires the rest', () => {
    const table = new LeaseTable({ defaultTtlSeconds: 10 });
    table.acquire('a', ['/srv/kept']);
    table.acquire('a', ['/srv/lapsed']);
    jest.advanceTimersByTime(8_000);
    table.acquire('a', ['/srv/kept']);
    jest.advanceTimersByTime(5_000);
    expect(table.acquire('b', ['/srv/lapsed'])).toBeUndefined();
    expect(table.acquire('b', ['/srv/kept'])).toMatchObject({ holder: 'a', heldForSeconds: 13 });
  });

  it('releases a holder\'s own leases only, by path, by holder, or all', () => {
    const table = new LeaseTable();
    table.acquire('a', ['/p/1', '/p/2']);
    table.acquire('b', ['/p/3']);
    expect(table.release('a', ['/p/1', '/p/3'])).toEqual(['/p/1']);
    table.releaseHolder('a');
    expect(table.acquire('c', ['/p/2'])).toBeUndefined();
    table.releaseAll();
    expect(table.acquire('d', ['/p/2', '/p/3'])).toBeUndefined();
  });
});

describe('Leases', () => {
  it('publishes lock_acquire and lock_release without a prefix', async () => {
    const names = (await agent(new LeaseTable(), 'a').toolsForLlm()).map((t) => t.function.name);
    expect(names).toEqual(['lock_acquire', 'lock_release', 'fs_write', 'fs_read']);
  });

  it('refuses a write to a path another agent holds, even when nothing is strict', async () => {
    const table = new LeaseTable();
    const [a, b] = [agent(table, 'a'), agent(table, 'b')];
    expect((await a.executeToolCalls([call('1', 'lock_acquire', { paths: ['work/f.txt'] })]))[0]).toMatchObject({ is_error: false, content: 'acquired /srv/work/f.txt for 300 s' });
    const [refused, read, free] = await b.executeToolCalls([
      call('2', 'fs_write', { path: '/srv/work/f.txt', content: '' }),
      call('3', 'fs_read', { path: '/srv/work/f.txt' }),
      call('4', 'fs_write', { path: '/srv/work/g.txt', content: '' }),
    ]);
    expect(refused).toMatchObject({ is_error: true, content: '/srv/work/f.txt is leased by a; wait for it (lock_acquire with wait) or work on something else' });
    expect(read).toMatchObject({ is_error: false });
    expect(free).toMatchObject({ is_error: false, content: 'wrote /srv/work/g.txt' });
  });

  it.each([
    { live: 'two live agents', concurrent: () => 2, strict: true },
    { live: 'one live agent', concurrent: () => 1, strict: false },
    { live: 'a count that throws', concurrent: () => { throw new Error('?'); }, strict: true },
    { live: 'a count that is not a number', concurrent: () => Number.NaN, strict: true },
  ])('with $live, strict mode (an unleased write refused) is $strict', async ({ concurrent, strict }) => {
    const [answer] = await agent(new LeaseTable(), 'a', { concurrent }).executeToolCalls([call('1', 'fs_write', { path: '/srv/x', content: '' })]);
    expect(answer?.is_error).toBe(strict);
    if (strict) expect(answer?.content).toMatch(/call lock_acquire with \["\/srv\/x"\] first/);
  });

  it('lets a strict write through once this agent holds the path or a directory around it', async () => {
    const leases = agent(new LeaseTable(), 'a', { concurrent: () => 3 });
    await leases.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/work'] })]);
    const [answer] = await leases.executeToolCalls([call('2', 'fs_write', { path: '/srv/work/deep/x', content: '' })]);
    expect(answer?.is_error).toBe(false);
  });

  it('waits, polling, until the holder lets go, with the wait hooks around it', async () => {
    const table = new LeaseTable();
    const events: string[] = [];
    const a = agent(table, 'a');
    const b = agent(table, 'b', { onWaitBegin: () => events.push('begin'), onWaitEnd: () => events.push('end') });
    await a.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'] })]);
    const waiting = b.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 30 })]);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(events).toEqual(['begin']);
    await a.executeToolCalls([call('3', 'lock_release', {})]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect((await waiting)[0]).toMatchObject({ is_error: false, content: 'acquired /srv/f for 300 s' });
    expect(events).toEqual(['begin', 'end']);
  });

  it('gives up at the end of the wait with a refusal naming the holder, and never waits for wait: 0', async () => {
    const table = new LeaseTable();
    let waits = 0;
    const b = agent(table, 'b', { onWaitBegin: () => waits++ });
    table.acquire('a', ['/srv/f']);
    const [now] = await b.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 0 })]);
    expect(now?.content).toBe('refused: /srv/f is held by a (for 0 s); work on something else and try again later');
    expect(waits).toBe(0);
    const later = b.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 5 })]);
    await jest.advanceTimersByTimeAsync(6_000);
    expect((await later)[0]?.content).toBe('refused: /srv/f is held by a (for 5 s); work on something else and try again later');
    expect(waits).toBe(1);
  });

  it('caps the wait at the table\'s default TTL', async () => {
    const table = new LeaseTable({ defaultTtlSeconds: 4 });
    table.acquire('a', ['/srv/f'], 3600);
    const waiting = agent(table, 'b').executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 600 })]);
    await jest.advanceTimersByTimeAsync(4_500);
    expect((await waiting)[0]?.content).toBe('refused: /srv/f is held by a (for 4 s); work on something else and try again later');
  });

  it('lets an expired (wedged) holder go', async () => {
    const table = new LeaseTable();
    table.acquire('wedged', ['/srv/f'], 3);
    const waiting = agent(table, 'b').executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
    await jest.advanceTimersByTimeAsync(3_500);
    expect((await waiting)[0]).toMatchObject({ is_error: false });
  });

  it('ends a wait when the run is cancelled, but keeps waiting when cancelled() throws', async () => {
    const table = new LeaseTable();
    table.acquire('a', ['/srv/f']);
    let cancel = false;
    const events: string[] = [];
    const b = agent(table, 'b', { cancelled: () => cancel, onWaitEnd: () => events.push('end') });
    const waiting = b.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
    await jest.advanceTimersByTimeAsync(2_000);
    cancel = true;
    await jest.advanceTimersByTimeAsync(1_000);
    expect((await waiting)[0]?.is_error).toBe(true);
    expect(events).toEqual(['end']);

    const c = agent(table, 'c', { cancelled: () => { throw new Error('host broke'); }, onWaitBegin: () => { throw new Error('shielded'); } });
    const patient = c.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
    await jest.advanceTimersByTimeAsync(2_000);
    table.releaseHolder('a');
    await jest.advanceTimersByTimeAsync(1_000);
    expect((await patient)[0]).toMatchObject({ is_error: false });
  });

  it('refuses unreadable lock paths and bad arguments', async () => {
    const leases = agent(new LeaseTable(), 'a');
    const answers = await leases.executeToolCalls([
      call('1', 'lock_acquire', { paths: ['/srv/../etc'] }),
      call('2', 'lock_acquire', { paths: [] }),
      call('3', 'lock_acquire', { paths: ['/srv/f'], ttl: -1 }),
      call('4', 'lock_release', { paths: 'not a list' }),
    ]);
    expect(answers.map((a) => a.is_error)).toEqual([true, true, true, true]);
  });
});
