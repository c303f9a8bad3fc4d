import fc from 'fast-check';
import { terminalLine, terminalMessage, terminalText } from '../../src/cli/terminal-text.js';
import { RAW_IN_BLOCK, RAW_IN_LINE, unsafeString } from '../support/unsafe-text.js';

// Reads the visible escapes back, to show that nothing was lost.
const unescape = (text: string): string =>
  text.replace(/\\(?:x([0-9a-f]{2})|u\{([0-9a-f]+)\}|u([0-9a-f]{4})|([nrt]))/g, (_, x?: string, braced?: string, u?: string, short?: string) =>
    short !== undefined ? ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[short] as string : String.fromCodePoint(parseInt((x ?? braced ?? u) as string, 16)),
  );

describe('terminalText and terminalLine, the terminal sanitiser', () => {
  it('shows OSC 52, OSC 0, OSC 8, cursor movement, C1 CSI and bidi overrides as visible escapes, and leaves ordinary text alone', () => {
    const hostile = 'a\x1b]52;c;cHduZWQ=\x07b\x1b]0;owned\x07c\x1b]8;;https://evil.example/\x1b\\d\x1b[2A\x1b[2Ke\u009b31mf\u202eg\u2066h\u200bi\ufeffj\u{e0041}k\x7fl\udc00';
    expect(terminalText(hostile)).toBe(
      String.raw`a\x1b]52;c;cHduZWQ=\x07b\x1b]0;owned\x07c\x1b]8;;https://evil.example/\x1b\d\x1b[2A\x1b[2Ke\x9b31mf\u202eg\u2066h\u200bi\ufeffj\u{e0041}k\x7fl\udc00`,
    );
    for (const text of ['plain', 'échö ✓', '中文', '😀 👍🏽', 'C:\\path\\x1b']) expect(terminalLine(text)).toBe(text);
  });

  it('keeps newlines, tabs and CRLF in a block, but escapes a CR that could rewrite the line', () => {
    expect(terminalText('one\ttwo\r\nthree\nsafe\rfake')).toBe('one\ttwo\r\nthree\nsafe\\rfake');
  });

  it('keeps a line on one line', () => {
    expect(terminalLine('name\nforged line\r\tx')).toBe('name\\nforged line\\r\\tx');
    expect(terminalLine('tag\u{e0000}block\u{e007f}')).toBe('tag\\u{e0000}block\\u{e007f}');
  });

  it('cuts an error message after 2,000 characters, saying how many were left out, and never inside a surrogate pair', () => {
    expect(terminalMessage('short\x1b]0;t\x07')).toBe('short\\x1b]0;t\\x07');
    expect(terminalMessage('e'.repeat(1_000_000))).toBe(`${'e'.repeat(2000)}… (998000 more characters)`);
    const emoji = `${'e'.repeat(1999)}\u{1f600}tail`;
    expect(terminalMessage(emoji)).toBe(`${'e'.repeat(1999)}… (6 more characters)`);
  });

  it('lets no raw control, format character or lone surrogate through, and loses nothing (property)', () => {
    fc.assert(
      fc.property(unsafeString, (text) => {
        const block = terminalText(text);
        const line = terminalLine(text);
        expect(block).not.toMatch(RAW_IN_BLOCK);
        expect(line).not.toMatch(RAW_IN_LINE);
        // Backslashes are not escaped, so only text without them reads back for sure.
        if (!text.includes('\\')) expect([unescape(block), unescape(line)]).toEqual([text, text]);
      }),
      { numRuns: 3000 },
    );
  });
});
