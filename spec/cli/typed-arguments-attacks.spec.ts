import { UsageError } from '../../src/cli/args.js';
import { typedArguments } from '../../src/cli/typed-arguments.js';

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
