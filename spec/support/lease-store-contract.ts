import { z } from 'zod';
import { type LeaseStore, Leases, type LeasesOptions, type LlmToolCall, Toolkit } from '../../src/index.js';

/** How a contract run makes tables and lets time pass. */
export interface LeaseStoreSubject {
  /**
   * The test's table, empty when the test starts. Called again in one test,
   * it answers the same table: the in-process subject the same instance, a
   * shared store a new connection to the same namespace (as another process
   * would have). Options count on the first call.
   */
  table(options?: { defaultTtlSeconds?: number }): LeaseStore;
  /** A table of another workspace (another namespace), empty. */
  sibling(): LeaseStore;
  /** Lets this much time pass: fake timers for the in-process table, real time for a store with its own clock. */
  advance(ms: number): Promise<void>;
}

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: args } });
const files = () =>
  new Toolkit({ name: 'fs' })
    .tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `wrote ${path}` }] }))
    .tool('fs_read', { input: z.object({ path: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `read ${path}` }] }));

function agent(table: LeaseStore, agentId: string, extra: Partial<LeasesOptions> = {}): Leases {
  return new Leases({ inner: files(), table, agentId, roots: { fs: '/srv', lock: '/srv' }, ...extra });
}

/**
 * The lease table's behaviour, as `Leases` relies on it, for any
 * `LeaseStore`: the in-process table's spec with durations short enough to
 * run in real time (at least a second where `heldForSeconds` must tell, and
 * half a second of slack after each poll `Leases` makes once a second).
 * Run against `LeaseTable` too, so the contract is checked against the reference.
 */
