import { Deadlines } from '../../src/client/deadlines.js';

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
});
