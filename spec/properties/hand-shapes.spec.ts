import fc from 'fast-check';
import { z } from 'zod';
import { elicitAnswer, elicitUrlAnswer, rootsAnswer, sampleAnswer } from '../../src/client/questions/answer-shapes.js';
import {
  completeResultSchema,
  discoverResultSchema,
  getPromptResultSchema,
  implementationSchema,
  initializeResultSchema,
  readResourceResultSchema,
  unsupportedVersionData,
} from '../../src/protocol/schemas.js';
import type { Shape } from '../../src/protocol/shapes.js';
import { checkResult } from '../../src/protocol/shape.js';
import { readTask, wireTaskShape } from '../../src/protocol/tasks.js';

// What the root entry reads from servers and hooks used to be checked with
// zod; it is checked by hand now (src/protocol/shapes.ts), so that importing
// rxmcp loads no zod. The zod schemas below are the ones replaced, kept here
// as the reference: on any value, hostile or not, a hand shape must accept
// exactly what its schema accepted, and name the same first place when not.

const looseRecord = z.record(z.string(), z.unknown());
const block = z.looseObject({ type: z.string() });
const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
const ACTIONS = ['accept', 'decline', 'cancel'] as const;

const PAIRS: [string, Shape, z.ZodType][] = [
  ['serverInfo', implementationSchema, z.looseObject({ name: z.string(), version: z.string() })],
  [
    'server/discover',
    discoverResultSchema,
    z.looseObject({ supportedVersions: z.array(z.string()), capabilities: looseRecord, instructions: z.string().optional() }),
  ],
  [
    'initialize',
    initializeResultSchema,
    z.looseObject({
      protocolVersion: z.string(),
      capabilities: looseRecord,
      serverInfo: z.looseObject({ name: z.string(), version: z.string() }),
      instructions: z.string().optional(),
    }),
  ],
  ['resources/read', readResourceResultSchema, z.looseObject({ contents: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })) })],
  ['prompts/get', getPromptResultSchema, z.looseObject({ description: z.string().optional(), messages: z.array(z.looseObject({ role: z.string(), content: block })) })],
  [
    'completion/complete',
    completeResultSchema,
    z.looseObject({ completion: z.looseObject({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }) }),
  ],
  [
    'a task',
    wireTaskShape,
    z.looseObject({
      taskId: z.string(),
      status: z.enum(STATUSES),
      statusMessage: z.string().optional(),
      createdAt: z.string(),
      lastUpdatedAt: z.string().optional(),
      ttlMs: z.number().nullable().optional(),
      ttl: z.number().nullable().optional(),
      pollIntervalMs: z.number().optional(),
      pollInterval: z.number().optional(),
      result: looseRecord.optional(),
      error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
      inputRequests: looseRecord.optional(),
    }),
  ],
  ['an onElicit answer', elicitAnswer, z.looseObject({ action: z.enum(ACTIONS), content: looseRecord.optional() })],
  ['an onElicitUrl answer', elicitUrlAnswer, z.object({ action: z.enum(ACTIONS) }).loose()],
  ['an onSample answer', sampleAnswer, z.looseObject({ role: z.string(), content: z.unknown(), model: z.string() })],
  ['an onListRoots answer', rootsAnswer, z.looseObject({ roots: z.array(z.looseObject({ uri: z.string() })) })],
];

/** zod's verdict as the hand shapes say it: undefined, or the first issue's path. */
function zodSays(schema: z.ZodType, value: unknown): string | undefined {
  const outcome = schema.safeParse(value);
  return outcome.success ? undefined : outcome.error.issues[0]?.path.map(String).join('.') || '(root)';
}

/** The hand shape's verdict: undefined, or the path it names. */
function handSays(shape: Shape, value: unknown): string | undefined {
  return shape(value)?.split(': expected ')[0];
}

// Values built from the members these shapes name (so that many nearly fit),
// hostile keys and every kind of leaf JSON and JavaScript can give.
const KEYS = [
  ...new Set([
    ...['name', 'version', 'supportedVersions', 'capabilities', 'instructions', 'protocolVersion', 'serverInfo', 'contents', 'uri', 'mimeType'],
    ...['description', 'messages', 'role', 'content', 'type', 'completion', 'values', 'total', 'hasMore', 'taskId', 'status', 'statusMessage'],
    ...['createdAt', 'lastUpdatedAt', 'ttlMs', 'ttl', 'pollIntervalMs', 'pollInterval', 'result', 'error', 'code', 'message', 'inputRequests'],
    ...['action', 'model', 'roots', '__proto__', 'constructor', 'toString', 'x'],
  ]),
];
const leaf = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom(...STATUSES, ...ACTIONS, 'text', 'user', 'Accept', ''),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0),
  fc.boolean(),
  fc.constantFrom(null, undefined),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
  ),
}));
// Members for each shape's own keys, so the deeper rules are reached often.
const nearly = fc.dictionary(fc.constantFrom(...KEYS), value, { minKeys: 1, maxKeys: 12 });

