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

  it('refuses a message that holds the same object twice before walking its copies (a few bytes that would cost the whole budget)', () => {
    let shared: Record<string, unknown> = {};
    for (let level = 0; level < 30; level++) shared = { a: shared, b: shared };
    let visits = 0;
    const counting = (value: Record<string, unknown>): Record<string, unknown> =>
      new Proxy(value, {
        ownKeys(target) {
          visits += 1;
          return Reflect.ownKeys(target);
        },
      });
    // Each object once, counted as it is walked; the same proxy wherever the object recurs.
    const proxies = new Map<object, Record<string, unknown>>();
    const wrap = (value: Record<string, unknown>): Record<string, unknown> => {
      const known = proxies.get(value);
      if (known) return known;
      const wrapped = counting(Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, wrap(inner as Record<string, unknown>)])));
      proxies.set(value, wrapped);
      return wrapped;
    };
    const read = readPostedMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: wrap(shared) } }, DEFAULT_POSTED_LIMITS);
    expect(read.ok).toBe(false);
    expect(visits).toBeLessThanOrEqual(100);
  });

  it('still reads a message whose equal parts are separate objects', () => {
    const message = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: [{ x: 1 }, { x: 1 }] } };
    expect(readPostedMessage(message, DEFAULT_POSTED_LIMITS)).toEqual({ ok: true, message });
  });
});
