import fc from 'fast-check';
import { jsonText } from '../../src/cli/json-text.js';
import { unsafeCharacter } from '../support/unsafe-text.js';

describe('jsonText, the JSON writer of --json', () => {
  const deep = (levels: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = wrap(value);
    return value;
  };
  const depthOf = (value: unknown): number => {
    let depth = 0;
    for (let node = value; typeof node === 'object' && node !== null; node = Array.isArray(node) ? node[0] : (node as { a: unknown }).a) depth++;
    return depth;
  };

  it('writes what JSON.stringify writes, but escapes the DEL, C1, bidi and invisible characters it leaves raw, in keys and values', () => {
    const value = { a: [1, 'two', { b: null, c: [], d: {} }, undefined, true], skipped: undefined, n: -0, nan: NaN, '': 'é中😀' };
    expect(jsonText(value)).toBe(JSON.stringify(value, null, 2));
    expect(jsonText(value, 0)).toBe(JSON.stringify(value));
    const text = jsonText({ 'k\u202e': 'v\x7f\u0085\u009b\u200b\u2028\ufeff\u{e0041}\x1b\udc00' }, 0);
    expect(text).toBe(String.raw`{"k\u202e":"v\u007f\u0085\u009b\u200b\u2028\ufeff\udb40\udc41\u001b\udc00"}`);
  });

  it('writes a value nested 100,000 levels deep whole, where JSON.stringify throws', () => {
    for (const value of [deep(100000, 1, (inner) => ({ a: inner })), deep(100000, 'leaf', (inner) => [inner])]) {
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      for (const indent of [2, 0]) {
        const text = jsonText(value, indent);
        // Indentation stops growing past 64 levels: the text stays linear in the depth.
        expect(text.length).toBeLessThan(100000 * 8 + 64 * 64 * 4);
        expect(depthOf(JSON.parse(text))).toBe(100000);
      }
    }
  });

  const jsonValues = fc.jsonValue({ stringUnit: unsafeCharacter });

  it('parses back to the value it was given, holds no raw C1, bidi or control character, and is JSON.stringify where that has nothing raw (property)', () => {
    fc.assert(
      fc.property(fc.oneof(jsonValues, fc.jsonValue()), fc.constantFrom(0, 2, 4), (value, indent) => {
        const text = jsonText(value, indent);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\p{Cf}\u2028\u2029]|\p{Cs}/u);
        const stringified = JSON.stringify(value, null, indent);
        if (!/[\x7f-\x9f\p{Cf}\u2028\u2029]/u.test(stringified)) expect(text).toBe(stringified);
      }),
      { numRuns: 1500 },
    );
  });
});