describe('the hand-written shapes, against the zod schemas they replaced', () => {
  it.each(PAIRS)('accept and refuse what zod did for %s, naming the same first place, on any value', (_name, shape, schema) => {
    fc.assert(
      fc.property(fc.oneof(value, nearly), (candidate) => {
        expect(handSays(shape, candidate)).toBe(zodSays(schema, candidate));
        // As it would come off the wire, too ("__proto__" an own member).
        const text = JSON.stringify(candidate);
        if (text !== undefined) {
          const parsed: unknown = JSON.parse(text);
          expect(handSays(shape, parsed)).toBe(zodSays(schema, parsed));
        }
      }),
      { numRuns: 1500, seed: 50 },
    );
  });

  const task = { taskId: 't', status: 'working', createdAt: '2026-01-01T00:00:00Z' };
  const hostile: [string, unknown][] = [
    ['a "__proto__" member carrying what is missing', JSON.parse('{"__proto__":{"taskId":"t","status":"working","createdAt":"x"}}')],
    ['a "__proto__" member beside what is there', JSON.parse('{"taskId":"t","status":"working","createdAt":"x","__proto__":{"status":5}}')],
    ['capabilities made of "__proto__" alone', JSON.parse('{"protocolVersion":"v","capabilities":{"__proto__":{"tools":{}}},"serverInfo":{"name":"n","version":"1"}}')],
    ['an object with no prototype', Object.assign(Object.create(null) as object, task)],
    ['a record that is a class instance', { ...task, result: new Map([['a', 1]]) }],
    ['a record that is a Date', { ...task, inputRequests: new Date(0) }],
    ['a record with a symbol key', { ...task, result: { [Symbol('s')]: 1 } }],
    ['a record whose constructor is data', { ...task, result: { constructor: { prototype: {} } } }],
    ['a record whose constructor is a function without Object.prototype', { ...task, result: { constructor: function Fake() {} } }],
    ['members inherited, not own', Object.create(task) as unknown],
    ['a status of the wrong case', { ...task, status: 'Working' }],
    ['a status of "__proto__"', { ...task, status: '__proto__' }],
    ['a ttl of NaN, of Infinity, of null', { ...task, ttlMs: Number.NaN, ttl: Number.POSITIVE_INFINITY, pollInterval: null }],
    ['an error whose code is a string', { ...task, error: { code: '1', message: 'm' } }],
    ['an array where an object belongs', [task]],
    ['a sparse array of items', { contents: [, { uri: 'u' }] }],
    ['100,000 good items and a bad last one', { contents: [...Array.from({ length: 100_000 }, () => ({ uri: 'u' })), { uri: 5 }] }],
    ['100,000 good values and a bad last one', { completion: { values: [...Array.from({ length: 100_000 }, () => 'v'), null] } }],
    ['junk nested far below the rules', { contents: [{ uri: 'u', deep: JSON.parse('['.repeat(5000) + ']'.repeat(5000)) }] }],
    ['a message whose content lacks its type', { messages: [{ role: 'user', content: { text: 'hi' } }] }],
    ['a sampling answer with no content member', { role: 'assistant', model: 'm' }],
    ['a sampling answer whose content is present but undefined', { role: 'assistant', model: 'm', content: undefined }],
    ['roots that are strings', { roots: ['file:///a'] }],
    ['an action that is not one of three', { action: 'accepted' }],
  ];

  it.each(hostile)('agree with zod on %s, for every shape', (_name, candidate) => {
    for (const [, shape, schema] of PAIRS) {
      const path = zodSays(schema, candidate);
      const said = handSays(shape, candidate);
      expect(said === undefined).toBe(path === undefined);
      // A symbol in zod's path has no text to compare.
      if (said !== undefined && !path?.includes('Symbol(')) expect(said).toBe(path);
    }
  });

  it('fail closed with the method and the place: a malformed result is a protocol error, never handed on', () => {
    expect(() => checkResult('resources/read', readResourceResultSchema, { contents: [{ uri: 'u' }, { uri: 'v', mimeType: 7 }] })).toThrow(
      'malformed resources/read result: contents.1.mimeType: expected a string',
    );
    expect(() => checkResult('completion/complete', completeResultSchema, { completion: { values: ['a'], total: Number.NaN } })).toThrow(
      'malformed completion/complete result: completion.total: expected a finite number',
    );
    expect(() => readTask('tasks/get', { task: { ...task, status: 'done' } })).toThrow(
      'malformed task in tasks/get: status: expected one of "working", "input_required", "completed", "failed", "cancelled"',
    );
    expect(() => readTask('tasks/get', JSON.parse('{"task":{"__proto__":{"taskId":"t","status":"working","createdAt":"x"}}}'))).toThrow(
      'malformed task in tasks/get: taskId: expected a string',
    );
  });

  it('hand on what they checked as it came, and the versions of an unsupported-version error as a copy', () => {
    const result = { contents: [{ uri: 'u', text: 'hi' }], extra: { kept: true } };
    expect(checkResult('resources/read', readResourceResultSchema, result)).toBe(result);
    const data = { supported: ['2025-11-25'], requested: '2026-07-28', more: 1 };
    const read = unsupportedVersionData(data);
    expect(read).toEqual({ supported: ['2025-11-25'], requested: '2026-07-28' });
    expect(read.supported).not.toBe(data.supported);
    expect(unsupportedVersionData({ supported: ['a', 5] })).toEqual({ supported: [] });
    expect(unsupportedVersionData(JSON.parse('{"__proto__":{"supported":["2025-11-25"]}}'))).toEqual({ supported: [] });
  });
});
