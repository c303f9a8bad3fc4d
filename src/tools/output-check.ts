import type * as JsonSchemaLibrary from '@cfworker/json-schema';
import { quote } from '../util/quote.js';
import { messageOf } from '../util/values.js';

// A tool's outputSchema and its structuredContent both come from the server
// (as do an inputSchema and, from a model, the arguments checked against it),
// and the validator (@cfworker/json-schema) recurses over both. So the schema
// is read first, iteratively and within bounds, into a copy the validator may
// annotate (it adds properties to the schema objects it is given); and what
// it asks of the call stack and of the clock is bounded before and while it
// runs. A schema or a value past a bound is not checked, and the call fails
// (closed) saying why.

type Library = typeof JsonSchemaLibrary;
type Json = Record<string, unknown>;

/** The most levels of nesting an outputSchema may have (every value counts, `const` and `default` too). */
const SCHEMA_DEPTH = 64;
/** The most values (objects, arrays, primitives) an outputSchema may hold. */
const SCHEMA_VALUES = 20_000;
/** The most subschemas with an `$id` of their own: the validator walks each such subtree again, so nesting them costs twice per level. */
const SCHEMA_IDS = 4;
/**
 * The most nested validator calls one check may make. Each takes a large
 * stack frame: Node's default stack holds about 550; a third of that
 * leaves room for whatever called the check.
 */
const FRAMES = 200;
/** Validator steps (subschema applications) a check may take: a base, more for each value checked, and a ceiling. */
const STEPS_BASE = 20_000;
const STEPS_PER_VALUE = 10;
const STEPS_MAX = 4_000_000;
/** `uniqueItems` compares every pair of items, outside the step count: the most pairs a check may compare. */
const UNIQUE_PAIRS = 10_000_000;

// Subschemas applied to the same value as the schema holding them: a chain
// of these does not descend into the value, so a cycle of them never ends.
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'];

// The validator applies every keyword it knows whatever the dialect it is
// told, so the keywords a dialect does not have (unknown keywords there, which
// change nothing) are left out of the copy it is given.
const AFTER_07 = ['prefixItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains'];
const DROPPED: Record<JsonSchemaLibrary.SchemaDraft, ReadonlySet<string>> = {
  '4': new Set([...AFTER_07, '$recursiveRef', '$recursiveAnchor']),
  '7': new Set([...AFTER_07, '$recursiveRef', '$recursiveAnchor']),
  '2019-09': new Set(['prefixItems', 'dependencies', '$dynamicRef', '$dynamicAnchor']),
  '2020-12': new Set(['additionalItems', 'dependencies', '$recursiveRef', '$recursiveAnchor']),
};
// Keywords the validator does not follow (or follows past the bounds kept
// here) although the dialect has them: a schema using one is not checked.
const UNFOLLOWED: Partial<Record<JsonSchemaLibrary.SchemaDraft, readonly string[]>> = {
  '2019-09': ['$recursiveRef'],
  '2020-12': ['$dynamicRef'],
};

/**
 * The `$schema` URIs of the dialects an outputSchema is checked in (with or
 * without the empty fragment). A schema without `$schema` is 2020-12, as MCP
 * has it since 2025-11-25.
 */
