import { UsageError } from '../../src/cli/args.js';
import { checkArguments, checkPromptArguments, typedArguments } from '../../src/cli/typed-arguments.js';

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

describe('checkArguments: arguments against what a tool\'s input schema proves', () => {
  const sum = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, note: {} }, required: ['a', 'b'] };

  it('passes arguments that have every required name and fitting types, an integer for a number, any value where no type is named', () => {
    expect(() => checkArguments('get-sum', sum, { a: 1, b: 2.5, note: [1] })).not.toThrow();
  });

  it('names every missing argument with its type', () => {
    expect(() => checkArguments('get-sum', sum, { a: 1 })).toThrow(new UsageError('tool "get-sum" needs argument "b" (number), which was not given'));
    expect(() => checkArguments('get-sum', { ...sum, required: ['a', 'note'] }, {})).toThrow('needs arguments "a" (number), "note", which were not given');
  });

  it('names a value of a type the property does not allow, and a fraction where an integer is wanted', () => {
    expect(() => checkArguments('get-sum', sum, { a: '1', b: 2 })).toThrow(new UsageError('tool "get-sum" wants "a" as number, got "1"'));
    expect(() => checkArguments('t', schema, { count: 1.5 })).toThrow('wants "count" as integer, got 1.5');
    expect(() => checkArguments('t', schema, { maybe: null, either: 'x', loud: true })).not.toThrow();
  });
});

describe('checkPromptArguments: arguments against what a prompt declares', () => {
  const declared = [{ name: 'city', required: true }, { name: 'state' }];

  it('passes the required arguments, with or without the optional ones', () => {
    expect(() => checkPromptArguments('weather', declared, { city: 'Lyon' })).not.toThrow();
    expect(() => checkPromptArguments('weather', declared, { city: 'Lyon', state: 'Rhône' })).not.toThrow();
  });

  it.each([
    [{ state: 'IDF' }, 'prompt "weather" needs argument "city", which was not given'],
    [{ city: 'Paris', country: 'FR' }, 'prompt "weather" has no argument "country"; it takes "city", "state"'],
    [{ city: true }, 'prompt "weather" wants "city" as a string (prompts take text), got true'],
  ])('refuses %j', (args, message) => {
    expect(() => checkPromptArguments('weather', declared, args)).toThrow(new UsageError(message));
  });
});
