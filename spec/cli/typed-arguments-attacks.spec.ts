import { UsageError } from '../../src/cli/args.js';
import { checkArguments, checkPromptArguments, typedArguments } from '../../src/cli/typed-arguments.js';

// Holes found attacking issue 30's key=value typing (branch attack30).

describe('typedArguments with a hostile schema', () => {
  it('lists a bounded number of argument names when a key is unknown, however many the schema has', () => {
    const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, n) => [`p${n}${'x'.repeat(50)}`, { type: 'string' }]));
    let error: unknown;
    try {
      typedArguments('t', { type: 'object', properties }, [['nope', '1']]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message.length).toBeLessThan(4000);
    expect((error as Error).message).toContain('and 99980 more');
  });

  it('reads a property of 500,000 anyOf branches and an enum member nested 100,000 levels without overflowing the stack', () => {
    const anyOf = Array.from({ length: 500_000 }, () => ({}));
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    const schema = { type: 'object', properties: { text: { anyOf: [...anyOf, { type: 'string' }] }, mode: { enum: [deep, 'x'] } } };
    expect(typedArguments('t', schema, [['mode', 'x'], ['text', '5']])).toEqual({ mode: 'x', text: 5 });
    expect(() => checkArguments('t', schema, { text: 'hi' })).not.toThrow();
  });

  it('keeps __proto__ and constructor keys as arguments and pollutes nothing', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object"},"constructor":{"type":"number"}}}') as unknown;
    const args = typedArguments('t', schema, [
      ['__proto__', '{"polluted":true}'],
      ['constructor', '3'],
    ]);
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(args)).toBe('{"__proto__":{"polluted":true},"constructor":3}');
  });
});

describe('checkArguments and checkPromptArguments with a hostile listing', () => {
  const messageOf = (check: () => void): string => {
    try {
      check();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error('the check passed');
  };

  it('names a bounded number of missing arguments, each cut short, however many a schema requires', () => {
    const required = Array.from({ length: 100_000 }, (_, n) => `r${n}${'y'.repeat(500)}`);
    const message = messageOf(() => checkArguments('t', { type: 'object', required, properties: {} }, {}));
    expect(message.length).toBeLessThan(4000);
    expect(message).toContain('and 99980 more, which were not given');
  });

  it('reads required names that are not strings, and a __proto__ property, as nothing to demand', () => {
    const schema = JSON.parse('{"type":"object","required":[1,null,{"x":1}],"properties":{"__proto__":{"type":"number"}}}') as unknown;
    expect(() => checkArguments('t', schema, {})).not.toThrow();
    expect(() => checkArguments('t', schema, JSON.parse('{"__proto__":"x"}') as Record<string, unknown>)).toThrow('wants "__proto__" as number, got "x"');
  });

  it('quotes a hostile prompt argument name with its escapes, and bounds a value shown back', () => {
    const message = messageOf(() => checkPromptArguments('p', [{ name: 'a\u001b]0;x\u0007', required: true }], {}));
    expect(message).toBe('prompt "p" needs argument "a\\u001b]0;x\\u0007", which was not given');
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(messageOf(() => checkPromptArguments('p', [{ name: 'a' }], { a: deep })).length).toBeLessThan(300);
  });
});