const DIALECTS: ReadonlyMap<string, JsonSchemaLibrary.SchemaDraft> = new Map([
  ['http://json-schema.org/draft-07/schema', '7'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
]);

/** The dialect a schema declares with `$schema` (2020-12 when it declares none), or `undefined` for one this client does not check in. */
export function dialectOf(schema: unknown): JsonSchemaLibrary.SchemaDraft | undefined {
  if (typeof schema !== 'object' || schema === null || !Object.hasOwn(schema, '$schema')) return '2020-12';
  const declared = (schema as Json).$schema;
  if (typeof declared !== 'string') return undefined;
  return DIALECTS.get(declared.endsWith('#') ? declared.slice(0, -1) : declared);
}

/** Thrown from inside the validator when a check runs out of steps. */
const OUT_OF_STEPS = Symbol('out of steps');

/** The result of checking a value: `undefined` when it matches, else what breaks the schema or why it was not checked. */
export type Verdict = undefined | { problem: 'mismatch' | 'unchecked'; violation: string };

/** A compiled schema: checks one value. */
export type Checker = (value: unknown) => Verdict;

let loading: Promise<Library> | undefined;

/**
 * The validator, loaded on first need: a client whose servers declare no
 * outputSchema, and whose bridge checks no arguments, never loads it. A failed load is forgotten, so a later check
 * tries again.
 */
export function loadValidator(): Promise<Library> {
  if (!loading) {
    const load = import('@cfworker/json-schema');
    loading = load;
    load.catch(() => {
      if (loading === load) loading = undefined;
    });
  }
  return loading;
}

/** What a checked schema and the value it checks are called in the sentences a check writes. */
export interface Subject {
  /** The schema: `outputSchema`, `inputSchema`. */
  schema: string;
  /** The value: `structuredContent`, `the arguments`. */
  value: string;
  /** The JSON Schema version to read the schema as. */
  draft: JsonSchemaLibrary.SchemaDraft;
}

const OUTPUT: Omit<Subject, 'draft'> = { schema: 'outputSchema', value: 'structuredContent' };

/**
 * Compiles an outputSchema with the validator: the checker, or a sentence
 * saying why the schema cannot be checked (too deep, too large, a `$ref` that
 * points outside it, which is never fetched, or a `$ref` cycle that never
 * descends into the value).
 */
export function compileOutputSchema(library: Library, schema: unknown): Checker | string {
  const draft = dialectOf(schema);
  if (draft === undefined) return unsupportedDialect(schema);
  return compileSchema(library, schema, { ...OUTPUT, draft });
}

/** Why a schema with a `$schema` this client does not check in is not checked. */
export function unsupportedDialect(schema: unknown): string {
  const declared = (schema as Json).$schema;
  const named = typeof declared === 'string' ? quote(declared) : declared === null ? 'null' : `of type ${typeof declared}`;
  return `its outputSchema declares a JSON Schema dialect this client does not support ($schema is ${named}; supported: draft-07, 2019-09, 2020-12)`;
}

/** Compiles any schema a server sent, within the same bounds as an outputSchema; `subject` names it in what the check says. */
export function compileSchema(library: Library, schema: unknown, subject: Subject): Checker | string {
  // The step counter rides on a property the validator (4.1.6, pinned)
  // reads from every object subschema it applies; the hostile corpus's
  // exponential-output-schema case fails if that stops being so.
  const steps = { left: 0 };
  const copied = copySchema(library, schema, subject, () => {
    if (--steps.left < 0) throw OUT_OF_STEPS;
    return undefined;
  });
  if (typeof copied === 'string') return copied;
  const { root, schemas } = copied;
  let lookup: Record<string, unknown>;
  try {
    lookup = library.dereference(root as JsonSchemaLibrary.Schema);
  } catch (error) {
    return `its ${subject.schema} could not be read: ${quote(messageOf(error))}`;
  }
  for (const subschema of schemas) {
    if (subschema.$ref === undefined) continue;
    const target = (subschema as { __absolute_ref__?: string }).__absolute_ref__;
    if (typeof subschema.$ref !== 'string' || target === undefined || lookup[target] === undefined) {
      return `its ${subject.schema} has a $ref outside itself (never fetched): ${quote(subschema.$ref)}`;
    }
  }
  const chain = longestChain(schemas, (subschema) => sameValueChildren(subschema, lookup));
  if (chain === undefined) return `its ${subject.schema} has a $ref cycle that never descends into the value`;
  if (chain + 1 > FRAMES) return `its ${subject.schema} chains more than ${FRAMES} subschemas on one value`;
  const unique = schemas.some((subschema) => subschema.uniqueItems);
  return (value) => {
    const shape = measure(value);
    // A level of the value takes one validator call, plus one per subschema
    // chained on it; comparing values (const, enum, uniqueItems) one per level.
    if (shape.depth >= FRAMES || (shape.depth + 1) * (chain + 1) + shape.depth > FRAMES) {
      return { problem: 'unchecked', violation: `${subject.value} nests too deep (${shape.depth >= FRAMES ? `over ${FRAMES}` : shape.depth} levels) to check against this schema` };
    }
    if (unique && shape.pairs > UNIQUE_PAIRS) {
      return { problem: 'unchecked', violation: `${subject.value} has arrays too long to check uniqueItems on` };
    }
    steps.left = Math.min(STEPS_MAX, STEPS_BASE + STEPS_PER_VALUE * shape.values);
    let result: JsonSchemaLibrary.ValidationResult;
    try {
      result = library.validate(value, root as JsonSchemaLibrary.Schema, subject.draft, lookup as Record<string, JsonSchemaLibrary.Schema>, true);
    } catch (error) {
      const why = error === OUT_OF_STEPS ? 'checking it would take too many steps' : `the validator failed: ${quote(messageOf(error))}`;
      return { problem: 'unchecked', violation: why };
    }
    if (result.valid) return undefined;
    // The last unit is the innermost: the keyword that failed, where it failed.
    const unit = result.errors[result.errors.length - 1];
    if (!unit) return { problem: 'mismatch', violation: 'the validator named no keyword' };
    return { problem: 'mismatch', violation: `at ${quote(unit.instanceLocation)} (${quote(unit.keywordLocation)}): ${quote(unit.error)}` };
  };
}

/** One value still to copy: where it goes, and how the validator reads it. */
interface Pending {
  value: unknown;
  depth: number;
  /** `schema`: a (sub)schema; `map`: an object or list of subschemas; `list`: a list of subschemas; `data`: a value (`const`, `enum`, …). */
  kind: 'schema' | 'map' | 'list' | 'data';
  parent: Json | unknown[];
  key: string | number;
}

/**
 * Copies a schema document, iteratively and within bounds, into objects
 * without a prototype (so that no key, `__proto__` included, is anything but
 * a key), telling subschemas apart from data as the validator does, and
 * giving every subschema the step counter the validator reads on each call.
 */
function copySchema(library: Library, schema: unknown, subject: Subject, tick: () => undefined): { root: unknown; schemas: Json[] } | string {
  const { ignoredKeyword, schemaArrayKeyword, schemaMapKeyword } = library;
  const { schema: name, draft } = subject;
  const dropped = DROPPED[draft];
  const unfollowed = UNFOLLOWED[draft] ?? [];
  const holder: Json = {};
  const schemas: Json[] = [];
  const stack: Pending[] = [{ value: schema, depth: 0, kind: 'schema', parent: holder, key: 'root' }];
  let values = 1;
  let ids = 0;
  while (stack.length > 0) {
    const { value, depth, kind, parent, key } = stack.pop() as Pending;
    if (depth > SCHEMA_DEPTH) return `its ${name} nests deeper than ${SCHEMA_DEPTH} levels`;
    if (typeof value !== 'object' || value === null) {
      (parent as Json)[key] = value;
      continue;
    }
    values += Array.isArray(value) ? value.length : Object.keys(value).length;
    if (values > SCHEMA_VALUES) return `its ${name} holds more than ${SCHEMA_VALUES} values`;
    const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value as Json);
    const copy: Json | unknown[] = Array.isArray(value) ? [] : (Object.create(null) as Json);
    (parent as Json)[key] = copy;
    const isSchema = kind === 'schema' && !Array.isArray(value);
    if (isSchema) {
      schemas.push(copy as Json);
      Object.defineProperty(copy, '__absolute_recursive_ref__', { get: tick, configurable: true });
      const own = value as Json;
      if (depth > 0 && (own.$id || own.id) && ++ids > SCHEMA_IDS) return `its ${name} has more than ${SCHEMA_IDS} subschemas with an $id`;
    }
    for (const [member, inner] of entries) {
      let innerKind: Pending['kind'] = 'data';
      if (kind === 'map' || kind === 'list') innerKind = 'schema';
      else if (isSchema) {
        const name = member as string;
        if (dropped.has(name) || name.startsWith('__absolute_')) continue;
        // A server's regular expression is never run: one that backtracks can
        // hold the thread for longer than any bound kept here, and nothing can
        // stop a regex midway. A pattern left out only lets more through;
        // patternProperties cannot be left out so (additionalProperties would
        // then judge the keys it names), so its schema is not checked at all.
        if (name === 'pattern') continue;
        if (name === 'patternProperties') return `its ${subject.schema} uses patternProperties, whose regular expressions this client does not run`;
        if (unfollowed.includes(name)) return `its ${subject.schema} uses ${name}, which this client does not follow`;
        // 2020-12 has only the one-schema form of items (a list is prefixItems there).
        if (name === 'items' && draft === '2020-12' && Array.isArray(inner)) {
          return `its ${subject.schema} gives items a list, which JSON Schema 2020-12 does not allow (prefixItems is the 2020-12 form)`;
        }
        // A map keyword holding a list is no map to the validator's reader, but
        // its checker reads the list's members as subschemas: so do we.
        if (ignoredKeyword[name]) innerKind = 'data';
        else if (schemaMapKeyword[name]) innerKind = 'map';
        else if (Array.isArray(inner)) innerKind = schemaArrayKeyword[name] ? 'list' : 'data';
        else innerKind = 'schema';
      }
      stack.push({ value: inner, depth: depth + 1, kind: innerKind, parent: copy, key: member });
    }
  }
  return { root: holder.root, schemas };
}

