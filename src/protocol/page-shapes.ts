import { isObject } from '../util/values.js';

// The list pages' shapes, checked by hand rather than by zod: a catalogue is
// re-read whenever a server says it changed, and its pages are the largest
// results there are. Like the zod schemas in `schemas.ts`, each shape checks
// the members the client relies on and lets everything else through, and
// the result is handed on as it came (nothing is copied).
//
// Each shape is compiled once, at load, into a tree of small functions (one
// per rule, the fields of an object as an array walked by index): walking
// the rules themselves per item (`in` tests on the rule, `for…in` over its
// fields) cost a forced `listTools` of twenty tools more than the rest of
// the client's path together. The depth of the checks is the depth of the
// rules, never of the value.

/** What is wrong with a value, found at `path` (built only when something is wrong). */
interface Problem {
  path: string[];
  expected: string;
}

/** A compiled rule: the problem with a value, or undefined. */
type Check = (value: unknown) => Problem | undefined;

/** Checks one result against a page's shape: the first problem as `path: expected …`, or undefined. */
export type PageShape = (result: Record<string, unknown>) => string | undefined;

const wrong = (expected: string): Problem => ({ path: [], expected });

const string: Check = (value) => (typeof value === 'string' ? undefined : wrong('a string'));
const boolean: Check = (value) => (typeof value === 'boolean' ? undefined : wrong('a boolean'));
const object: Check = (value) => (isObject(value) ? undefined : wrong('an object'));

const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined ? undefined : check(value);

function each(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return wrong('an array');
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i]);
      if (problem) return within(String(i), problem);
    }
    return undefined;
  };
}

function fields(members: Record<string, Check>): Check {
  const keys = Object.keys(members);
  const checks = keys.map((key) => members[key] as Check);
  return (value) => {
    if (!isObject(value)) return wrong('an object');
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const problem = (checks[i] as Check)(value[key]);
      if (problem) return within(key, problem);
    }
    return undefined;
  };
}

function within(segment: string, problem: Problem): Problem {
  problem.path.unshift(segment);
  return problem;
}

function page(key: string, item: Check): PageShape {
  const check = fields({ [key]: each(item), nextCursor: optional(string) });
  return (result) => {
    const problem = check(result);
    return problem && `${problem.path.join('.') || '(root)'}: expected ${problem.expected}`;
  };
}

const text = optional(string);
const flag = optional(boolean);

export const toolPage = page(
  'tools',
  fields({
    name: string,
    title: text,
    description: text,
    inputSchema: object,
    outputSchema: optional(object),
    annotations: optional(fields({ title: text, readOnlyHint: flag, destructiveHint: flag, idempotentHint: flag, openWorldHint: flag })),
  }),
);

export const resourcePage = page('resources', fields({ uri: string, name: string, title: text, description: text, mimeType: text }));

export const resourceTemplatePage = page(
  'resourceTemplates',
  fields({ uriTemplate: string, name: string, title: text, description: text, mimeType: text }),
);

export const promptPage = page(
  'prompts',
  fields({
    name: string,
    title: text,
    description: text,
    arguments: optional(each(fields({ name: string, description: text, required: flag }))),
  }),
);
