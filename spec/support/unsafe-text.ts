import fc from 'fast-check';

/**
 * Matches what must never reach a terminal raw: C0 (but newline, tab and the
 * CR of a CRLF, which a block keeps), DEL, C1, bidi and invisible formatting
 * characters, the line and paragraph separators, tag characters and lone
 * surrogates. Written out by hand rather than taken from the code under test.
 */
export const RAW_IN_BLOCK =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]|\r(?!\n)|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
/** The same for a line, which keeps no newline, CR or tab either. */
export const RAW_IN_LINE = new RegExp(`${RAW_IN_BLOCK.source}|[\\n\\r\\t]`, 'u');

// Characters worth generating often: random code points seldom land on them.
const NASTY = [
  '\x1b', '\x07', '\x00', '\x08', '\r', '\n', '\t', '\x7f', '\u0085', '\u009b', '\u009d', '\u00ad', '\u061c', '\u200b', '\u200d',
  '\u200e', '\u2028', '\u2029', '\u202a', '\u202e', '\u2066', '\u2069', '\ufeff', '\u{e0041}', '\ud800', '\udfff', '\\', 'a', 'é', '中', '😀',
];
/** One character, hostile ones often: controls, bidi, tags, lone surrogates. */
export const unsafeCharacter = fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)));
/** A short string of such characters. */
export const unsafeString = fc.string({ unit: unsafeCharacter, maxLength: 40 });

