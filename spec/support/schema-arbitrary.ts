import fc from 'fast-check';

// Tool input schemas as servers write them: objects nesting objects and
// arrays, some properties required, with keywords vendors take and keywords
// they refuse, for the normalisers' property tests.

const described = fc.option(fc.string({ maxLength: 20 }), { nil: undefined });
const extras = fc.record(
  {
    title: fc.string({ maxLength: 10 }),
    $comment: fc.string({ maxLength: 10 }),
    default: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant([1, 2])),
    examples: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
    'x-vendor': fc.boolean(),
  },
  { requiredKeys: [] },
);

const leaf = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.nat(5), maxLength: fc.integer({ min: 5, max: 50 }), format: fc.constantFrom('uri', 'email', 'date-time'), pattern: fc.constant('^a') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('number', 'integer'), minimum: fc.integer(), exclusiveMaximum: fc.integer(), multipleOf: fc.constant(2) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('boolean') }),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ enum: fc.constant([1, 2, 3]) }),
  fc.record({ const: fc.string({ maxLength: 6 }) }),
  fc.record({ type: fc.constant(['string', 'null']) }),
);

export const { schema: anySchema, object: objectSchema } = fc.letrec<{ schema: Record<string, unknown>; object: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), fc.record({ type: fc.constant('array'), items: tie('schema'), minItems: fc.nat(3), uniqueItems: fc.boolean() }, { requiredKeys: ['type', 'items'] }), fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) })).chain((node) =>
    fc.tuple(described, extras).map(([description, more]) => ({ ...more, ...node, ...(description === undefined ? {} : { description }) })),
  ),
  object: fc
    .dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('schema'), { maxKeys: 4 })
    .chain((properties) =>
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
          additionalProperties: fc.constantFrom(true, false),
          $schema: fc.constant('https://json-schema.org/draft/2020-12/schema'),
        },
        { requiredKeys: ['type', 'properties'] },
      ),
    ),
}));

/** Every schema node under `root` (itself included), found without recursion. */
export function schemaNodes(root: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const record = node as Record<string, unknown>;
    found.push(record);
    if (typeof record.properties === 'object' && record.properties !== null) stack.push(...Object.values(record.properties));
    if (record.items !== undefined) stack.push(record.items);
    if (Array.isArray(record.anyOf)) stack.push(...record.anyOf);
  }
  return found;
}
