import fc from 'fast-check';
import type { ContentBlock } from '../../src/protocol/types.js';
import { flattenResult } from '../../src/tools/flatten.js';
import { MediaLedger, mediaLimitsOf } from '../../src/tools/tool-media.js';

// The media checks on their own: which bytes pass as which type, and that
// whatever a server sends, only checked media is ever attached.

const ledger = (limits = {}) => new MediaLedger(mediaLimitsOf({ mediaLimits: { mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/flac'], ...limits } }));
const b64 = (...bytes: Array<number | string>) =>
  Buffer.concat(bytes.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from([part])))).toString('base64');

describe('the media checks', () => {
  const samples: Array<[string, string]> = [
    ['image/png', b64('\x89PNG\r\n\x1a\n', 0, 0, 0, 13)],
    ['image/jpeg', b64('\xff\xd8\xff\xe0', 0, 16)],
    ['image/gif', b64('GIF89a', 1, 0)],
    ['image/webp', b64('RIFF', 0, 0, 0, 0, 'WEBPVP8 ')],
    ['audio/wav', b64('RIFF', 0, 0, 0, 0, 'WAVEfmt ')],
    ['audio/mpeg', b64('ID3', 4, 0, 0)],
    ['audio/ogg', b64('OggS', 0, 2)],
    ['audio/flac', b64('fLaC', 0, 0, 0, 34)],
  ];

  it.each(samples)('attaches %s whose first bytes say so, and refuses it under every other type', (type, data) => {
    expect('media' in ledger().admit(type.startsWith('image') ? 'image' : 'audio', type, data)).toBe(true);
    for (const [other] of samples.filter(([name]) => name !== type)) {
      expect(ledger().admit('image', other, data)).toEqual({ refusal: `its bytes are not ${other}` });
    }
  });

  it('reads the usual other names of a type as that type', () => {
    expect(ledger().admit('image', 'image/jpg', samples[1]![1])).toEqual({ media: { type: 'image', mimeType: 'image/jpeg', data: samples[1]![1] } });
  });

  it('never attaches what a server sends unless it is base64 whose first bytes match its type, and never throws', () => {
    const block = fc.record({
      type: fc.constantFrom('image', 'audio', 'text', 'resource_link'),
      mimeType: fc.oneof(fc.constantFrom('image/png', 'image/jpeg', 'audio/wav', 'IMAGE/PNG', 'image/jpg; q=1', '__proto__', 'constructor', 'toString', 'hasOwnProperty'), fc.string(), fc.integer()),
      data: fc.oneof(fc.constantFrom(...samples.map(([, data]) => data)), fc.base64String(), fc.string(), fc.constant(undefined)),
    });
    fc.assert(
      fc.property(fc.array(block, { maxLength: 30 }), (blocks) => {
        // A server may put anything where the MIME type belongs.
        const { text, media } = flattenResult(blocks as unknown as ContentBlock[], Infinity, ledger({ maxItems: 5 }));
        expect(media.length).toBeLessThanOrEqual(5);
        for (const item of media) {
          expect(item.data).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
          expect(samples.some(([type, data]) => type === item.mimeType && Buffer.from(item.data, 'base64').subarray(0, 3).equals(Buffer.from(data, 'base64').subarray(0, 3)))).toBe(true);
        }
        expect(text.split('; attached]').length - 1).toBe(media.length);
      }),
    );
  });
});
