import { CallInputs } from '../../src/client/call-inputs.js';
import type { InputHooks } from '../../src/client/input-hooks.js';

// The rule by which a 2025-11-25 server's request finds the hooks that answer
// it; the integration spec (execute-hooks) shows it against real servers.

const hooks = (name: string): InputHooks => ({ onElicit: () => name });
const answerer = (chosen: InputHooks) => (chosen.onElicit as () => string)();

describe('CallInputs', () => {
  const own = hooks('own');

  it("gives the client's own hooks when no call with hooks of its own runs", () => {
    const inputs = new CallInputs(own);
    expect(answerer(inputs.hooksFor(undefined))).toBe('own');
    expect(answerer(inputs.hooksFor(7))).toBe('own');
  });

  it('gives a request the wire ties to a call that call\'s hooks, whichever started last', () => {
    const inputs = new CallInputs(own);
    const first = inputs.open(hooks('first'));
    first.requests.add(1);
    const second = inputs.open(hooks('second'));
    second.requests.add(2);
    expect(answerer(inputs.hooksFor(1))).toBe('first');
    expect(answerer(inputs.hooksFor(2))).toBe('second');
  });

  it("gives a request tied to a call without hooks of its own the client's hooks, even while others run", () => {
    const inputs = new CallInputs(own);
    inputs.open(hooks('with input')).requests.add(1);
    expect(answerer(inputs.hooksFor(3))).toBe('own');
  });

  it('gives an untied request the call that started last and still runs, then the one before it', () => {
    const inputs = new CallInputs(own);
    const first = inputs.open(hooks('first'));
    const second = inputs.open(hooks('second'));
    expect(answerer(inputs.hooksFor(undefined))).toBe('second');
    inputs.close(second);
    expect(answerer(inputs.hooksFor(undefined))).toBe('first');
    inputs.close(first);
    inputs.close(first);
    expect(answerer(inputs.hooksFor(undefined))).toBe('own');
  });
});
