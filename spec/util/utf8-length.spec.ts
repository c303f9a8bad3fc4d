import { longerInUtf8, utf8Length } from '../../src/util/utf8-length.js';

const encoded = (text: string): number => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it.each([
    ['', 'nothing'],
    ['plain ascii', 'one byte a character'],
    ['é ß ñ', 'two-byte characters'],
    ['✓ € 中文', 'three-byte characters'],
    ['😀 𝄞', 'surrogate pairs, four bytes each'],
    ['a\ud800b', 'a lone high surrogate, written as U+FFFD'],
    ['\udc00 end \ud83d', 'lone surrogates at either end'],
  ])('counts %p as a TextEncoder writes it (%s)', (text) => {
    expect(utf8Length(text)).toBe(encoded(text));
  });

  it('counts any range of a text as a TextEncoder writes that range', () => {
    const text = 'ab✓😀é\u0000z';
    for (let start = 0; start <= text.length; start++) {
      for (let end = start; end <= text.length; end++) expect(utf8Length(text, start, end)).toBe(encoded(text.slice(start, end)));
    }
  });

  it('agrees with a TextEncoder on random text of every width', () => {
    const alphabet = ['a', '~', 'é', 'ߺ', '✓', '\uffff', '😀', '\ud800', '\udfff'];
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let i = 0; i < 40; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
      expect(utf8Length(text)).toBe(encoded(text));
    }
  });
});

describe('longerInUtf8', () => {
  it('tells a text over the limit in bytes though within it in characters', () => {
    expect(longerInUtf8('✓'.repeat(10), 29)).toBe(true);
    expect(longerInUtf8('✓'.repeat(10), 30)).toBe(false);
    expect(longerInUtf8('x'.repeat(31), 30)).toBe(true);
    expect(longerInUtf8('anything', Infinity)).toBe(false);
  });
});
