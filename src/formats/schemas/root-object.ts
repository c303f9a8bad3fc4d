import { setOwn } from '../../util/schema-refs.js';
import { isObject, isStrings } from '../../util/values.js';
import { foldNotes } from './fold.js';

// Past this many subschemas, or this deep, the walk that adds missing
// `items` stops looking: what lies beyond is left as the server wrote it.
const MAX_NODES = 10_000;
const MAX_DEPTH = 64;

// Where subschemas sit, as the checkers of every vendor walk them.
const ONE = ['items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalProperties'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

// Keywords OpenAI refuses at the root of `parameters` (Anthropic refuses the combinators).
const ROOT_REFUSED = ['anyOf', 'oneOf', 'allOf', 'enum', 'not'];

type Json = Record<string, unknown>;
type Step = string | number;

/**
 * A tool's input schema as OpenAI's function calling and Anthropic's
 * `input_schema` take it at the root: `type: 'object'`, no
 * `anyOf`/`oneOf`/`allOf`/`enum`/`not` there, and every array schema with
 * `items` (`items: {}` where the server wrote none).
 *
 * A root union of object schemas becomes one object whose properties are
 * those of every branch (a property two branches write differently accepts
 * either), required only where every branch requires it, the union itself
 * said in the description; a root `allOf` of objects is merged the same
 * way, its requirements added up. A schema that already fits is returned
 * as it is, the same object: ordinary servers' declarations do not change.
 */
export function toRootObject(schema: Json): Json {
  const fitsRoot = schema.type === 'object' && !ROOT_REFUSED.some((keyword) => Object.hasOwn(schema, keyword));
  const root = fitsRoot ? schema : objectRoot(schema);
  return withItems(root);
}

function objectRoot(schema: Json): Json {
  const notes: Array<[string, unknown]> = [];
  const out: Json = {};
  for (const key of Object.keys(schema)) if (!ROOT_REFUSED.includes(key) && key !== 'description') setOwn(out, key, schema[key]);
  out.type = 'object';
  const properties: Json = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(isStrings(schema.required) ? schema.required : []);

  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) {
    const branches = union.filter(isObject);
    for (const branch of branches) mergeProperties(properties, branch);
    // Required only where every branch requires it: arguments meeting one branch must meet the merged object.
    const everywhere = branches.length === 0 ? [] : branches.map((branch) => new Set(isStrings(branch.required) ? branch.required : []));
    for (const key of everywhere[0] ?? []) if (everywhere.every((set) => set.has(key))) required.add(key);
    notes.push(['the arguments match one of', union]);
  }
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf.filter(isObject)) {
      mergeProperties(properties, member);
      for (const key of isStrings(member.required) ? member.required : []) required.add(key);
    }
    notes.push(['the arguments match all of', schema.allOf]);
  }
  for (const keyword of ['enum', 'not']) if (Object.hasOwn(schema, keyword)) notes.push([keyword, schema[keyword]]);

  if (Object.keys(properties).length > 0 || isObject(schema.properties)) out.properties = properties;
  const listed = [...required];
  if (listed.length > 0) out.required = listed;
  else delete out.required;
  const description = foldNotes(schema.description, notes);
  if (description !== undefined) out.description = description;
  return out;
}

// A property two schemas write differently accepts what either says.
function mergeProperties(into: Json, from: Json): void {
  if (!isObject(from.properties)) return;
  for (const key of Object.keys(from.properties)) {
    const schema = from.properties[key];
    if (!Object.hasOwn(into, key)) setOwn(into, key, schema);
    else if (JSON.stringify(into[key]) !== JSON.stringify(schema)) setOwn(into, key, { anyOf: [into[key], schema] });
  }
}

/** The schema with `items: {}` on every array schema that has neither `items` nor `prefixItems`; the same object when none lacks it. */
function withItems(root: Json): Json {
  const missing: Step[][] = [];
  const seen = new Set<Json>();
  const stack: Array<{ node: Json; path: Step[] }> = [{ node: root, path: [] }];
  while (stack.length > 0 && seen.size < MAX_NODES) {
    const { node, path } = stack.pop() as { node: Json; path: Step[] };
    if (seen.has(node)) continue;
    seen.add(node);
    const types = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.includes('array') && node.items === undefined && node.prefixItems === undefined) missing.push(path);
    if (path.length >= MAX_DEPTH) continue;
    for (const keyword of ONE) if (isObject(node[keyword])) stack.push({ node: node[keyword] as Json, path: [...path, keyword] });
    for (const keyword of LIST) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((child, index) => isObject(child) && stack.push({ node: child, path: [...path, keyword, index] }));
    }
    for (const keyword of MAP) {
      const map = node[keyword];
      if (isObject(map)) for (const key of Object.keys(map)) if (isObject(map[key])) stack.push({ node: map[key] as Json, path: [...path, keyword, key] });
    }
  }
  if (missing.length === 0) return root;
  // Copy only what lies on the way to a node that changes; the rest is shared with the server's schema.
  const copies = new Map<unknown, unknown>();
  const copyOf = (value: unknown): unknown => {
    let copy = copies.get(value);
    if (copy === undefined) {
      copy = Array.isArray(value) ? [...value] : copyObject(value as Json);
      copies.set(value, copy);
    }
    return copy;
  };
  const out = copyOf(root) as Json;
  for (const path of missing) {
    let copy: unknown = out;
    let original: unknown = root;
    for (const step of path) {
      original = (original as Record<Step, unknown>)[step];
      const child = copyOf(original);
      if (Array.isArray(copy)) copy[step as number] = child;
      else setOwn(copy as Json, String(step), child);
      copy = child;
    }
    (copy as Json).items = {};
  }
  return out;
}

function copyObject(value: Json): Json {
  const copy: Json = {};
  for (const key of Object.keys(value)) setOwn(copy, key, value[key]);
  return copy;
}
