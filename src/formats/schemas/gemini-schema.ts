import { resolveLocalRef, setOwn } from '../../util/schema-refs.js';
import { isObject, isStrings } from '../../util/values.js';
import { foldNotes } from './fold.js';
import { hasRequiredCycle } from './gemini-cycles.js';
import { toRootObject } from './root-object.js';
import { expandRef, type SchemaWalk, spend, startWalk, unwrapAllOf, withoutRef, within } from './schema-walk.js';

// The node budget bounds what `$ref` expansion may write; the depth bound
// keeps the walk off a deep document's stack. Past either, the declaration
// says only that the tool takes an object.
const MAX_NODES = 10_000;
const MAX_DEPTH = 32;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
// Constraints Gemini documents no keyword for but a model can still honour
// when told (an integer's exclusive bounds are written as inclusive ones).
const FOLDED = ['multipleOf', 'uniqueItems', 'patternProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'examples'];
const EXCLUSIVE: ReadonlyArray<readonly [string, string, number]> = [
  ['exclusiveMinimum', 'minimum', 1],
  ['exclusiveMaximum', 'maximum', -1],
];

type Notes = Array<[string, unknown]>;

/**
 * A tool's input schema in the part of JSON Schema that Gemini's function
 * declarations accept: the keywords @google/genai documents for
 * `parametersJsonSchema` and its `Schema` has a field for (type,
 * properties, required, additionalProperties, items, prefixItems, anyOf,
 * enum of strings, format, pattern, minimum and maximum, the length and
 * count bounds, title, description, default).
 *
 * - local `$ref`s are expanded in place; a reference met again inside its
 *   own expansion (a recursive type) is written once in the declaration's
 *   `$defs` and referred to where it recurs when every such cycle passes
 *   through an optional property (Gemini refuses a type that must contain
 *   itself), and is otherwise cut there, the node saying so in its
 *   description; remote references are never fetched, only named;
 * - `type` lists become `anyOf` (`['string', 'null']` is
 *   `anyOf: [{ type: 'string' }, { type: 'null' }]`), `oneOf` is read as
 *   `anyOf`, `const` as a one-value enum;
 * - an integer's `exclusiveMinimum`/`exclusiveMaximum` become the inclusive
 *   bound next to them; `$schema`, the input's `$defs` and other annotations
 *   are left out; constraints with no keyword (a number's exclusive bound, a number
 *   enum, `uniqueItems`…) are folded into the description;
 * - the root is always `type: 'object'`, a root union merged into one
 *   object as for OpenAI (see `toRootObject`); a schema past this walk's bounds
 *   (10,000 nodes once expanded, 32 levels) becomes `{ type: 'object' }`.
 */
export function toGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  // A union at the root would be read as no object at all: merged into one first.
  const fitted = toRootObject(schema);
  const walk: GeminiWalk = { ...startWalk(fitted, MAX_NODES), recursive: new Map() };
  const root = geminiNode(fitted, walk, 0);
  if (root?.type !== 'object') return { type: 'object' };
  if (walk.recursive?.size === 0) return root;
  const cut = (): Record<string, unknown> => {
    const again = geminiNode(fitted, { ...startWalk(fitted, MAX_NODES), recursive: undefined }, 0);
    return again?.type === 'object' ? again : { type: 'object' };
  };
  return withDefinitions(fitted, root, walk) ?? cut();
}

/** A walk that writes each recursive type once, in `$defs` (`recursive`), or cuts it where it recurs (no map). */
type GeminiWalk = SchemaWalk & { recursive: Map<string, string> | undefined };

// The declaration with each recursive type its walk met written once in
// `$defs`, as Gemini can follow when every cycle passes through an optional
// property; `undefined` when Gemini could not unroll it (the caller then
// cuts it where it recurs).
function withDefinitions(fitted: Record<string, unknown>, root: Record<string, unknown>, walk: GeminiWalk): Record<string, unknown> | undefined {
  const recursive = walk.recursive as Map<string, string>;
  const $defs: Record<string, unknown> = {};
  // A Map's iteration also visits the entries added while it runs.
  for (const [ref, name] of recursive) {
    const definition = within(walk, ref, () => geminiNode(resolveLocalRef(fitted, ref), walk, 1));
    // A ring of references with no schema in it describes nothing.
    if (!definition || typeof definition.$ref === 'string') return undefined;
    setOwn($defs, name, definition);
  }
  const declared = { ...root, $defs };
  return hasRequiredCycle(declared, [...recursive.values()].map((name) => `#/$defs/${name}`)) ? undefined : declared;
}

