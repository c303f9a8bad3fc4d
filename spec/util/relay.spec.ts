import { Relay } from '../../src/util/relay';

describe('Relay', () => {
  it('hands each value to the subscribers present when it is sent, and stops for one that unsubscribed', () => {
    const relay = new Relay<number>();
    const seen: string[] = [];
    const a = relay.subscribe((value) => seen.push(`a${value}`));
    relay.next(1);
    // Joining during a delivery takes effect from the next value, as with a Subject.
    const joiner = relay.subscribe((value) => {
      seen.push(`b${value}`);
      if (value === 2) relay.subscribe((late) => seen.push(`c${late}`));
    });
    relay.next(2);
    a.unsubscribe();
    relay.next(3);
    joiner.unsubscribe();
    expect(seen).toEqual(['a1', 'a2', 'b2', 'b3', 'c3']);
  });

  it('ends current and later subscribers with the error, and sends nothing after it', () => {
    const relay = new Relay<number>();
    const errors: unknown[] = [];
    const values: number[] = [];
    relay.subscribe({ next: (value) => values.push(value), error: (error: unknown) => errors.push(error) });
    const failure = new Error('gone');
    relay.error(failure);
    relay.next(1);
    relay.complete();
    relay.asObservable().subscribe({ next: (value) => values.push(value), error: (error: unknown) => errors.push(error) });
    expect(values).toEqual([]);
    expect(errors).toEqual([failure, failure]);
  });

  it('completes current and later subscribers', () => {
    const relay = new Relay<number>();
    let completed = 0;
    relay.subscribe({ complete: () => completed++ });
    relay.complete();
    relay.subscribe({ complete: () => completed++ });
    expect(completed).toBe(2);
  });
});
