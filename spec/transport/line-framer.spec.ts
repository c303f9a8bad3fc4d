import fc from 'fast-check';
import { LineFramer } from '../../src/index.js';

const encoder = new TextEncoder();

/** Feeds `bytes` to a framer cut at the given offsets, and collects the lines. */
function frame(bytes: Uint8Array, cuts: number[]): string[] {
  return frameAs(bytes, cuts, (piece) => piece);
}

/** The same, each chunk handed over as `wrap` makes it (a Node Buffer takes another decoder). */
function frameAs(bytes: Uint8Array, cuts: number[], wrap: (piece: Uint8Array) => Uint8Array): string[] {
  const framer = new LineFramer();
  const lines: string[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    lines.push(...framer.push(wrap(bytes.subarray(start, cut))));
    start = cut;
  }
  lines.push(...framer.push(wrap(bytes.subarray(start))));
  lines.push(...framer.end());
  return lines;
}

describe('LineFramer', () => {
  it('gives back the same lines however the bytes are chunked, with LF or CRLF and any UTF-8', () => {
    const line = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => !/[\r\n]/.test(s));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (lines, eol, rawCuts) => {
          const bytes = encoder.encode(lines.map((l) => l + eol).join(''));
          const cuts = rawCuts.map((n) => n % (bytes.length + 1));
          expect(frame(bytes, cuts)).toEqual(lines);
          expect(frameAs(bytes, cuts, (piece) => Buffer.from(piece))).toEqual(lines);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits a multi-byte character across chunks without mangling it', () => {
    const bytes = encoder.encode('日本語 ✓ 🎉\n');
    const lines = frame(bytes, [1, 2, 5, 8, 13, 14, 15]);
    expect(lines).toEqual(['日本語 ✓ 🎉']);
  });

  it('counts a line\'s length in bytes, finished or not', () => {
    expect(() => new LineFramer(5).push(encoder.encode('日本\n'))).toThrow('a line longer than 5 bytes');
    expect(() => new LineFramer(5).push(encoder.encode('123456'))).toThrow('a line longer than 5 bytes');
    expect(new LineFramer(5).push(encoder.encode('12345\n'))).toEqual(['12345']);
  });

  it('skips blank lines and returns a last line that had no newline at end()', () => {
    const framer = new LineFramer();
    expect(framer.push(encoder.encode('\n\r\none\n\ntwo'))).toEqual(['one']);
    expect(framer.end()).toEqual(['two']);
  });

  it('cuts a line past the limit to its first bytes when told to, and drops the rest up to its newline', () => {
    const ascii = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(ascii, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 20 }), fc.array(fc.nat(), { maxLength: 12 }), (lines, limit, rawCuts) => {
        const bytes = encoder.encode(lines.map((l) => l + '\n').join(''));
        const framer = new LineFramer(limit, 'cut');
        const seen: string[] = [];
        let start = 0;
        for (const cut of [...new Set(rawCuts.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b)) {
          seen.push(...framer.push(bytes.subarray(start, cut)));
          start = cut;
        }
        seen.push(...framer.push(bytes.subarray(start)), ...framer.end());
        expect(seen).toEqual(lines.map((l) => l.slice(0, limit)));
      }),
      { numRuns: 300 },
    );
  });

  it('holds no more than the limit of an endless line', () => {
    const framer = new LineFramer(4, 'cut');
    expect(framer.push(encoder.encode('abcdefgh'))).toEqual(['abcd']);
    for (let i = 0; i < 1000; i++) expect(framer.push(encoder.encode('more and more'))).toEqual([]);
    expect(framer.push(encoder.encode('tail\nnext\n'))).toEqual(['next']);
    expect(framer.end()).toEqual([]);
  });

  it('refuses a line past the limit in bytes, and only such a line, however the chunks fall', () => {
    // Wide characters make a line's bytes outnumber its characters; limits
    // near the lines' sizes put whole chunks on either side of the limit.
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '日', '🎉'), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 60 }), fc.array(fc.nat(), { maxLength: 12 }), (lines, limit, rawCuts) => {
        const bytes = encoder.encode(lines.map((l) => l + '\n').join(''));
        const tooLong = lines.some((l) => encoder.encode(l).length > limit);
        for (const wrap of [(piece: Uint8Array) => piece, (piece: Uint8Array) => Buffer.from(piece)]) {
          const framer = new LineFramer(limit);
          const seen: string[] = [];
          let refused = false;
          let start = 0;
          try {
            for (const cut of [...new Set(rawCuts.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b)) {
              seen.push(...framer.push(wrap(bytes.subarray(start, cut))));
              start = cut;
            }
            seen.push(...framer.push(wrap(bytes.subarray(start))), ...framer.end());
          } catch (error) {
            expect(String(error)).toContain(`a line longer than ${limit} bytes`);
            refused = true;
          }
          expect(refused).toBe(tooLong);
          // Until the refusal, every line came out whole and in order.
          expect(seen).toEqual(lines.slice(0, seen.length));
          if (!tooLong) expect(seen).toEqual(lines);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads a chunk of many lines whole, with broken UTF-8 replaced line by line as before', () => {
    // A character cut short just before a newline stays one replacement
    // character in its own line, and the next line starts clean.
    const bytes = new Uint8Array([...encoder.encode('{"a":1}\r\n'), 0xe6, 0x97, 0x0a, ...encoder.encode('ok\n'), 0xf0, 0x9f, 0x8e, 0x0d, 0x0a, 0x0a]);
    const expected = ['{"a":1}', '\ufffd', 'ok', '\ufffd'];
    expect(new LineFramer().push(bytes)).toEqual(expected);
    expect(new LineFramer().push(Buffer.from(bytes))).toEqual(expected);
  });
});
