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

// The behaviour both tables share is the contract in spec/support/lease-store-contract.ts,
// run over LeaseTable by lease-table-contract.spec.ts and over Redis in spec/redis/.
describe('LeaseTable', () => {
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

  it('caps the wait at the table\'s default TTL', async () => {
    const table = new LeaseTable({ defaultTtlSeconds: 4 });
    table.acquire('a', ['/srv/f'], 3600);
    const waiting = agent(table, 'b').executeToolCalls([call('1', 'lock_acquire', { paths: ['/srv/f'], wait: 600 })]);
    await jest.advanceTimersByTimeAsync(4_500);
    expect((await waiting)[0]?.content).toBe('refused: /srv/f is held by a (for 4 s); work on something else and try again later');
  });

});
