import fc from 'fast-check';
import { toStrictSchema } from '../../../src/formats/schemas/strict-schema.js';
import { objectSchema, schemaNodes } from '../../support/schema-arbitrary.js';

// The keywords a strict schema may hold (OpenAI, Structured Outputs, "Supported schemas").
const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'description',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

const deepSchema = (levels: number): string => '{"type":"object","properties":{"p":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);

describe('the strict schema for OpenAI', () => {
  it('requires every property, makes the optional ones nullable and closes every object', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        path: { type: 'string' },
        head: { type: 'number', description: 'First N lines' },
        mode: { type: 'string', enum: ['text', 'binary'] },
        owner: { type: 'object', properties: { name: { type: 'string' }, team: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['name'] },
      },
      required: ['path'],
    };
    expect(toStrictSchema(schema)).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        head: { type: ['number', 'null'], description: 'First N lines' },
        mode: { type: ['string', 'null'], enum: ['text', 'binary', null] },
        owner: {
          type: ['object', 'null'],
          properties: { name: { type: 'string' }, team: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] } },
          required: ['name', 'team'],
          additionalProperties: false,
        },
      },
      required: ['path', 'head', 'mode', 'owner'],
      additionalProperties: false,
    });
  });

  it('folds the keywords strict mode refuses into the description and leaves out mere annotations', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', title: 'Name', minLength: 3, format: 'uri', default: 'a', 'x-mcp-header': 'Name', description: 'Who' } },
      required: ['name'],
    };
    expect(toStrictSchema(schema)?.properties).toEqual({ name: { type: 'string', description: 'Who (default: "a"; minLength: 3; format: "uri")' } });
  });

  it('reads OpenAPI\'s nullable: true as a null type, required or not', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'integer', nullable: true } }, required: ['a'] };
    expect(toStrictSchema(schema)?.properties).toEqual({ a: { type: ['string', 'null'] }, b: { type: ['integer', 'null'] } });
  });

  it('writes several types as an anyOf of one branch per type, each with the keywords of its type', () => {
    // server-sequential-thinking's flags, and a value that is a string or a bounded integer.
    const schema = {
      type: 'object',
      properties: {
        nextThoughtNeeded: { description: 'Whether another thought step is needed', type: ['boolean', 'string'] },
        id: { type: ['string', 'integer', 'null'], pattern: '^[a-z]+$', minimum: 1, minLength: 2 },
      },
      required: ['nextThoughtNeeded'],
    };
    expect(toStrictSchema(schema)?.properties).toEqual({
      nextThoughtNeeded: { anyOf: [{ type: 'boolean' }, { type: 'string' }], description: 'Whether another thought step is needed' },
      id: { anyOf: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'integer', minimum: 1 }, { type: 'null' }], description: '(minLength: 2)' },
    });
  });

  it('declares a tool without arguments as an empty closed object', () => {
    expect(toStrictSchema({ type: 'object' })).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('expands local references into $defs and definitions, and a single-member allOf', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/Point' }, b: { allOf: [{ $ref: '#/definitions/Point' }], description: 'Second' } },
      required: ['a', 'b'],
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      definitions: { Point: { type: 'object', properties: { y: { type: 'number' } }, required: ['y'] } },
    };
    expect(toStrictSchema(schema)?.properties).toEqual({
      a: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
      b: { type: 'object', properties: { y: { type: 'number' } }, required: ['y'], additionalProperties: false, description: 'Second' },
    });
  });

  it('writes a recursive type once, in $defs, and refers to it where it recurs', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/definitions/Node' }, again: { $ref: '#' } },
      required: ['root'],
      definitions: { Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/Node' } }, parent: { $ref: '#/definitions/Node' } }, required: ['label', 'children'] } },
    };
    const node = (parent: unknown) => ({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } }, parent },
      required: ['label', 'children', 'parent'],
      additionalProperties: false,
    });
    const strict = toStrictSchema(schema);
    expect(strict?.$defs).toEqual({ Node: node({ anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] }) });
    expect((strict?.properties as Record<string, unknown>).root).toEqual(node({ anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] }));
    const again = (strict?.properties as Record<string, { properties: Record<string, unknown> }>).again;
    expect(again?.properties.again).toEqual({ anyOf: [{ $ref: '#' }, { type: 'null' }] });
  });

  it.each([
    ['a ring of references with nothing in it', { type: 'object', properties: { ring: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } }],
    ['a reference to the network', { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } }],
    ['a reference to nothing', { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } }],
    ['an object whose keys are data', { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } }],
    ['an open nested object', { type: 'object', properties: { meta: { type: 'object' } } }],
    ['an untyped value', { type: 'object', properties: { value: {} } }],
    ['a tuple', { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } }],
    ['several types beside an enum', { type: 'object', properties: { id: { type: ['string', 'integer'], enum: ['a', 1] } } }],
    ['an allOf of two schemas', { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } }],
    ['an enum of objects', { type: 'object', properties: { a: { enum: [{ x: 1 }] } } }],
    ['objects nested eleven deep', JSON.parse(deepSchema(11))],
  ])('refuses %s (the tool stays non-strict)', (_about, schema) => {
    expect(toStrictSchema(schema as Record<string, unknown>)).toBeUndefined();
  });

  it('takes objects nested ten deep, the documented limit', () => {
    expect(toStrictSchema(JSON.parse(deepSchema(10)))).toBeDefined();
  });

  it('refuses more than 5,000 properties in all', () => {
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, n) => [`p${n}`, { type: 'string' }]));
    expect(toStrictSchema({ type: 'object', properties: properties(5000) })).toBeDefined();
    expect(toStrictSchema({ type: 'object', properties: properties(5001) })).toBeUndefined();
  });

  it('gives up on references that multiply past its budget, at once', () => {
    // Each definition uses the next twice: 2^40 nodes once expanded.
    const $defs = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`d${n}`, { type: 'object', properties: { l: { $ref: `#/$defs/d${n + 1}` }, r: { $ref: `#/$defs/d${n + 1}` } } }]));
    const started = Date.now();
    expect(toStrictSchema({ type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs })).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('walks a schema nested 100,000 levels without overflowing the stack', () => {
    expect(toStrictSchema(JSON.parse(deepSchema(100_000)))).toBeUndefined();
    const deepItems = JSON.parse(`{"type":"object","properties":{"a":${'{"type":"array","items":'.repeat(100_000)}{"type":"string"}${'}'.repeat(100_000)}}}`);
    expect(toStrictSchema(deepItems)).toBeUndefined();
  });

  it('keeps __proto__ and constructor as ordinary property names, off every prototype', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"]}');
    const strict = toStrictSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(strict.properties)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(strict.properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(strict.properties, '__proto__')?.value).toEqual({ type: 'string' });
    expect(strict.required).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('makes every schema it accepts strict: closed objects listing every property, only supported keywords', () => {
    fc.assert(
      fc.property(objectSchema, (schema) => {
        const strict = toStrictSchema(schema);
        if (strict === undefined) return;
        for (const node of schemaNodes(strict)) {
          for (const keyword of Object.keys(node)) expect(STRICT_KEYWORDS).toContain(keyword);
          if (node.properties !== undefined) {
            expect(node.additionalProperties).toBe(false);
            expect(node.required).toEqual(Object.keys(node.properties as object));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('makes strict every schema of plain objects, arrays and scalars', () => {
    fc.assert(
      fc.property(objectSchema, (schema) => {
        // A nested object with no properties that takes any key is a map: the one shape here strict mode cannot say.
        const open = schemaNodes(schema).some((node) => node !== schema && node.type === 'object' && Object.keys(node.properties as object).length === 0 && node.additionalProperties !== false);
        if (!open) expect(toStrictSchema(schema)).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });
});