/** The subschemas `schema` applies to the value it is applied to, its `$ref` target included. */
function sameValueChildren(schema: Json, lookup: Record<string, unknown>): object[] {
  const children: unknown[] = [];
  const target = (schema as { __absolute_ref__?: string }).__absolute_ref__;
  if (schema.$ref !== undefined && target !== undefined) children.push(lookup[target]);
  for (const name of SAME_VALUE_ONE) children.push(schema[name]);
  for (const name of SAME_VALUE_LIST) if (Array.isArray(schema[name])) children.push(...(schema[name] as unknown[]));
  for (const name of SAME_VALUE_MAP) {
    const map = schema[name];
    if (typeof map === 'object' && map !== null && !Array.isArray(map)) children.push(...Object.values(map));
  }
  return children.filter((child): child is object => typeof child === 'object' && child !== null && !Array.isArray(child));
}

/**
 * The longest chain of same-value subschemas from any schema, walked
 * iteratively; `undefined` when there is a cycle.
 */
function longestChain(schemas: readonly object[], childrenOf: (schema: Json) => object[]): number | undefined {
  const done = new Map<object, number>();
  const open = new Set<object>();
  let longest = 0;
  for (const start of schemas) {
    if (done.has(start)) continue;
    const stack = [{ node: start, children: childrenOf(start as Json), next: 0 }];
    open.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const child = top.children[top.next++];
      if (child !== undefined) {
        if (open.has(child)) return undefined;
        if (!done.has(child)) {
          open.add(child);
          stack.push({ node: child, children: childrenOf(child as Json), next: 0 });
        }
        continue;
      }
      let chain = 0;
      for (const inner of top.children) chain = Math.max(chain, 1 + (done.get(inner) ?? 0));
      done.set(top.node, chain);
      open.delete(top.node);
      longest = Math.max(longest, chain);
      stack.pop();
    }
  }
  return longest;
}

/**
 * How deep a value nests (up to `FRAMES`, where measuring stops), how many
 * values it holds, and how many pairs of items its arrays have, walked
 * iteratively.
 */
function measure(value: unknown): { depth: number; values: number; pairs: number } {
  let depth = 0;
  let values = 1;
  let pairs = 0;
  // Only containers wait on the stack: a long list of numbers costs a count, not an entry each.
  const stack: Array<{ value: object; depth: number }> = typeof value === 'object' && value !== null ? [{ value, depth: 0 }] : [];
  while (stack.length > 0) {
    const top = stack.pop() as { value: object; depth: number };
    const inner = Array.isArray(top.value) ? top.value : Object.values(top.value);
    if (Array.isArray(top.value)) pairs += (inner.length * (inner.length - 1)) / 2;
    values += inner.length;
    if (inner.length > 0 && top.depth + 1 > depth) depth = top.depth + 1;
    if (depth >= FRAMES) break;
    for (const item of inner) if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: top.depth + 1 });
  }
  return { depth, values, pairs };
}
