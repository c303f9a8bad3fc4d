import { DEFAULT_POSTED_LIMITS, readPostedMessage } from '../../src/apps/posted-message.js';

// What a view posts costs the host what it takes to read it, never more than
// the limits: a structured clone carries a sparse array of length 2^32 - 1 in
// a few bytes, and the host must not walk its holes one by one.

describe('reading a posted message', () => {
  it('refuses a sparse array longer than the budget without visiting its elements', () => {
    let reads = 0;
    const sparse: unknown[] = [];
    sparse.length = 50_000_000;
    // An array all the same to the reader (Array.isArray, Array.prototype), counting what is read of it.
    const counted = new Proxy(sparse, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^[0-9]+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const limits = { maxChars: 1000, maxDepth: 64 };
    const read = readPostedMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: counted } }, limits);
    expect(read).toEqual({ ok: false, reason: 'larger than 1000 characters' });
    expect(reads).toBeLessThanOrEqual(limits.maxChars);
  });

  it('refuses the largest sparse array a view can post at once, under the default limits', () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const message = structuredClone({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: sparse } });
    const began = Date.now();
    expect(readPostedMessage(message, DEFAULT_POSTED_LIMITS)).toMatchObject({ ok: false });
    expect(Date.now() - began).toBeLessThan(1000);
  });
});
