import { resolveLocalRef, setOwn } from '../../util/schema-refs.js';
import { isObject, isStrings } from '../../util/values.js';
import { foldNotes } from './fold.js';
import { expandRef, type SchemaWalk, spend, startWalk, unwrapAllOf, within } from './schema-walk.js';

// OpenAI's documented limits for a strict schema (Structured Outputs,
// "Supported schemas"): objects nested at most 10 deep, 5,000 properties in
// all, 1,000 enum values in all, 120,000 characters of property names, enum
// and const values together. The node budget bounds what `$ref` expansion
// may write; the depth bound keeps the walk off a deep document's stack.
const MAX_OBJECT_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;
const MAX_CHARS = 120_000;
const MAX_NODES = 10_000;
const MAX_DEPTH = 64;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
// Constraints strict mode refuses but a model can still honour when told.
const FOLDED = ['default', 'examples', 'minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas'];

interface StrictWalk extends SchemaWalk {
  properties: number;
  enumValues: number;
  chars: number;
  /** The recursive references met, each with the name of its entry in the output's `$defs`. */
  readonly recursive: Map<string, string>;
}

/**
 * A tool's input schema as OpenAI's strict mode takes it, or `undefined` when
 * it cannot be made strict without changing what it means to the tool:
 *
 * - every object lists all its properties in `required`, and says
 *   `additionalProperties: false`; an optional property becomes nullable
 *   (`type: [t, 'null']`, or `anyOf` with `{ type: 'null' }`), and the way
 *   back drops those nulls before the server sees the call;
 * - local `$ref`s are expanded in place (a single-member `allOf` too),
 *   `oneOf` is read as `anyOf`, and a list of types (`['boolean',
 *   'string']`) is written as an `anyOf` of one branch per type; a recursive type is written once, in the
 *   output's `$defs`, and referred to where it recurs (strict mode follows
 *   such references);
 * - keywords strict mode refuses are folded into the description
 *   (`minLength`, `default`, formats it does not know…) or, when they only
 *   annotate (`title`, `$schema`, `x-…`), left out.
 *
 * Refused (`undefined`): an object whose keys are data (no `properties` but
 * `additionalProperties` or `patternProperties`, below the root), an
 * untyped value, a tuple, several types beside an enum, a multi-member `allOf`,
 * an enum of objects, a remote or missing `$ref`, and any
 * schema past OpenAI's limits or this walk's own bounds.
 */
export function toStrictSchema(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const walk: StrictWalk = { ...startWalk(schema, MAX_NODES), properties: 0, enumValues: 0, chars: 0, recursive: new Map() };
  const strict = strictNode(schema, walk, 0, 0);
  if (!strict || strict.type !== 'object') return undefined;
  if (walk.recursive.size === 0) return strict;
  // Each recursive type once, in `$defs`, its own recursion a reference again
  // (a Map's iteration also visits the entries added while it runs).
  const $defs: Record<string, unknown> = {};
  for (const [ref, name] of walk.recursive) {
    const definition = within(walk, ref, () => strictNode(resolveLocalRef(schema, ref), walk, 1, 1));
    // A ring of references with no schema in it describes nothing.
    if (!definition || typeof definition.$ref === 'string') return undefined;
    setOwn($defs, name, definition);
  }
  return { ...strict, $defs };
}