export function leaseStoreContract(subject: () => LeaseStoreSubject): void {
  const advance = (ms: number) => subject().advance(ms);
  const table = (options?: { defaultTtlSeconds?: number }) => subject().table(options);

  describe('the table', () => {
    it('grants all paths or none, and names the holder and how long it has held', async () => {
      const t = table();
      expect(await t.acquire('a', ['/srv/x'])).toBeUndefined();
      await advance(1200);
      expect(await t.acquire('b', ['/srv/y', '/srv/x'])).toEqual({ path: '/srv/x', holder: 'a', heldForSeconds: 1 });
      expect(await t.acquire('b', ['/srv/y'])).toBeUndefined();
      expect(await t.acquire('a', ['/srv/y/inner'])).toEqual({ path: '/srv/y', holder: 'b', heldForSeconds: 0 });
      expect(await t.acquire('c', ['/srv'])).toMatchObject({ holder: 'a' });
      expect(await t.acquire('c', ['/srv/x2', '/srv/yy'])).toBeUndefined();
    });

    it('refreshes a lease its holder acquires again, and expires the rest', async () => {
      const t = table({ defaultTtlSeconds: 2 });
      await t.acquire('a', ['/srv/kept']);
      await t.acquire('a', ['/srv/lapsed']);
      await advance(1200);
      await t.acquire('a', ['/srv/kept']);
      await advance(1200);
      expect(await t.acquire('b', ['/srv/lapsed'])).toBeUndefined();
      expect(await t.acquire('b', ['/srv/kept'])).toMatchObject({ holder: 'a', heldForSeconds: 2 });
    });

    it("releases a holder's own leases only, by path, by holder, or all of this table", async () => {
      const t = table();
      const other = subject().sibling();
      await other.acquire('z', ['/p/2']);
      await t.acquire('a', ['/p/1', '/p/2']);
      await t.acquire('b', ['/p/3']);
      expect(await t.release('a', ['/p/1', '/p/3'])).toEqual(['/p/1']);
      await t.releaseHolder('a');
      expect(await t.acquire('c', ['/p/2'])).toBeUndefined();
      await t.releaseAll();
      expect(await t.acquire('d', ['/p/2', '/p/3'])).toBeUndefined();
      expect(await other.acquire('y', ['/p/2'])).toMatchObject({ holder: 'z' });
    });

    it("answers another holder's lease touching a path, and whether a holder's own covers it", async () => {
      const t = table();
      await t.acquire('a', ['/srv/d']);
      expect(await t.conflict('b', '/srv/d/f')).toEqual(['/srv/d', expect.objectContaining({ holder: 'a' })]);
      expect(await t.conflict('b', '/srv')).toEqual(['/srv/d', expect.objectContaining({ holder: 'a' })]);
      expect(await t.conflict('b', '/srv/d2')).toBeUndefined();
      expect(await t.conflict('a', '/srv/d/f')).toBeUndefined();
      expect([await t.covers('a', '/srv/d/f'), await t.covers('a', '/srv/d'), await t.covers('a', '/srv/d2'), await t.covers('b', '/srv/d/f')]).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });
  });

  describe('Leases over the table', () => {
    it('publishes lock_acquire and lock_release without a prefix', async () => {
      const names = (await agent(table(), 'a').toolsForLlm()).map((t) => t.function.name);
      expect(names).toEqual(['lock_acquire', 'lock_release', 'fs_write', 'fs_read']);
    });

    it('refuses a write to a path another agent holds, even when nothing is strict', async () => {
      const t = table();
      const [a, b] = [agent(t, 'a'), agent(subject().table(), 'b')];
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

    it('in strict mode, refuses an unleased write and lets it through once a directory around it is held', async () => {
      const leases = agent(table(), 'a', { concurrent: () => 2 });
      const [refused] = await leases.executeToolCalls([call('1', 'fs_write', { path: '/srv/work/deep/x', content: '' })]);
      expect(refused?.content).toMatch(/call lock_acquire with \["\/srv\/work\/deep\/x"\] first/);
      await leases.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/work'] })]);
      const [answer] = await leases.executeToolCalls([call('3', 'fs_write', { path: '/srv/work/deep/x', content: '' })]);
      expect(answer?.is_error).toBe(false);
    });

    it('in strict mode, refuses a write whose path cannot be read, whatever it holds', async () => {
      const leases = agent(table(), 'a', { concurrent: () => 2 });
      await leases.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv'] })]);
      const [refused] = await leases.executeToolCalls([call('2', 'fs_write', { path: '/srv/../etc/passwd', content: '' })]);
      expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining('call lock_acquire with ["its paths"] first') });
    });

    it('waits, polling, until the holder lets go, with the wait hooks around it', async () => {
      const t = table();
      const events: string[] = [];
      const a = agent(t, 'a');
      const b = agent(subject().table(), 'b', { onWaitBegin: () => events.push('begin'), onWaitEnd: () => events.push('end') });
      await a.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'] })]);
      const waiting = b.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 30 })]);
      await advance(1500);
      expect(events).toEqual(['begin']);
      await a.executeToolCalls([call('3', 'lock_release', {})]);
      await advance(1400);
      expect((await waiting)[0]).toMatchObject({ is_error: false, content: 'acquired /srv/f for 300 s' });
      expect(events).toEqual(['begin', 'end']);
    });

    it('gives up at the end of the wait with a refusal naming the holder, and never waits for wait: 0', async () => {
      const t = table();
      let waits = 0;
      const b = agent(t, 'b', { onWaitBegin: () => waits++ });
      await t.acquire('a', ['/srv/f']);
      const [now] = await b.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 0 })]);
      expect(now?.content).toBe('refused: /srv/f is held by a (for 0 s); work on something else and try again later');
      expect(waits).toBe(0);
      const later = b.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 2 })]);
      await advance(2800);
      expect((await later)[0]?.content).toBe('refused: /srv/f is held by a (for 2 s); work on something else and try again later');
      expect(waits).toBe(1);
    });

    it("caps the wait at the table's default TTL", async () => {
      const t = table({ defaultTtlSeconds: 2 });
      await t.acquire('a', ['/srv/f'], 3600);
      const waiting = agent(t, 'b').executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 600 })]);
      await advance(2800);
      expect((await waiting)[0]?.content).toBe('refused: /srv/f is held by a (for 2 s); work on something else and try again later');
    });

    it('lets an expired (wedged) holder go', async () => {
      const t = table();
      await t.acquire('wedged', ['/srv/f'], 1);
      const waiting = agent(t, 'b').executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
      await advance(2500);
      expect((await waiting)[0]).toMatchObject({ is_error: false });
    });

    it('ends a wait when the run is cancelled, but keeps waiting when cancelled() throws', async () => {
      const t = table();
      await t.acquire('a', ['/srv/f']);
      let cancel = false;
      const events: string[] = [];
      const b = agent(t, 'b', { cancelled: () => cancel, onWaitEnd: () => events.push('end') });
      const waiting = b.executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
      await advance(1200);
      cancel = true;
      await advance(1500);
      expect((await waiting)[0]?.is_error).toBe(true);
      expect(events).toEqual(['end']);

      const c = agent(t, 'c', { cancelled: () => { throw new Error('host broke'); }, onWaitBegin: () => { throw new Error('shielded'); } });
      const patient = c.executeToolCalls([call('2', 'lock_acquire', { paths: ['/srv/f'], wait: 60 })]);
      await advance(1200);
      await t.releaseHolder('a');
      await advance(1500);
      expect((await patient)[0]).toMatchObject({ is_error: false });
    });

    it('refuses unreadable lock paths and bad arguments', async () => {
      const leases = agent(table(), 'a');
      const answers = await leases.executeToolCalls([
        call('1', 'lock_acquire', { paths: ['/srv/../etc'] }),
        call('2', 'lock_acquire', { paths: [] }),
        call('3', 'lock_acquire', { paths: ['/srv/f'], ttl: -1 }),
        call('4', 'lock_release', { paths: 'not a list' }),
      ]);
      expect(answers.map((a) => a.is_error)).toEqual([true, true, true, true]);
    });
  });
}