// Where a recursive reference points in the declaration: an entry of its
// `$defs` under a name made of the pointer's last segment.
function recursionTo(ref: string, recursive: Map<string, string>): string {
  let name = recursive.get(ref);
  if (name === undefined) {
    const stem = (ref.split('/').pop() ?? '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'def';
    const taken = new Set(recursive.values());
    name = taken.has(stem) ? `${stem}_${recursive.size}` : stem;
    recursive.set(ref, name);
  }
  return `#/$defs/${name}`;
}

function geminiNode(input: unknown, walk: GeminiWalk, depth: number): Record<string, unknown> | undefined {
  if (!isObject(input)) return {};
  if (depth > MAX_DEPTH || !spend(walk)) return undefined;
  const notes: Notes = [];
  let node = input;
  const expansion = expandRef(input, walk);
  if (expansion.kind === 'merged') return within(walk, expansion.ref, () => geminiNode(expansion.node, walk, depth + 1));
  // Beside a $ref Gemini reads only $-keywords: the node is the reference alone.
  if (expansion.kind === 'cycle' && walk.recursive && expansion.ref !== '#') return { $ref: recursionTo(expansion.ref, walk.recursive) };
  if (expansion.kind !== 'none') {
    notes.push([expansion.kind === 'cycle' ? 'recursive, same shape as' : expansion.kind === 'remote' ? 'not fetched' : 'not found', expansion.ref]);
    node = withoutRef(input);
  }
  const unwrapped = unwrapAllOf(node);
  if (unwrapped !== node) return geminiNode(unwrapped, walk, depth + 1);
  if (Object.hasOwn(node, 'allOf')) notes.push(['allOf', node.allOf]);
  for (const keyword of FOLDED) if (Object.hasOwn(node, keyword)) notes.push([keyword, node[keyword]]);
  if (node.default !== undefined && !isPrimitive(node.default)) notes.push(['default', node.default]);

  const out: Record<string, unknown> = {};
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  const types = typesOf(node);
  if (branches && branches.length > 0) {
    const mapped = branches.map((branch) => geminiNode(branch, walk, depth + 1));
    if (mapped.some((branch) => branch === undefined)) return undefined;
    out.anyOf = mapped;
  } else if (types.length === 1) {
    const typed = typedNode(node, types[0] as string, walk, depth, notes);
    if (!typed) return undefined;
    Object.assign(out, typed);
  } else if (types.length > 1) {
    // Each branch keeps the keywords of its own type; the notes are said once, outside.
    const mapped = types.map((type) => typedNode(node, type, walk, depth, []));
    if (mapped.some((branch) => branch === undefined)) return undefined;
    out.anyOf = mapped;
  } else {
    const values = enumOf(node);
    if (values && isStrings(values)) Object.assign(out, { type: 'string', enum: [...values] });
    else if (values) notes.push(['allowed values', values]);
  }
  if (typeof node.title === 'string') out.title = node.title;
  const description = foldNotes(node.description, notes);
  if (description !== undefined) out.description = description;
  if (isPrimitive(node.default)) out.default = node.default;
  return out;
}

function typedNode(node: Record<string, unknown>, type: string, walk: GeminiWalk, depth: number, notes: Notes): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { type };
  const values = enumOf(node);
  if (values && type === 'string' && isStrings(values)) out.enum = [...values];
  else if (values) notes.push(['allowed values', values]);
  if (typeof node.format === 'string' && (type === 'string' || type === 'number' || type === 'integer')) out.format = node.format;
  if (type === 'object') {
    // An object without `properties` (a map whose keys are data) stays without: Gemini refuses an empty list on a nested object.
    const properties = isObject(node.properties) ? node.properties : undefined;
    const mapped: Record<string, unknown> = {};
    for (const key of Object.keys(properties ?? {})) {
      const property = geminiNode(properties?.[key], walk, depth + 1);
      if (!property) return undefined;
      setOwn(mapped, key, property);
    }
    if (properties) out.properties = mapped;
    const required = isStrings(node.required) ? [...new Set(node.required.filter((key) => Object.hasOwn(mapped, key)))] : [];
    if (required.length > 0) out.required = required;
    if (typeof node.additionalProperties === 'boolean') out.additionalProperties = node.additionalProperties;
    else if (isObject(node.additionalProperties)) {
      const other = geminiNode(node.additionalProperties, walk, depth + 1);
      if (!other) return undefined;
      out.additionalProperties = other;
    }
    copyNumbers(node, out, ['minProperties', 'maxProperties']);
  } else if (type === 'array') {
    if (isObject(node.items) || node.items === true) {
      const items = geminiNode(node.items, walk, depth + 1);
      if (!items) return undefined;
      out.items = items;
    } else if (node.items !== undefined) {
      notes.push(['items', node.items]);
    }
    if (Array.isArray(node.prefixItems)) {
      const prefix = node.prefixItems.map((item) => geminiNode(item, walk, depth + 1));
      if (prefix.some((item) => item === undefined)) return undefined;
      out.prefixItems = prefix;
    }
    copyNumbers(node, out, ['minItems', 'maxItems']);
  } else if (type === 'string') {
    if (typeof node.pattern === 'string') out.pattern = node.pattern;
    copyNumbers(node, out, ['minLength', 'maxLength']);
  } else if (type === 'number' || type === 'integer') {
    copyNumbers(node, out, ['minimum', 'maximum']);
    for (const [exclusive, inclusive, step] of EXCLUSIVE) {
      const bound = node[exclusive];
      if (typeof bound !== 'number') continue;
      if (type === 'integer' && Number.isSafeInteger(bound)) {
        const own = out[inclusive];
        const tighter = bound + step;
        out[inclusive] = typeof own !== 'number' ? tighter : step > 0 ? Math.max(own, tighter) : Math.min(own, tighter);
      } else {
        notes.push([exclusive, bound]);
      }
    }
  }
  return out;
}

// The types a node allows: its `type` (string or list), or what its keywords imply.
function typesOf(node: Record<string, unknown>): string[] {
  const declared = typeof node.type === 'string' ? [node.type] : isStrings(node.type) ? node.type : [];
  // OpenAPI's `nullable: true`, which some servers write, is JSON Schema's null type.
  const known = [...new Set([...declared, ...(node.nullable === true && declared.length > 0 ? ['null'] : [])].filter((type) => TYPES.has(type)))];
  if (known.length > 0) return known;
  if (isObject(node.properties)) return ['object'];
  if (isObject(node.items)) return ['array'];
  return [];
}

function enumOf(node: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(node.enum)) return node.enum;
  return Object.hasOwn(node, 'const') ? [node.const] : undefined;
}

function copyNumbers(from: Record<string, unknown>, to: Record<string, unknown>, keywords: readonly string[]): void {
  for (const keyword of keywords) if (typeof from[keyword] === 'number') to[keyword] = from[keyword];
}

function isPrimitive(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
