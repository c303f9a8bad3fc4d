import { isObject } from '../util/values.js';

// Shapes checked by hand rather than by zod, for everything the root entry
// reads from a server or a hook: zod is about a hundred files for Node to
// find and compile, a third of what `import('rxmcp')` loaded (PERFORMANCE.md,
// "Fourth pass"). Each rule accepts exactly what the zod schema it replaced
// (`z.string()`, `z.looseObject(…)`, `z.record(z.string(), z.unknown())`, …)
// accepted; the value is handed on as it came (zod handed on a copy), except
// that an object a `fields` or `record` rule accepts loses an own `__proto__`
// member, as zod's copies lost it: no result has a use for one, and code
// that copies the object by assignment (a host behind the gateway, a
// user's `Object.assign`) would take it for the copy's prototype. So a
// shape is for values that are the client's own: parsed from the wire, or
// a hook's answer already written to JSON and read back.
//
// A shape is compiled once, at load, into a tree of small functions (one per
// rule, an object's fields an array walked by index): walking the rules
// themselves per value cost a forced `listTools` more than the rest of the
// client's path together. The checks go as deep as the rules, never deeper
// into the value, so there is no recursion a value can drive.

/** What is wrong with a value, found at `path` (built only when something is wrong). */
interface Problem {
  path: string[];
  expected: string;
}

/** A compiled rule: the problem with a value, or undefined. */
export type Rule = (value: unknown) => Problem | undefined;

/** Checks a value against a shape: the first problem as `path: expected …`, or undefined when it fits. */
export type Shape = (value: unknown) => string | undefined;

const wrong = (expected: string): Problem => ({ path: [], expected });

/** A string (`z.string()`). */
export const string: Rule = (value) => (typeof value === 'string' ? undefined : wrong('a string'));

/** A boolean (`z.boolean()`). */
export const boolean: Rule = (value) => (typeof value === 'boolean' ? undefined : wrong('a boolean'));

/** A finite number (`z.number()`, which refuses NaN and the infinities). */
export const number: Rule = (value) => (typeof value === 'number' && Number.isFinite(value) ? undefined : wrong('a finite number'));

/** Any object that is not an array, whatever its members. */
export const object: Rule = (value) => (isObject(value) ? undefined : wrong('an object'));

/**
 * A plain object with string keys, whatever its values
 * (`z.record(z.string(), z.unknown())`): no array, no class instance (a
 * `Map`, a `Date`), and no enumerable symbol key of its own.
 */
export const record: Rule = (value) => {
  if (!isPlainObject(value) || hasSymbolKey(value)) return wrong('a plain object');
  dropOwnProto(value);
  return undefined;
};

/**
 * Any value, present: in a `fields` rule, the member must be there
 * (`z.unknown()` as a member), even if it is `undefined`.
 */
export const present: Rule = () => undefined;

/** Absent or `undefined`, or what `rule` accepts (`.optional()`). */
export function optional(rule: Rule): Rule {
  return (value) => (value === undefined ? undefined : rule(value));
}

/** `null`, or what `rule` accepts (`.nullable()`). */
export function nullable(rule: Rule): Rule {
  return (value) => (value === null ? undefined : rule(value));
}

/** One of a few strings (`z.enum([...])`). */
export function oneOf(values: readonly string[]): Rule {
  const allowed = new Set<unknown>(values);
  const expected = `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  return (value) => (allowed.has(value) ? undefined : wrong(expected));
}

/** An array whose every item `rule` accepts (`z.array(…)`). */
export function each(rule: Rule): Rule {
  return (value) => {
    if (!Array.isArray(value)) return wrong('an array');
    for (let i = 0; i < value.length; i++) {
      const problem = rule(value[i]);
      if (problem) return within(String(i), problem);
    }
    return undefined;
  };
}

/**
 * An object (not an array) whose named members each fit their rule, any
 * other member let through (`z.looseObject({...})`). A member is read as
 * zod read it, `value[key]`; only `present` asks whether it is there.
 */
export function fields(members: Record<string, Rule>): Rule {
  const keys = Object.keys(members);
  const rules = keys.map((key) => members[key] as Rule);
  const required = rules.map((rule) => rule === present);
  return (value) => {
    if (!isObject(value)) return wrong('an object');
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (required[i]) {
        if (!(key in value)) return within(key, wrong('a value'));
        continue;
      }
      const problem = (rules[i] as Rule)(value[key]);
      if (problem) return within(key, problem);
    }
    dropOwnProto(value);
    return undefined;
  };
}

/** The shape a rule describes, its first problem said as `path: expected …`. */
export function shape(rule: Rule): Shape {
  return (value) => {
    const problem = rule(value);
    return problem && `${problem.path.join('.') || '(root)'}: expected ${problem.expected}`;
  };
}

// One `hasOwn` per object accepted: a JSON "__proto__" key is an own data
// member, which `delete` removes without touching the real prototype.
function dropOwnProto(value: Record<string, unknown>): void {
  if (Object.hasOwn(value, '__proto__')) delete value['__proto__'];
}

function within(segment: string, problem: Problem): Problem {
  problem.path.unshift(segment);
  return problem;
}

// As zod's record tells a plain object from a class instance: no
// constructor, or one that is not a function, or one whose prototype owns
// `isPrototypeOf` (Object's, in any realm). A constructor from JSON is data.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

function hasSymbolKey(value: object): boolean {
  for (const symbol of Object.getOwnPropertySymbols(value)) if (Object.prototype.propertyIsEnumerable.call(value, symbol)) return true;
  return false;
}
