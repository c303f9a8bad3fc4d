import { MessageTooLongError, readText } from '../../src/http/body.js';
import type { FetchResponse } from '../../src/http/fetch-like.js';

const bodyOf = (chunks: Array<string | Uint8Array>): FetchResponse => ({
  status: 200,
  ok: true,
  headers: { get: () => null },
  body: (async function* () {
    yield* chunks;
  })(),
  text: () => Promise.reject(new Error('read by chunks')),
});

// 1,000 emoji (4 bytes each, two UTF-16 units), each split between two chunks.
const SPLIT_PAIRS = Array.from({ length: 1000 }, () => ['\ud83d', '\ude00']).flat();
const TEXT = '😀'.repeat(1000);

describe('readText', () => {
  it('counts string chunks in UTF-8 bytes, a pair split across chunks as the four bytes it is', async () => {
    expect(await readText(bodyOf(SPLIT_PAIRS), 4000)).toBe(TEXT);
    await expect(readText(bodyOf(SPLIT_PAIRS), 3999)).rejects.toThrow(MessageTooLongError);
  });

  it('counts byte chunks as they come, before decoding them', async () => {
    const bytes = new TextEncoder().encode(TEXT);
    const chunks = [bytes.subarray(0, 1001), bytes.subarray(1001, 2003), bytes.subarray(2003)];
    expect(await readText(bodyOf(chunks), 4000)).toBe(TEXT);
    await expect(readText(bodyOf(chunks), 3999)).rejects.toThrow('a message longer than 3999 bytes');
  });

  it('refuses text within the limit in characters but over it in bytes', async () => {
    // 2,000 UTF-16 units, 4,000 bytes.
    await expect(readText(bodyOf([TEXT]), 3000)).rejects.toThrow(MessageTooLongError);
  });
});
