import { config, firstValueFrom, NEVER, Subscriber, type TeardownLogic } from 'rxjs';
import { BodyCall, type CallHost } from '../../../src/client/calls/call-guard.js';
import { Deadlines } from '../../../src/util/deadlines.js';
import type { Session } from '../../../src/client/session.js';
import { McpTimeoutError } from '../../../src/errors/call-errors.js';

// A client as far as a bounded call sees one: its session known, one clock.
function host(): CallHost {
  return { closing: false, session: { description: { capabilities: { tools: {} } } } as unknown as Session, probing$: NEVER, deadlines: new Deadlines() };
}

// A call whose body answers `value` at once, or never when `value` is undefined.
function call(on: CallHost, value: string | undefined, timeoutMs: number, teardown: () => void = () => undefined): BodyCall<string> {
  return new BodyCall<string>(on, 'tools/call', { timeoutMs }, (_session, subscriber): TeardownLogic => {
    if (value !== undefined) {
      subscriber.next(value);
      subscriber.complete();
    }
    return teardown;
  });
}

describe('bounded calls', () => {
  afterEach(() => {
    config.useDeprecatedSynchronousErrorHandling = false;
    jest.useRealTimers();
  });

  it('answers a Subscriber (firstValueFrom) and a plain observer alike, and ends each', async () => {
    const ended = jest.fn();
    const answering = call(host(), 'hi', 1000, ended);
    await expect(firstValueFrom(answering)).resolves.toBe('hi');
    const seen: string[] = [];
    answering.subscribe({ next: (value) => seen.push(value), complete: () => seen.push('done') });
    expect(seen).toEqual(['hi', 'done']);
    expect(ended).toHaveBeenCalledTimes(2);
  });

  it('hands a body that throws to the subscriber as its error, however it subscribed', async () => {
    const throwing = new BodyCall<string>(host(), 'tools/call', { timeoutMs: 1000 }, () => {
      throw new Error('broken body');
    });
    await expect(firstValueFrom(throwing)).rejects.toThrow('broken body');
    const error = jest.fn();
    throwing.subscribe({ error });
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ message: 'broken body' }));
  });

  it('ends the call and drops its deadline when a Subscriber unsubscribes first', () => {
    jest.useFakeTimers();
    const ended = jest.fn();
    const error = jest.fn();
    const subscriber = new Subscriber<string>({ next: () => undefined, error, complete: () => undefined });
    const subscription = call(host(), undefined, 100, ended).subscribe(subscriber);
    expect(subscription).toBe(subscriber);
    subscription.unsubscribe();
    expect(ended).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1000);
    expect(error).not.toHaveBeenCalled();
  });

  it('ends the call along with what a Subscriber held before it, and at once when the body already ended the Subscriber', () => {
    const held = jest.fn();
    const ended = jest.fn();
    const subscriber = new Subscriber<string>({ next: () => undefined, error: () => undefined, complete: () => undefined });
    subscriber.add(held);
    call(host(), undefined, 1000, ended).subscribe(subscriber);
    expect(ended).not.toHaveBeenCalled();
    subscriber.unsubscribe();
    expect([held.mock.calls.length, ended.mock.calls.length]).toEqual([1, 1]);

    // The body answered (so the subscriber is closed) before its teardown was handed back: it runs then.
    const late = jest.fn();
    const answered = new Subscriber<string>({ next: () => undefined, error: () => undefined, complete: () => undefined });
    call(host(), 'hi', 1000, late).subscribe(answered);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('runs out of budget with McpTimeoutError, however it subscribed', () => {
    jest.useFakeTimers();
    const on = host();
    const errors: unknown[] = [];
    call(on, undefined, 100).subscribe(new Subscriber<string>({ next: () => undefined, error: (error: unknown) => errors.push(error), complete: () => undefined }));
    call(on, undefined, 100).subscribe({ error: (error: unknown) => errors.push(error) });
    jest.advanceTimersByTime(100);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toBeInstanceOf(McpTimeoutError);
  });

  it('subscribes as RxJS does while its deprecated synchronous error handling is on', async () => {
    config.useDeprecatedSynchronousErrorHandling = true;
    await expect(firstValueFrom(call(host(), 'hi', 1000))).resolves.toBe('hi');
    const throwing = new BodyCall<string>(host(), 'tools/call', { timeoutMs: 1000 }, () => {
      throw new Error('broken body');
    });
    // RxJS's own way in that mode: an error nobody handles is thrown where the subscription was made.
    expect(() => throwing.subscribe({})).toThrow('broken body');
  });
});
