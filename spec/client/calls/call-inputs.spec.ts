import { CallInputs } from '../../../src/client/calls/call-inputs.js';
import type { InputHooks } from '../../../src/protocol/input-request.js';

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

  it("gives an untied request the one set of hooks running, and the client's own while two sets run", () => {
    const inputs = new CallInputs(own);
    const batch = hooks('batch');
    const first = inputs.open(batch);
    const sameBatch = inputs.open(batch);
    expect(answerer(inputs.hooksFor(undefined))).toBe('batch');
    const other = inputs.open(hooks('other'));
    // Nothing says whose question it is: neither caller is shown the other's.
    expect(answerer(inputs.hooksFor(undefined))).toBe('own');
    inputs.close(first);
    inputs.close(sameBatch);
    expect(answerer(inputs.hooksFor(undefined))).toBe('other');
    inputs.close(other);
    inputs.close(other);
    expect(answerer(inputs.hooksFor(undefined))).toBe('own');
  });
});
