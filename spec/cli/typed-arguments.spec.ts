import { UsageError } from '../../src/cli/args.js';
import { typedArguments } from '../../src/cli/typed-arguments.js';

// A schema as a server might send it: every kind of property rxmcp call
// types a key=value pair by.
const schema = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    nothing: { type: 'null' },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object' },
    maybe: { type: ['integer', 'null'] },
    either: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
    mode: { enum: ['fast', 1] },
    loose: {},
  },
};

describe('typedArguments: key=value pairs typed by a tool\'s input schema', () => {
  it('reads each value as its property\'s type', () => {
    expect(
      typedArguments('t', schema, [
        ['text', '42'],
        ['count', '7'],
        ['ratio', '-2.5e3'],
        ['loud', 'false'],
        ['nothing', 'null'],
        ['tags', '["a","b"]'],
        ['options', '{"deep":{"x":1}}'],
      ]),
    ).toEqual({ text: '42', count: 7, ratio: -2500, loud: false, nothing: null, tags: ['a', 'b'], options: { deep: { x: 1 } } });
  });

  it('takes the narrowest reading a property with several types allows', () => {
    expect(typedArguments('t', schema, [['maybe', 'null']])).toEqual({ maybe: null });
    expect(typedArguments('t', schema, [['maybe', '3']])).toEqual({ maybe: 3 });
    expect(typedArguments('t', schema, [['either', 'true']])).toEqual({ either: true });
    expect(typedArguments('t', schema, [['either', 'yes']])).toEqual({ either: 'yes' });
  });

  it('matches an untyped enum by its members, and takes JSON or text where the schema says nothing', () => {
    expect(typedArguments('t', schema, [['mode', '1'], ['loose', '[1]']])).toEqual({ mode: 1, loose: [1] });
    expect(typedArguments('t', schema, [['mode', 'fast'], ['loose', 'plain words']])).toEqual({ mode: 'fast', loose: 'plain words' });
  });

  it.each([
    ['count', '7.5', 'tool "t" wants "count" as integer, got "7.5"'],
    ['count', '', 'tool "t" wants "count" as integer, got ""'],
    ['ratio', '0x1f', 'tool "t" wants "ratio" as number, got "0x1f"'],
    ['ratio', 'Infinity', 'tool "t" wants "ratio" as number, got "Infinity"'],
    ['loud', 'yes', 'tool "t" wants "loud" as boolean, got "yes"'],
    ['tags', '"a"', 'tool "t" wants "tags" as array, got "\\"a\\""'],
    ['options', '[1]', 'tool "t" wants "options" as object, got "[1]"'],
    ['maybe', 'none', 'tool "t" wants "maybe" as integer or null, got "none"'],
  ])('refuses %s=%j with a usage error saying what fits', (key, text, message) => {
    expect(() => typedArguments('t', schema, [[key, text]])).toThrow(new UsageError(message));
  });

  it('refuses a key the schema does not name, listing the ones it does', () => {
    expect(() => typedArguments('get-sum', { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, [['c', '1']])).toThrow(
      new UsageError('tool "get-sum" has no argument "c"; it takes "a", "b"'),
    );
    expect(() => typedArguments('ping', { type: 'object' }, [['x', '1']])).toThrow('it takes none');
  });

  it('takes any key when the schema allows more properties, and keeps __proto__ an ordinary key', () => {
    const args = typedArguments('t', { type: 'object', additionalProperties: true }, [['__proto__', '{"polluted":true}'], ['x', '1']]);
    expect(Object.keys(args)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('looks into no more than 64 nested anyOf branches of a hostile schema, and types by what it found there', () => {
    const nested = (levels: number): Record<string, unknown> => {
      let schema: Record<string, unknown> = { type: 'boolean' };
      for (let i = 0; i < levels; i++) schema = { anyOf: [schema] };
      return schema;
    };
    expect(() => typedArguments('t', { properties: { x: nested(10) } }, [['x', 'yes']])).toThrow('wants "x" as boolean');
    expect(typedArguments('t', { properties: { x: nested(100_000) } }, [['x', 'yes']])).toEqual({ x: 'yes' });
  });
});
