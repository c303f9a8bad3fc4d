import { argumentsTooLarge } from '../../src/gateway/argument-bounds.js';

describe('argumentsTooLarge', () => {
  it('lets ordinary arguments through', () => {
    expect(argumentsTooLarge({ path: '/a', lines: [1, 2, 3], options: { deep: { er: true } } })).toBeUndefined();
  });

  it('refuses nesting past 64 levels, however deep, without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(argumentsTooLarge({ deep })).toContain('nest deeper than 64 levels');
  });

  it('refuses more than 100,000 values', () => {
    expect(argumentsTooLarge({ many: new Array(100_001).fill(0) })).toContain('more than 100000 values');
  });
});
