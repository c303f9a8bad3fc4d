import { resolveLocalRef, setOwn } from '../util/schema-refs.js';
import { isObject } from '../util/values.js';

// How far into the arguments (and the schema beside them) nulls are looked
// for, and how many references one question may follow: both past anything
// a real tool declares, and small enough for a hostile schema or model.
const MAX_DEPTH = 32;
const MAX_REF_HOPS = 16;

/**
 * The arguments without the `null`s that stand for "not given": a member
 * whose value is `null` where the tool's own input schema does not accept
 * `null` is left out. A model in OpenAI's strict mode answers every optional
 * member, with `null` for those it means to leave out; other models do the
 * same unprompted. Where the schema accepts `null`, cannot be read, or says
 * nothing about a member, the value stays as the model sent it.
 *
 * Returns the same object when nothing is dropped (the common case costs one
 * pass over the top-level members); otherwise a copy, changed only along the
 * paths that held such a `null`. Local `$ref`s are followed; remote ones are
 * not (and then the `null` stays).
 */
export function dropAbsentNulls(args: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  return pruneObject(args, schema, schema, 0);
}

function pruneObject(value: Record<string, unknown>, schema: unknown, root: unknown, depth: number): Record<string, unknown> {
  const properties = depth > MAX_DEPTH ? undefined : propertiesOf(schema, root);
  if (!properties) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key)) continue;
    const inner = value[key];
    const member = properties[key];
    if (inner === null) {
      if (acceptsNull(member, root, 0)) continue;
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    const next = prune(inner, member, root, depth + 1);
    if (next !== inner) {
      copy ??= { ...value };
      setOwn(copy, key, next);
    }
  }
  return copy ?? value;
}

function prune(value: unknown, schema: unknown, root: unknown, depth: number): unknown {
  if (isObject(value)) return pruneObject(value, schema, root, depth);
  if (!Array.isArray(value) || depth > MAX_DEPTH) return value;
  const items = itemsOf(schema, root);
  if (items === undefined) return value;
  let copy: unknown[] | undefined;
  value.forEach((item, index) => {
    const next = prune(item, items, root, depth + 1);
    if (next !== item) (copy ??= [...value])[index] = next;
  });
  return copy ?? value;
}

/** The schema itself, or what its local `$ref` chain leads to. */
function deref(schema: unknown, root: unknown): unknown {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops++) {
    if (hops === MAX_REF_HOPS) return undefined;
    node = resolveLocalRef(root, node.$ref);
  }
  return node;
}

// The members an object schema describes: its own `properties`, or those of
// the one object branch of an `anyOf`/`oneOf` (an optional nested object) or
// of a single `allOf`.
function propertiesOf(schema: unknown, root: unknown): Record<string, unknown> | undefined {
  const node = deref(schema, root);
  if (!isObject(node)) return undefined;
  if (isObject(node.properties)) return node.properties;
  const branches = [node.anyOf, node.oneOf, node.allOf].find((list) => Array.isArray(list)) as unknown[] | undefined;
  const withProperties = (branches ?? []).map((branch) => deref(branch, root)).filter((branch) => isObject(branch) && isObject(branch.properties));
  return withProperties.length === 1 ? ((withProperties[0] as Record<string, unknown>).properties as Record<string, unknown>) : undefined;
}

function itemsOf(schema: unknown, root: unknown): unknown {
  const node = deref(schema, root);
  if (!isObject(node)) return undefined;
  if (isObject(node.items)) return node.items;
  const branches = [node.anyOf, node.oneOf].find((list) => Array.isArray(list)) as unknown[] | undefined;
  const withItems = (branches ?? []).map((branch) => deref(branch, root)).filter((branch) => isObject(branch) && isObject(branch.items));
  return withItems.length === 1 ? (withItems[0] as Record<string, unknown>).items : undefined;
}

/** Whether a schema lets `null` through; true whenever it cannot be told (so the value is kept). */
function acceptsNull(schema: unknown, root: unknown, depth: number): boolean {
  if (schema === false) return false;
  const node = depth > MAX_DEPTH ? undefined : deref(schema, root);
  if (!isObject(node)) return true;
  if (node.nullable === true) return true;
  const { type } = node;
  if (typeof type === 'string' && type !== 'null') return false;
  if (Array.isArray(type) && !type.includes('null')) return false;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if ('const' in node && node.const !== null) return false;
  const some = (list: unknown) => !Array.isArray(list) || list.some((branch) => acceptsNull(branch, root, depth + 1));
  const every = (list: unknown) => !Array.isArray(list) || list.every((branch) => acceptsNull(branch, root, depth + 1));
  return some(node.anyOf) && some(node.oneOf) && every(node.allOf);
}
