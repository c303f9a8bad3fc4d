import { z } from 'zod';
import { type GrantsStore, type LeaseStore, Leases, type LlmToolCall, McpStoreError, Policy, type PolicyRule, Toolkit } from '../../src/index.js';

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: args } });
const files = () =>
  new Toolkit({ name: 'fs' }).tool('fs_write', { input: z.object({ path: z.string(), content: z.string() }) }, ({ path }) => ({
    content: [{ type: 'text', text: `wrote ${path}` }],
  }));
const down = (operation: string) => new McpStoreError('TestStore', 'nowhere', operation, 'the store is down');

/** A lease store whose every operation fails, some by throwing, some by rejecting. */
const brokenTable: LeaseStore = {
  defaultTtlSeconds: 300,
  acquire: () => Promise.reject(down('acquire')),
  release: () => Promise.reject(down('release')),
  releaseHolder: () => Promise.reject(down('releaseHolder')),
  releaseAll: () => Promise.reject(down('releaseAll')),
  conflict: () => {
    throw down('conflict');
  },
  covers: () => Promise.reject(down('covers')),
};

/** A grant book that knows one grant but cannot read or write the store behind it. */
const brokenBook = (known: PolicyRule[]): GrantsStore => ({
  grants: known,
  current: () => Promise.reject(down('read')),
  add: () => Promise.reject(down('add')),
});

describe('layers over a store that cannot answer fail closed', () => {
  it('Leases grants nothing, runs no mutating call, and says which store failed', async () => {
    const leases = new Leases({ inner: files(), table: brokenTable, agentId: 'a', roots: { fs: '/w', lock: '/w' } });
    const [acquire, waiting, write, release] = await leases.executeToolCalls([
      call('1', 'lock_acquire', { paths: ['f'] }),
      call('2', 'lock_acquire', { paths: ['f'], wait: 60 }),
      call('3', 'fs_write', { path: '/w/f', content: '' }),
      call('4', 'lock_release', {}),
    ]);
    for (const refused of [acquire, waiting]) {
      expect(refused).toMatchObject({
        is_error: true,
        content: 'lock_acquire: the lease table could not be reached, so nothing was acquired (TestStore at nowhere: acquire failed: the store is down); try again later',
      });
    }
    expect(write).toMatchObject({ is_error: true, content: expect.stringMatching(/^fs_write was not run: the lease table could not be read, .*conflict failed/) });
    expect(release).toMatchObject({ is_error: true, content: expect.stringContaining('nothing may have been released') });
  });

  it('Policy asks instead of allowing, and an "always" it cannot write decides its one call only', async () => {
    const grant: PolicyRule = { tool: 'fs_write', decision: 'allow' };
    const told: PolicyRule[][] = [];
    let asked = 0;
    const policy = (action: string) =>
      new Policy({ provider: files(), grantsStore: brokenBook([grant]), onAsk: () => (asked++, { action }), onGrant: (grants) => told.push(grants) });
    expect((await policy('deny-once').executeToolCalls([call('1', 'fs_write', { path: '/w/f', content: '' })]))[0]?.is_error).toBe(true);
    expect(asked).toBe(1);
    expect((await policy('always-allow').executeToolCalls([call('2', 'fs_write', { path: '/w/f', content: '' })]))[0]?.is_error).toBe(false);
    expect((await policy('always-deny').executeToolCalls([call('3', 'fs_write', { path: '/w/f', content: '' })]))[0]?.is_error).toBe(true);
    expect(told).toEqual([]);
    const [headless] = await new Policy({ provider: files(), grantsStore: brokenBook([grant]) }).executeToolCalls([call('4', 'fs_write', { path: '/w/f', content: '' })]);
    expect(headless?.content).toBe(
      'fs_write needs permission, and there is nobody to ask; the shared grants could not be read (TestStore at nowhere: read failed: the store is down)',
    );
  });

  it("Policy still lets its own deny grants deny when the shared book cannot be read", async () => {
    const policy = new Policy({ provider: files(), grants: [{ tool: 'fs_write', decision: 'deny' }], grantsStore: brokenBook([]), onAsk: () => ({ action: 'allow-once' }) });
    const [answer] = await policy.executeToolCalls([call('1', 'fs_write', { path: '/w/f', content: '' })]);
    expect(answer).toMatchObject({ is_error: true, content: 'Denied by an earlier answer (rule for fs_write)' });
  });

  it('refuses a grantsStore that is not a grant book', () => {
    expect(() => new Policy({ provider: files(), grantsStore: { grants: [] } as never })).toThrow('option grantsStore must be a grant book (Grants, RedisGrants)');
  });
});
