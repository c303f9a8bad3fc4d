import fc from 'fast-check';
import { type Deadline, Deadlines } from '../../src/util/deadlines.js';

/** A deadline that counts its expiries. */
function entry(): Deadline & { expired: number } {
  const made = { at: 0, newer: undefined, older: undefined, expired: 0, expire: () => void made.expired++ };
  return made;
}

const DAY = 24 * 60 * 60 * 1000;

describe('call deadlines', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('expires a deadline after its budget', () => {
    const deadlines = new Deadlines();
    const expired = jest.fn();
    deadlines.add(100, expired);
    jest.advanceTimersByTime(99);
    expect(expired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not count the time the clock stood still', () => {
    const deadlines = new Deadlines();
    const expired = jest.fn();
    deadlines.add(100, expired);
    jest.advanceTimersByTime(60);
    deadlines.pause();
    jest.advanceTimersByTime(10_000);
    expect(expired).not.toHaveBeenCalled();
    deadlines.resume();
    jest.advanceTimersByTime(39);
    expect(expired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('starts the budget of a deadline added while paused when the clock resumes', () => {
    const deadlines = new Deadlines();
    const expired = jest.fn();
    deadlines.pause();
    deadlines.add(50, expired);
    jest.advanceTimersByTime(1000);
    deadlines.resume();
    jest.advanceTimersByTime(49);
    expect(expired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('keeps time for a client older than a month (past what V8 keeps as a small integer)', () => {
    const deadlines = new Deadlines();
    const early = jest.fn();
    deadlines.add(40 * DAY, early);
    jest.advanceTimersByTime(30 * DAY);
    const late = jest.fn();
    deadlines.add(100, late);
    jest.advanceTimersByTime(99);
    expect(late).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(late).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(10 * DAY - 101);
    expect(early).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(early).toHaveBeenCalledTimes(1);
  });

  it('takes a second pause or resume as no change', () => {
    const deadlines = new Deadlines();
    const expired = jest.fn();
    deadlines.add(100, expired);
    deadlines.resume();
    deadlines.pause();
    jest.advanceTimersByTime(50);
    deadlines.pause();
    jest.advanceTimersByTime(50);
    deadlines.resume();
    deadlines.resume();
    jest.advanceTimersByTime(99);
    expect(expired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('expires exactly the deadlines still tracked whose time came, however they were tracked, dropped and tracked again', () => {
    // A model: when each deadline runs out, or undefined while it is not tracked.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('track' as const), which: fc.nat(3), ms: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('untrack' as const), which: fc.nat(3) }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 60 }) }),
      fc.constant({ kind: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        jest.setSystemTime(0);
        const deadlines = new Deadlines();
        const entries = Array.from({ length: 4 }, entry);
        const due: Array<number | undefined> = entries.map(() => undefined);
        const expected = entries.map(() => 0);
        let now = 0;
        for (const step of ops) {
          if (step.kind === 'track') {
            deadlines.track(entries[step.which] as Deadline, step.ms);
            due[step.which] = now + step.ms;
          } else if (step.kind === 'untrack') {
            deadlines.untrack(entries[step.which] as Deadline);
            due[step.which] = undefined;
          } else if (step.kind === 'clear') {
            deadlines.clear();
            due.fill(undefined);
          } else {
            now += step.ms;
            jest.advanceTimersByTime(step.ms);
            due.forEach((at, i) => {
              if (at !== undefined && at <= now) {
                expected[i] = (expected[i] as number) + 1;
                due[i] = undefined;
              }
            });
          }
          expect(entries.map((e) => e.expired)).toEqual(expected);
        }
        deadlines.clear();
      }),
      { numRuns: 300 },
    );
  });

  it('does not expire a deadline that an earlier expiry dropped, and runs one that an expiry tracked', () => {
    const deadlines = new Deadlines();
    const second = entry();
    const later = entry();
    const first: Deadline = {
      at: 0,
      newer: undefined,
      older: undefined,
      expire: () => {
        deadlines.untrack(second);
        deadlines.track(later, 10);
      },
    };
    deadlines.track(first, 100);
    deadlines.track(second, 100);
    jest.advanceTimersByTime(100);
    expect(second.expired).toBe(0);
    expect(later.expired).toBe(0);
    jest.advanceTimersByTime(10);
    expect(later.expired).toBe(1);
  });

  it('still runs out the other deadlines, due now and later, when one expiry throws', () => {
    const deadlines = new Deadlines();
    const throwing = { ...entry(), expire: () => { throw new Error('no observer'); } };
    const [due, later] = [entry(), entry()];
    deadlines.track(throwing, 100);
    deadlines.track(due, 100);
    deadlines.track(later, 200);
    expect(() => jest.advanceTimersByTime(100)).toThrow('no observer');
    // The next turn: a timer of no delay waits a millisecond, under Node as under fake timers.
    jest.advanceTimersByTime(1);
    expect(due.expired).toBe(1);
    expect(later.expired).toBe(0);
    jest.advanceTimersByTime(99);
    expect(later.expired).toBe(1);
  });

  it('tracks a deadline afresh after everything was cleared', () => {
    const deadlines = new Deadlines();
    const again = entry();
    deadlines.track(again, 10);
    deadlines.clear();
    jest.advanceTimersByTime(20);
    expect(again.expired).toBe(0);
    deadlines.track(again, 10);
    jest.advanceTimersByTime(10);
    expect(again.expired).toBe(1);
  });
});
