import { isObject } from '../util/values.js';

// The list pages' shapes, checked by hand rather than by zod: a catalogue is
// re-read whenever a server says it changed, and its pages are the largest
// results there are. Like the zod schemas in `schemas.ts`, each rule checks
// the members the client relies on and lets everything else through, and
// the result is handed on as it came (nothing is copied).

/** A rule for one value: a primitive kind, an object's fields, a list, or an optional one. */
type Rule = 'string' | 'boolean' | 'object' | { fields: Readonly<Record<string, Rule>> } | { each: Rule } | { optional: Rule };

const optional = (rule: Rule): Rule => ({ optional: rule });
const fields = (members: Record<string, Rule>): Rule => ({ fields: members });
const each = (rule: Rule): Rule => ({ each: rule });

/** What is wrong with a value, found at `path` (built only when something is wrong). */
interface Problem {
  path: string[];
  expected: string;
}

/** Checks one result against a page's shape: the first problem as `path: expected …`, or undefined. */
export type PageShape = (result: Record<string, unknown>) => string | undefined;

function problemIn(value: unknown, rule: Rule): Problem | undefined {
  if (rule === 'string' || rule === 'boolean') return typeof value === rule ? undefined : { path: [], expected: `a ${rule}` };
  if (rule === 'object') return isObject(value) ? undefined : { path: [], expected: 'an object' };
  if ('optional' in rule) return value === undefined ? undefined : problemIn(value, rule.optional);
  if ('each' in rule) {
    if (!Array.isArray(value)) return { path: [], expected: 'an array' };
    for (let i = 0; i < value.length; i++) {
      const problem = problemIn(value[i], rule.each);
      if (problem) return within(String(i), problem);
    }
    return undefined;
  }
  if (!isObject(value)) return { path: [], expected: 'an object' };
  for (const key in rule.fields) {
    const problem = problemIn(value[key], rule.fields[key] as Rule);
    if (problem) return within(key, problem);
  }
  return undefined;
}

function within(segment: string, problem: Problem): Problem {
  problem.path.unshift(segment);
  return problem;
}

function page(key: string, item: Rule): PageShape {
  const rule = fields({ [key]: each(item), nextCursor: optional('string') });
  return (result) => {
    const problem = problemIn(result, rule);
    return problem && `${problem.path.join('.') || '(root)'}: expected ${problem.expected}`;
  };
}

const text = optional('string');
const flag = optional('boolean');

export const toolPage = page(
  'tools',
  fields({
    name: 'string',
    title: text,
    description: text,
    inputSchema: 'object',
    outputSchema: optional('object'),
    annotations: optional(
      fields({ title: text, readOnlyHint: flag, destructiveHint: flag, idempotentHint: flag, openWorldHint: flag }),
    ),
  }),
);

export const resourcePage = page('resources', fields({ uri: 'string', name: 'string', title: text, description: text, mimeType: text }));

export const resourceTemplatePage = page(
  'resourceTemplates',
  fields({ uriTemplate: 'string', name: 'string', title: text, description: text, mimeType: text }),
);

export const promptPage = page(
  'prompts',
  fields({
    name: 'string',
    title: text,
    description: text,
    arguments: optional(each(fields({ name: 'string', description: text, required: flag }))),
  }),
);
