import fc from 'fast-check';
import { flattenContent } from '../../src/tools/flatten.js';
import { boundText } from '../../src/tools/result-budget.js';
import type { ContentBlock } from '../../src/protocol/types.js';

// The cut itself, over generated texts: what a model reads of a result is
// never longer than the budget, is the result itself when it fits, and
// otherwise is a true head and tail of it, a note in between whose count
// adds up, and no surrogate pair broken.

const NOTE = /\n\[(\d+) of (\d+) characters left out\]\n/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Texts rich in pairs: emoji, astral letters, plain ASCII and newlines.
const text = fc.array(fc.constantFrom('😀', '𝒜', 'a', 'é', '\n', '[x]'), { maxLength: 600 }).map((parts) => parts.join(''));
const budget = fc.integer({ min: 100, max: 700 });

function expectCutOf(whole: string, cut: string, maxChars: number): void {
  expect(cut.length).toBeLessThanOrEqual(maxChars);
  if (whole.length <= maxChars) {
    expect(cut).toBe(whole);
    return;
  }
  const match = NOTE.exec(cut) as RegExpExecArray;
  expect(match).not.toBeNull();
  const head = cut.slice(0, match.index);
  const tail = cut.slice(match.index + match[0].length);
  expect(whole.startsWith(head)).toBe(true);
  expect(whole.endsWith(tail)).toBe(true);
  expect(Number(match[2])).toBe(whole.length);
  expect(head.length + Number(match[1]) + tail.length).toBe(whole.length);
  // Every pair whole: the cut may drop one character short of the room, never half a pair.
  expect(LONE_SURROGATE.test(head) || LONE_SURROGATE.test(tail)).toBe(false);
  // The room is what is left beside the widest note the count could need (all of it left out), so a
  // note whose count has fewer digits than the total leaves that many characters unused.
  const widest = `\n[${whole.length} of ${whole.length} characters left out]\n`.length;
  expect(head.length + tail.length).toBeGreaterThanOrEqual(maxChars - widest - 2);
}

describe('the result budget', () => {
  it('cuts any text to its head and tail within the budget, without splitting a surrogate pair', () => {
    fc.assert(
      fc.property(text, budget, (whole, maxChars) => {
        expectCutOf(whole, boundText(whole, maxChars), maxChars);
      }),
      // Found by a CI run: a pair cut at both ends, and a count (936) a digit shorter than the total (1000).
      { numRuns: 500, examples: [['😀'.repeat(500), 102]] },
    );
  });

  it('cuts content blocks as it would cut the text they flatten to, without joining them all first', () => {
    const block = fc.oneof(
      text.map((value): ContentBlock => ({ type: 'text', text: value })),
      fc.constant<ContentBlock>({ type: 'image', data: 'A'.repeat(40), mimeType: 'image/png' }),
      fc.constant<ContentBlock>({ type: 'resource_link', uri: 'file:///a.txt', name: 'a' }),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 30 }), budget, (blocks, maxChars) => {
        const whole = flattenContent(blocks);
        const cut = flattenContent(blocks, maxChars);
        expectCutOf(whole, cut, maxChars);
        expect(cut).toBe(boundText(whole, maxChars));
      }),
      { numRuns: 500 },
    );
  });
});
