import { ReconnectBackoff } from '../../src/transport/reconnect-backoff.js';

// The pacing of re-opened streams, on a fake clock with the jitter pinned.

describe('the reconnect backoff', () => {
  let random: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    random = jest.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    random.mockRestore();
    jest.useRealTimers();
  });

  /** The waits a backoff hands out for streams that each end `livedMs` after opening, until it gives up. */
  function waits(backoff: ReconnectBackoff, retryMs: number | undefined, livedMs = 0): Array<number | undefined> {
    const seen: Array<number | undefined> = [];
    for (let wait: number | undefined = 0; wait !== undefined; ) {
      backoff.opening();
      jest.advanceTimersByTime(livedMs);
      wait = backoff.next(retryMs);
      seen.push(wait);
    }
    return seen;
  }

  it('raises retry: 0 to 500 ms, doubles it while streams end at once, caps it, and gives up after eight', () => {
    expect(waits(new ReconnectBackoff(8, 30000), 0)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, undefined]);
  });

  it('starts from a second without retry advice, and keeps the floor under a low cap', () => {
    expect(waits(new ReconnectBackoff(4, 30000), undefined)).toEqual([1000, 2000, 4000, undefined]);
    expect(waits(new ReconnectBackoff(3, 100), 0)).toEqual([500, 500, undefined]);
  });

  it('counts afresh after a stream that stayed open ten seconds, whatever came before', () => {
    const backoff = new ReconnectBackoff(3, 30000);
    for (const expected of [500, 1000]) {
      backoff.opening();
      jest.advanceTimersByTime(9999);
      expect(backoff.next(0)).toBe(expected);
    }
    backoff.opening();
    jest.advanceTimersByTime(10000);
    expect(backoff.next(0)).toBe(500);
    expect(backoff.attempts).toBe(0);
  });

  it('takes at most a quarter off the growth for jitter, and never waits less than the server advised', () => {
    random.mockReturnValue(0.999999);
    const backoff = new ReconnectBackoff(8, 30000);
    for (const expected of [4000, 6000, 12000]) {
      backoff.opening();
      expect(backoff.next(4000)).toBeCloseTo(expected, 0);
    }
    expect(new ReconnectBackoff(8, 30000).next(0)).toBe(500);
  });

  it('waits out a retry longer than the cap, but no longer than a timer can hold', () => {
    expect(new ReconnectBackoff(8, 30000).next(60000)).toBe(60000);
    expect(new ReconnectBackoff(8, 30000).next(2 ** 40)).toBe(2 ** 31 - 1);
  });

  it('never re-opens with maxAttempts 0', () => {
    expect(waits(new ReconnectBackoff(0, 30000), 0)).toEqual([undefined]);
  });
});