// Where a recursive reference points in the strict schema: the root itself,
// or an entry of its `$defs` under a name made of the pointer's last segment.
function recursionTo(ref: string, walk: StrictWalk): string {
  if (ref === '#') return '#';
  let name = walk.recursive.get(ref);
  if (name === undefined) {
    const stem = (ref.split('/').pop() ?? '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'def';
    const taken = new Set(walk.recursive.values());
    name = taken.has(stem) ? `${stem}_${walk.recursive.size}` : stem;
    walk.recursive.set(ref, name);
  }
  return `#/$defs/${name}`;
}

function strictNode(input: unknown, walk: StrictWalk, depth: number, objectDepth: number): Record<string, unknown> | undefined {
  if (!isObject(input) || depth > MAX_DEPTH || !spend(walk)) return undefined;
  const expansion = expandRef(input, walk);
  if (expansion.kind === 'merged') return within(walk, expansion.ref, () => strictNode(expansion.node, walk, depth + 1, objectDepth));
  if (expansion.kind === 'cycle') return { $ref: recursionTo(expansion.ref, walk) };
  if (expansion.kind !== 'none') return undefined;
  const node = unwrapAllOf(input);
  if (node !== input) return strictNode(node, walk, depth + 1, objectDepth);
  if (Object.hasOwn(node, 'allOf') || Object.hasOwn(node, 'prefixItems')) return undefined;

  const notes: Array<[string, unknown]> = [];
  for (const keyword of FOLDED) if (Object.hasOwn(node, keyword)) notes.push([keyword, node[keyword]]);
  const out: Record<string, unknown> = {};

  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches) {
    if (branches.length === 0 || Object.hasOwn(node, 'type') || depth === 0) return undefined;
    const strictBranches = branches.map((branch) => strictNode(branch, walk, depth + 1, objectDepth));
    if (strictBranches.some((branch) => branch === undefined)) return undefined;
    out.anyOf = strictBranches;
    return described(out, node, notes);
  }

  const values = Object.hasOwn(node, 'enum') ? node.enum : Object.hasOwn(node, 'const') ? [node.const] : undefined;
  if (values !== undefined) {
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) return undefined;
    walk.enumValues += values.length;
    walk.chars += values.reduce((sum: number, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
    if (walk.enumValues > MAX_ENUM_VALUES || walk.chars > MAX_CHARS) return undefined;
    out.enum = [...values];
  }

  const types = typeof node.type === 'string' ? [node.type] : isStrings(node.type) ? node.type : undefined;
  if (types === undefined) {
    if (values === undefined) return undefined;
    return described(out, node, notes);
  }
  const concrete = types.filter((type) => type !== 'null');
  if (!types.every((type) => TYPES.has(type))) return undefined;
  if (concrete.length > 1) {
    const union = typeUnion(node, types, walk, depth, objectDepth);
    return union && described(union, node, notes);
  }
  out.type = typeof node.type === 'string' ? node.type : [...types];
  const type = concrete[0];

  if (type === 'object') {
    const object = strictObject(node, walk, depth, objectDepth);
    if (!object) return undefined;
    Object.assign(out, object);
  } else if (type === 'array') {
    const items = strictNode(node.items, walk, depth + 1, objectDepth);
    if (!items) return undefined;
    out.items = items;
    for (const keyword of ['minItems', 'maxItems']) if (typeof node[keyword] === 'number') out[keyword] = node[keyword];
  } else if (type === 'string') {
    if (typeof node.pattern === 'string') out.pattern = node.pattern;
    if (typeof node.format === 'string') {
      if (FORMATS.has(node.format)) out.format = node.format;
      else notes.push(['format', node.format]);
    }
  } else if (type === 'number' || type === 'integer') {
    for (const keyword of NUMBER_KEYWORDS) if (typeof node[keyword] === 'number') out[keyword] = node[keyword];
  }
  // OpenAPI's `nullable: true`, which some servers write, is JSON Schema's null type.
  return described(node.nullable === true ? nullable(out) : out, node, notes);
}

// Several types (`['boolean', 'string']`), which strict mode refuses in one
// schema, as an `anyOf` with one branch per type, each keeping the keywords
// of its type; the notes are said once, outside. Refused with an enum,
// whose values would have to be split by type.
function typeUnion(node: Record<string, unknown>, types: readonly string[], walk: StrictWalk, depth: number, objectDepth: number): Record<string, unknown> | undefined {
  if (Object.hasOwn(node, 'enum') || Object.hasOwn(node, 'const')) return undefined;
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(node)) if (key !== 'type' && key !== 'description' && key !== 'nullable' && !FOLDED.includes(key)) setOwn(rest, key, node[key]);
  const branches = [...new Set(types)].map((type) => strictNode({ ...rest, type }, walk, depth + 1, objectDepth));
  return branches.every((branch) => branch !== undefined) ? { anyOf: branches } : undefined;
}

function strictObject(node: Record<string, unknown>, walk: StrictWalk, depth: number, objectDepth: number): Record<string, unknown> | undefined {
  if (objectDepth >= MAX_OBJECT_DEPTH) return undefined;
  const { properties = {}, additionalProperties } = node;
  if (!isObject(properties)) return undefined;
  const keys = Object.keys(properties);
  // Keys that are data (a map from names to values) cannot be listed in `required`.
  const open = additionalProperties !== false && (isObject(additionalProperties) || Object.hasOwn(node, 'patternProperties') || (keys.length === 0 && objectDepth > 0));
  if (open) return undefined;
  walk.properties += keys.length;
  walk.chars += keys.reduce((sum, key) => sum + key.length, 0);
  if (walk.properties > MAX_PROPERTIES || walk.chars > MAX_CHARS) return undefined;
  const required = new Set(isStrings(node.required) ? node.required : []);
  const strictProperties: Record<string, unknown> = {};
  for (const key of keys) {
    const property = strictNode(properties[key], walk, depth + 1, objectDepth + 1);
    if (!property) return undefined;
    setOwn(strictProperties, key, required.has(key) ? property : nullable(property));
  }
  return { properties: strictProperties, required: keys, additionalProperties: false };
}

/** The schema, also accepting `null` (which the way back reads as "not given"). */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, anyOf } = schema;
  if (typeof schema.$ref === 'string') return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(anyOf)) {
    return anyOf.some((branch) => isObject(branch) && branch.type === 'null') ? schema : { ...schema, anyOf: [...anyOf, { type: 'null' }] };
  }
  const withNullEnum = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {};
  if (typeof type === 'string') return type === 'null' ? schema : { ...schema, type: [type, 'null'], ...withNullEnum };
  if (Array.isArray(type)) return type.includes('null') ? { ...schema, ...withNullEnum } : { ...schema, type: [...type, 'null'], ...withNullEnum };
  return { ...schema, ...withNullEnum };
}

function described(out: Record<string, unknown>, node: Record<string, unknown>, notes: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const description = foldNotes(node.description, notes);
  return description === undefined ? out : { ...out, description };
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
