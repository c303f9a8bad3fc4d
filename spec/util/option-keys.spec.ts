import { keysOf } from '../../src/util/option-keys.js';

interface Example {
  required: string;
  optional?: number;
}

describe('keysOf', () => {
  it('lists every key of the interface, optional ones too', () => {
    expect(keysOf<Example>({ required: true, optional: true })).toEqual(['required', 'optional']);
  });

  it('does not compile with a key left out or one the interface lacks (checked by tsc)', () => {
    // @ts-expect-error `optional` is missing.
    expect(keysOf<Example>({ required: true })).toEqual(['required']);
    // @ts-expect-error `extra` is no key of Example.
    expect(keysOf<Example>({ required: true, optional: true, extra: true })).toHaveLength(3);
  });
});
