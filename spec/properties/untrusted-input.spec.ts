import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { z } from 'zod';
import { classify, Registry, Toolkit } from '../../src/index.js';
import { DEFAULT_LOCATION_KEYS, inside, locationsOf } from '../../src/providers/policy/paths.js';
import { ChunkReader } from '../../src/http/chunk-reader.js';
import { encodeHeaderValue } from '../../src/transport/header-encoding.js';
import { readSse, type SseEvent } from '../../src/transport/sse.js';

// Property tests for what rxmcp parses or decides from input it does not
// control: servers' bytes, models' arguments, users' rules.

describe('classify', () => {
  it('never throws, and calls anything it accepts well-formed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const classified = classify(value);
        if (classified.kind === 'invalid') return typeof classified.reason === 'string';
        const message = classified.message as unknown as Record<string, unknown>;
        return message.jsonrpc === '2.0';
      }),
      { numRuns: 2000 },
    );
  });

  it('recognises every well-formed response, whatever its result holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer()), fc.dictionary(fc.string(), fc.jsonValue()), (id, result) => {
        const classified = classify({ jsonrpc: '2.0', id, result });
        return classified.kind === 'response';
      }),
    );
  });
});

describe('SSE reading', () => {
  it('gives back the same events however the stream is cut, CRLF or LF, with comments between', async () => {
    const data = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((s) => !/[\r\n]/.test(s));
    await fc.assert(
      fc.asyncProperty(fc.array(data, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 10 }), async (events, eol, rawCuts) => {
        // Every other event carries an id, which must come back with it.
        const text = events.map((event, i) => `: keep-alive${eol}${i % 2 ? `id: e${i}${eol}` : ''}data: ${event}${eol}${eol}`).join('');
        const bytes = new TextEncoder().encode(text);
        const cuts = [...new Set(rawCuts.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let start = 0;
        for (const cut of cuts) {
          chunks.push(bytes.subarray(start, cut));
          start = cut;
        }
        chunks.push(bytes.subarray(start));
        const seen: SseEvent[] = [];
        for await (const event of readSse((async function* () { yield* chunks; })())) seen.push(event);
        expect(seen).toEqual(events.map((data, i) => (i % 2 ? { data, id: `e${i}` } : { data })));
      }),
      { numRuns: 200 },
    );
  });

  it('reads a stream handed out as text the same as one handed out as bytes, a leading byte order mark dropped either way', async () => {
    const data = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((s) => !/[\r\n]/.test(s));
    await fc.assert(
      fc.asyncProperty(fc.array(data, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 10 }), async (events, bom, rawCuts) => {
        const text = `${bom ? '\uFEFF' : ''}${events.map((event) => `data: ${event}\n\n`).join('')}`;
        const cuts = [...new Set(rawCuts.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let start = 0;
        for (const cut of cuts) {
          pieces.push(text.slice(start, cut));
          start = cut;
        }
        pieces.push(text.slice(start));
        const read = async (chunks: Array<string | Uint8Array>) => {
          const seen: SseEvent[] = [];
          for await (const event of readSse((async function* () { yield* chunks; })())) seen.push(event);
          return seen;
        };
        const expected = events.map((data) => ({ data }));
        expect(await read(pieces)).toEqual(expected);
        expect(await read([new TextEncoder().encode(text)])).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the chunks of a body read by rxmcp's own requests", () => {
  it('come back as the text sent, however its bytes are cut (characters split between chunks), a byte order mark kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 10 }), async (body, bom, rawCuts) => {
        const text = `${bom ? '\uFEFF' : ''}${body}`;
        const bytes = Buffer.from(text, 'utf8');
        const cuts = [...new Set(rawCuts.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
        const stream = new PassThrough();
        const reader = new ChunkReader(stream, () => undefined);
        let start = 0;
        for (const cut of [...cuts, bytes.length]) {
          stream.write(bytes.subarray(start, cut));
          start = cut;
        }
        stream.end();
        let read = '';
        for (let next = await reader.next(); !next.done; next = await reader.next()) read += next.value;
        expect(read).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('header values', () => {
  it('never carry CR, LF or other control characters, whatever the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => !/[\x00-\x08\x0a-\x1f\x7f]/.test(encodeHeaderValue(value))),
      { numRuns: 2000 },
    );
  });
});

describe('Policy containment', () => {
  // A reference model: resolve segments one by one, and say unknown at the
  // first thing the lexical rules cannot read to a conclusion.
  const reference = (path: string, dir: string): string => {
    // A leading `//` is a UNC share to a server on Windows.
    if ([path, dir].some((p) => p.includes('\0') || p.includes('\\') || !p.startsWith('/') || p.startsWith('//') || p.split('/').includes('..'))) return 'unknown';
    const parts = (p: string) => p.split('/').filter((s) => s !== '' && s !== '.');
    const [a, b] = [parts(path), parts(dir)];
    return b.length <= a.length && b.every((s, i) => a[i] === s) ? 'yes' : 'no';
  };
  const segment = fc.constantFrom('a', 'b', 'ab', '.', '..', 'a\0', 'a\\b', 'ａ', 'a.b', '');
  const path = fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);

  it('agrees with a reference model on every path, traversal, NUL, backslash and look-alike included', () => {
    fc.assert(fc.property(path, path, (p, d) => inside(p, d, undefined) === reference(p, d)), { numRuns: 3000 });
  });

  it('never calls a sibling with a common prefix inside', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[a-z0-9]{1,4}$/), (base, tail) => inside(`/${base}${tail}/x`, `/${base}`, undefined) === 'no'));
  });
});

describe('Policy locations (issue 43)', () => {
  // A step down into a document: a key (prototype names among them), a
  // list index, or JSON text holding the rest.
  const step = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toJSON'), fc.nat(4), fc.constant('as JSON text'));
  const target = fc.constantFrom('/home/me/.ssh/authorized_keys', '~/.ssh/authorized_keys', '--out=/home/me/.ssh/x', 'C:\\Users\\me\\.ssh', '../.ssh/x', 'file:///home/me/.ssh/x',
    // found by the attack review: a fullwidth spelling, a path from a drive's own folder
    '\uff0fhome\uff0fme\uff0f.ssh\uff0fx', 'C:..\\.ssh\\x');

  it('finds a target that is not proved outside a denied folder wherever in the arguments it hides, beside any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(step, { maxLength: 8 }), target, (decoy, route, path) => {
        let hidden: unknown = path;
        for (const at of [...route].reverse()) {
          if (at === 'as JSON text') hidden = JSON.stringify(hidden);
          else if (typeof at === 'number') hidden = [...Array<number>(at).fill(0), hidden];
          else hidden = { [at]: hidden };
        }
        const locations = locationsOf({ path: 'notes.txt', decoy, hidden } as Record<string, unknown>, DEFAULT_LOCATION_KEYS);
        return locations.some((location) => inside(location, '/home/me/.ssh', '/home/me') !== 'no');
      }),
      { numRuns: 2000 },
    );
    expect(({} as Record<string, unknown>).path).toBeUndefined();
  });
});

describe('Registry routing', () => {
  it('always sends a call to the provider with the longest matching prefix', async () => {
    const names = fc.stringMatching(/^[a-z]{1,3}(_[a-z]{1,3}){0,2}$/);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(names, { minLength: 1, maxLength: 4 }), names, async (prefixes, tool) => {
        const registry = new Registry();
        for (const prefix of prefixes) {
          registry.add(
            new Toolkit({ name: prefix }).tool(tool, { input: z.object({}) }, () => ({ content: [{ type: 'text', text: prefix }] })),
            { prefix },
          );
        }
        const target = [...prefixes].sort((a, b) => b.length - a.length)[0] as string;
        const [answer] = await registry.executeToolCalls([{ id: '1', function: { name: `${target}_${tool}`, arguments: '' } }]);
        const owner = prefixes.filter((p) => `${target}_${tool}`.startsWith(`${p}_`)).sort((a, b) => b.length - a.length)[0];
        expect(answer?.content).toBe(owner);
      }),
      { numRuns: 200 },
    );
  });
});
