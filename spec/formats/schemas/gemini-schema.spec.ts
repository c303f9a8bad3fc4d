import fc from 'fast-check';
import { toGeminiSchema } from '../../../src/formats/schemas/gemini-schema.js';
import { anySchema, objectSchema, schemaNodes } from '../../support/schema-arbitrary.js';
import { geminiDeclarationProblems } from '../../support/vendor-rules.js';

// The fields of @google/genai's `Schema` (the OpenAPI subset Gemini's function
// declarations take) that mean the same in JSON Schema.
const GEMINI_KEYWORDS = new Set([
  'type', 'properties', 'required', 'items', 'anyOf', 'enum', 'format', 'pattern', 'minimum', 'maximum',
  'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties', 'title', 'description', 'default',
  // Documented for parametersJsonSchema, the JSON Schema form the declarations use.
  'additionalProperties', 'prefixItems',
]);
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

const deepSchema = (levels: number): string => '{"type":"object","properties":{"p":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);

describe('the schema for Gemini', () => {
  it('keeps what Gemini reads, additionalProperties too, and leaves out $schema and annotations', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { path: { type: 'string', minLength: 1, $comment: 'internal' }, head: { type: 'integer', minimum: 1, format: 'int32' } },
      required: ['path', 'missing'],
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 }, head: { type: 'integer', format: 'int32', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    });
  });

  it('writes a list of types as anyOf, const as a one-value enum, and folds what it cannot say into the description', () => {
    const schema = {
      type: 'object',
      properties: {
        milestone: { type: ['string', 'null'], description: 'null clears it' },
        kind: { const: 'bug' },
        level: { type: 'integer', enum: [1, 2, 3], multipleOf: 1 },
        ratio: { type: 'number', exclusiveMinimum: 0 },
        due: { type: 'string', format: 'date-time', nullable: true },
      },
    };
    expect(toGeminiSchema(schema).properties).toEqual({
      milestone: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'null clears it' },
      kind: { type: 'string', enum: ['bug'] },
      level: { type: 'integer', description: '(multipleOf: 1; allowed values: [1,2,3])' },
      ratio: { type: 'number', description: '(exclusiveMinimum: 0)' },
      due: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    });
  });

  it('expands local references, reads oneOf as anyOf, and writes a recursive type once in $defs when its cycle passes through an optional property', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' }, pick: { oneOf: [{ type: 'string' }, { $ref: '#/definitions/Id' }] } },
      $defs: { Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node', description: 'A child' } } } } },
      definitions: { Id: { type: 'integer' } },
    };
    const node = { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } };
    const declared = toGeminiSchema(schema);
    expect(declared).toEqual({ type: 'object', properties: { root: node, pick: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, $defs: { Node: node } });
    expect(geminiDeclarationProblems({ name: 'outline', parametersJsonSchema: declared })).toEqual([]);
  });

  it('cuts a recursive type where it meets itself when its cycle runs through required members, which Gemini cannot unroll', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { label: { type: 'string' }, next: { $ref: '#/$defs/Node' } }, required: ['label', 'next'] } },
    };
    const declared = toGeminiSchema(schema);
    expect(declared).toEqual({
      type: 'object',
      properties: { root: { type: 'object', properties: { label: { type: 'string' }, next: { description: '(recursive, same shape as: "#/$defs/Node")' } }, required: ['label', 'next'] } },
    });
    expect(geminiDeclarationProblems({ name: 'chain', parametersJsonSchema: declared })).toEqual([]);
  });

  it('names a network reference without fetching it', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'http://127.0.0.1:9/never.json', description: 'A' } } };
    expect(toGeminiSchema(schema).properties).toEqual({ a: { description: 'A (not fetched: "http://127.0.0.1:9/never.json")' } });
  });

  it('keeps a map whose keys are data as an object without properties, its values described by additionalProperties', () => {
    const schema = { type: 'object', properties: { env: { type: 'object', additionalProperties: { $ref: '#/$defs/value' } } }, $defs: { value: { type: 'string', minLength: 1 } } };
    expect(toGeminiSchema(schema).properties).toEqual({ env: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } } });
  });

  it('keeps every format, a tuple\'s prefixItems, and writes an integer\'s exclusive bounds as inclusive ones', () => {
    const schema = {
      type: 'object',
      properties: {
        site: { type: 'string', format: 'uri' },
        width: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 100, maximum: 50 },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
      },
    };
    expect(toGeminiSchema(schema).properties).toEqual({
      site: { type: 'string', format: 'uri' },
      width: { type: 'integer', minimum: 1, maximum: 50 },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
    });
  });

  it('declares an object whatever the root was, and only an object past its bounds', () => {
    expect(toGeminiSchema({ anyOf: [{ type: 'object' }, { type: 'null' }] })).toEqual({ type: 'object', description: '(the arguments match one of: [{"type":"object"},{"type":"null"}])' });
    expect(toGeminiSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(toGeminiSchema(JSON.parse(deepSchema(100_000)))).toEqual({ type: 'object' });
    const $defs = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`d${n}`, { type: 'object', properties: { l: { $ref: `#/$defs/d${n + 1}` }, r: { $ref: `#/$defs/d${n + 1}` } } }]));
    expect(toGeminiSchema({ type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs })).toEqual({ type: 'object' });
  });

  it('keeps the properties beside a root union, the union said in the description', () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email' }, phone: { type: 'string' } }, anyOf: [{ required: ['email'] }, { required: ['phone'] }] };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, phone: { type: 'string' } },
      description: '(the arguments match one of: [{"required":["email"]},{"required":["phone"]}])',
    });
  });

  it('keeps __proto__ as an ordinary property name, off every prototype', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","x-mcp-header":"P"}},"required":["__proto__"]}');
    const gemini = toGeminiSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.getOwnPropertyDescriptor(gemini.properties, '__proto__')?.value).toEqual({ type: 'string' });
    expect(Object.getPrototypeOf(gemini.properties)).toBe(Object.prototype);
    expect(gemini.required).toEqual(['__proto__']);
  });

  it('writes only keywords Gemini reads, single types, string enums, and no reference, whatever the schema', () => {
    fc.assert(
      fc.property(fc.oneof(objectSchema, anySchema), (schema) => {
        const gemini = toGeminiSchema(schema);
        expect(gemini.type).toBe('object');
        for (const node of schemaNodes(gemini)) {
          for (const keyword of Object.keys(node)) expect(GEMINI_KEYWORDS).toContain(keyword);
          if (node.type !== undefined) expect(TYPES).toContain(node.type);
          if (node.enum !== undefined) {
            expect(node.type).toBe('string');
            for (const value of node.enum as unknown[]) expect(typeof value).toBe('string');
          }
          if (node.required !== undefined) for (const key of node.required as string[]) expect(Object.hasOwn(node.properties as object, key)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
