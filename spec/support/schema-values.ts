import fc from 'fast-check';
import { resolveLocalRef } from './vendor-rules.js';

// Candidate values for a JSON Schema, as a fast-check arbitrary: enough of
// the vocabulary to write plausible arguments for real tool schemas (types,
// enum, const, unions, objects with required and optional properties,
// arrays, bounds, patterns, formats, local $refs). Keywords it does not
// model (allOf, not, if/then, uniqueItems…) are left to the caller, who
// keeps only candidates a real validator accepts.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Past this many nested schemas only required properties, empty arrays and `null` branches are taken. */
const SHALLOW = 4;
/** Past this many, give up on the branch (the candidate is then refused by the validator). */
const GIVE_UP = 12;

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  date: fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  time: fc.constantFrom('08:30:00Z', '23:59:59+02:00'),
  duration: fc.constantFrom('P1D', 'PT5M', 'P2W'),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
  uuid: fc.uuid(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  hostname: fc.domain(),
};

const smallJson = fc.jsonValue({ maxDepth: 2 });

/** Candidate values for `schema`, whose local `$ref`s resolve against `root`. */
export function schemaValues(schema: unknown, root: Json = isObject(schema) ? schema : {}): fc.Arbitrary<unknown> {
  return build(schema, root, 0);
}

function build(schema: unknown, root: Json, depth: number): fc.Arbitrary<unknown> {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return smallJson;
  if (!isObject(schema) || depth > GIVE_UP) return fc.constant(undefined);
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target ? build(target, root, depth + 1) : fc.constant(undefined);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (union && union.length > 0) {
    const branches = depth >= SHALLOW ? union.filter((branch) => isObject(branch) && branch.type === 'null') : [];
    return fc.oneof(...(branches.length > 0 ? branches : union).map((branch) => build(mergeSiblings(schema, branch), root, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return build(mergeSiblings(schema, schema.allOf[0]), root, depth + 1);
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [guessType(schema)];
  const usable = depth >= SHALLOW && types.includes('null') ? ['null'] : types;
  return fc.oneof(...usable.map((type) => ofType(type, schema, root, depth)));
}

/** A union branch inherits what sits beside the union (`{ type: 'object', properties, anyOf: [{ required: [...] }] }`). */
function mergeSiblings(schema: Json, branch: unknown): unknown {
  if (!isObject(branch)) return branch;
  const rest = { ...schema };
  delete rest.anyOf;
  delete rest.oneOf;
  delete rest.allOf;
  return { ...rest, ...branch, ...(rest.properties && branch.properties ? { properties: { ...(rest.properties as Json), ...(branch.properties as Json) } } : {}) };
}

function guessType(schema: Json): string {
  if (isObject(schema.properties) || 'additionalProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  if ('pattern' in schema || 'format' in schema || 'minLength' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema) return 'number';
  return 'any';
}

function ofType(type: string, schema: Json, root: Json, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return numberOf(type, schema);
    case 'string':
      return stringOf(schema);
    case 'array':
      return arrayOf(schema, root, depth);
    case 'object':
      return objectOf(schema, root, depth);
    default:
      return smallJson;
  }
}

function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function numberOf(type: string, schema: Json): fc.Arbitrary<number> {
  const low = bound(schema.minimum) ?? (bound(schema.exclusiveMinimum) === undefined ? -1000 : (bound(schema.exclusiveMinimum) as number) + 1);
  const high = bound(schema.maximum) ?? (bound(schema.exclusiveMaximum) === undefined ? low + 2000 : (bound(schema.exclusiveMaximum) as number) - 1);
  const step = bound(schema.multipleOf);
  if (step !== undefined) return fc.integer({ min: Math.ceil(low / step), max: Math.max(Math.ceil(low / step), Math.floor(high / step)) }).map((k) => k * step);
  if (type === 'integer') return fc.integer({ min: Math.ceil(low), max: Math.max(Math.ceil(low), Math.floor(high)) });
  return fc.oneof(fc.integer({ min: Math.ceil(low), max: Math.max(Math.ceil(low), Math.floor(high)) }), fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true }));
}

function stringOf(schema: Json): fc.Arbitrary<string> {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format] as fc.Arbitrary<string>;
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, 'u'));
    } catch {
      return fc.string();
    }
  }
  const minLength = bound(schema.minLength) ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(bound(schema.maxLength) ?? 12, 40)) });
}

function arrayOf(schema: Json, root: Json, depth: number): fc.Arbitrary<unknown[]> {
  const minItems = bound(schema.minItems) ?? 0;
  const maxItems = depth >= SHALLOW ? minItems : Math.max(minItems, Math.min(bound(schema.maxItems) ?? 3, 3));
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.map((item) => build(item, root, depth + 1)) : [];
  const items = schema.items === false ? undefined : build(Array.isArray(schema.items) ? {} : (schema.items ?? {}), root, depth + 1);
  if (prefix.length > 0) return fc.tuple(...prefix);
  if (!items) return fc.constant([]);
  return fc.array(items, { minLength: minItems, maxLength: maxItems });
}

function objectOf(schema: Json, root: Json, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties).filter((name) => depth < SHALLOW || required.has(name));
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = build(properties[name], root, depth + 1);
  const declared = fc.record(model, { requiredKeys: names.filter((name) => required.has(name)) });
  const extra = schema.additionalProperties;
  if (extra === false || names.length > 0 || depth >= SHALLOW) return declared;
  // An open object without declared properties: a few entries of what it allows.
  const key = isObject(schema.propertyNames) && typeof schema.propertyNames.pattern === 'string' ? stringOf(schema.propertyNames) : fc.string({ minLength: 1, maxLength: 6 });
  return fc.dictionary(key, isObject(extra) ? build(extra, root, depth + 1) : smallJson, { maxKeys: 3 });
}
