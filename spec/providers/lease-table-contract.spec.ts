import { LeaseTable } from '../../src/index.js';
import { leaseStoreContract } from '../support/lease-store-contract.js';

// The contract every lease store keeps, checked against the reference: the
// in-process table, on fake timers.
describe('LeaseTable keeps the lease-store contract', () => {
  let current: LeaseTable | undefined;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
    current = undefined;
  });
  afterEach(() => jest.useRealTimers());

  leaseStoreContract(() => ({
    table: (options) => (current ??= new LeaseTable(options)),
    sibling: () => new LeaseTable(),
    advance: (ms) => jest.advanceTimersByTimeAsync(ms),
  }));
});
