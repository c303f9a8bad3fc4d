import { LightAbort, toAbortSignal } from '../../src/util/light-abort';
import { pause } from '../../src/util/pause';

describe('LightAbort', () => {
  it('runs each listener once, in order, with the reason set, and none added after the abort', () => {
    const abort = new LightAbort();
    const heard: string[] = [];
    abort.addEventListener('abort', () => heard.push(`first ${String(abort.reason)}`));
    abort.addEventListener('abort', () => heard.push('second'));
    abort.abort('why');
    abort.abort('again');
    abort.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual(['first why', 'second']);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe('why');
  });

  it('forgets a removed listener, and only that one', () => {
    const abort = new LightAbort();
    const heard: string[] = [];
    const gone = () => heard.push('gone');
    abort.addEventListener('abort', gone);
    abort.addEventListener('abort', () => heard.push('kept'));
    abort.removeEventListener('abort', gone);
    abort.removeEventListener('abort', () => heard.push('never added'));
    abort.abort(new Error('stop'));
    expect(heard).toEqual(['kept']);
  });

  it('gives a real AbortSignal that follows it, whether asked for before or after the abort', () => {
    const early = new LightAbort();
    const signal = toAbortSignal(early);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    early.abort('early');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('early');

    const late = new LightAbort();
    late.abort('late');
    expect(toAbortSignal(late).reason).toBe('late');

    const native = new AbortController().signal;
    expect(toAbortSignal(native)).toBe(native);
  });

  it('ends a pause with its reason', async () => {
    const abort = new LightAbort();
    const paused = pause(60_000, abort);
    abort.abort(new Error('cancelled'));
    await expect(paused).rejects.toThrow('cancelled');
  });
});
