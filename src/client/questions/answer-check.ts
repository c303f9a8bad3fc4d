// The one check an accepted form answer passes before it is sent: does it
// keep to the server's requestedSchema, the restricted subset the spec
// allows (2025-11-25 and 2026-07-28 client/elicitation, "Requested Schema":
// flat objects of strings, numbers, booleans, single- and multi-select
// enums; clients use it to "validate user input before sending")? The schema
// is the server's (untrusted): it is read flat, own keys only, each rule with
// a bounded cost; nothing recurses into it, and a field whose type or
// choices it writes in a shape this client cannot read is refused, not skipped.
import { quote } from '../../util/quote.js';
import { isObject } from '../../util/values.js';

/** Why an answer breaks the schema: the field and the rule, for a message. */
export interface AnswerProblem {
  field: string;
  rule: string;
}

/**
 * The first way `content` breaks `requestedSchema`, or `undefined` when it
 * keeps to it. Checked: `required`; per field, by `type`: `string`
 * (`minLength`, `maxLength`, `format` `email`, `uri`, `date`, `date-time`,
 * `enum`, `oneOf` of `const`), `number` and `integer` (`minimum`,
 * `maximum`), `boolean`, `array` (`minItems`, `maxItems`, `items` with
 * `enum` or `anyOf` of `const`). Not checked: `pattern` (a server's regular
 * expression could run for as long as it likes), a `format` the spec does
 * not list, and fields the schema does not name (JSON Schema allows them). A field of any other type (an object,
 * say: the restricted schema has none) cannot be answered.
 */
export function checkAnswer(content: Record<string, unknown>, requestedSchema: unknown): AnswerProblem | undefined {
  const schema = isObject(requestedSchema) ? requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const field of required) {
    if (typeof field === 'string' && valueOf(content, field) === undefined) return { field, rule: 'is required' };
  }
  for (const field of Object.keys(content)) {
    const value = valueOf(content, field);
    if (value === undefined || !Object.hasOwn(properties, field)) continue;
    const rule = fieldProblem(value, properties[field]);
    if (rule !== undefined) return { field, rule };
  }
  return undefined;
}

/** An answer problem as a sentence; the field name is the server's, quoted and cut short. */
export function describeProblem(problem: AnswerProblem): string {
  return `field ${quote(problem.field)} ${problem.rule}`;
}

function valueOf(content: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(content, field) ? content[field] : undefined;
}

function fieldProblem(value: unknown, given: unknown): string | undefined {
  if (!isObject(given)) return 'has no schema this client can read';
  const type = own(given, 'type');
  switch (type) {
    case 'string':
      return typeof value === 'string' ? stringProblem(value, given) : 'must be a string';
    case 'number':
    case 'integer':
      return numberProblem(value, type, given);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'array':
      return arrayProblem(value, given);
    default:
      return `has type ${quote(type)}, which a form answer cannot have`;
  }
}

function stringProblem(value: string, schema: Record<string, unknown>): string | undefined {
  const minLength = own(schema, 'minLength');
  const maxLength = own(schema, 'maxLength');
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    // JSON Schema counts code points; past maxLength the count can stop.
    const limit = typeof maxLength === 'number' ? maxLength + 1 : Number(minLength);
    const length = codePoints(value, limit);
    if (typeof minLength === 'number' && length < minLength) return `must be at least ${minLength} characters long`;
    if (typeof maxLength === 'number' && length > maxLength) return `must be at most ${maxLength} characters long`;
  }
  const format = own(schema, 'format');
  if (format !== undefined && !formatHolds(value, format)) return `must be in format ${quote(format)}`;
  return choiceProblem(value, schema, 'enum', 'oneOf');
}

function numberProblem(value: unknown, type: 'number' | 'integer', schema: Record<string, unknown>): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return type === 'integer' ? 'must be an integer' : 'must be a number';
  if (type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
  const minimum = own(schema, 'minimum');
  const maximum = own(schema, 'maximum');
  if (typeof minimum === 'number' && value < minimum) return `must be at least ${minimum}`;
  if (typeof maximum === 'number' && value > maximum) return `must be at most ${maximum}`;
  return undefined;
}

function arrayProblem(value: unknown, schema: Record<string, unknown>): string | undefined {
  if (!Array.isArray(value)) return 'must be an array';
  const minItems = own(schema, 'minItems');
  const maxItems = own(schema, 'maxItems');
  if (typeof minItems === 'number' && value.length < minItems) return `must have at least ${minItems} choices`;
  if (typeof maxItems === 'number' && value.length > maxItems) return `must have at most ${maxItems} choices`;
  const items = own(schema, 'items');
  if (!isObject(items)) return 'has no items schema this client can read';
  const choices = choicesOf(items, 'enum', 'anyOf');
  if (choices === undefined) return 'has items that are not a list of choices';
  for (const item of value) {
    if (typeof item !== 'string' || !choices.has(item)) return `holds ${quote(item)}, which is not one of its choices`;
  }
  return undefined;
}

/** A single choice: `value` must be one of `enum`, or one `const` of `oneOf`, when the schema lists either. */
function choiceProblem(value: string, schema: Record<string, unknown>, list: string, consts: string): string | undefined {
  if (own(schema, list) === undefined && own(schema, consts) === undefined) return undefined;
  const choices = choicesOf(schema, list, consts);
  if (choices === undefined) return 'has choices this client cannot read';
  return choices.has(value) ? undefined : `must be one of its choices, not ${quote(value)}`;
}

/** The string choices of `schema[list]` (values) or `schema[consts]` (objects with `const`); `undefined` when neither reads. */
function choicesOf(schema: Record<string, unknown>, list: string, consts: string): Set<string> | undefined {
  const values = own(schema, list);
  if (Array.isArray(values)) return new Set(values.filter((choice): choice is string => typeof choice === 'string'));
  const options = own(schema, consts);
  if (!Array.isArray(options)) return undefined;
  const choices = new Set<string>();
  for (const option of options) {
    const constant = isObject(option) ? own(option, 'const') : undefined;
    if (typeof constant === 'string') choices.add(constant);
  }
  return choices;
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Code points in `text`, counting no further than `limit`. */
function codePoints(text: string, limit: number): number {
  let count = 0;
  for (const _ of text) {
    count += 1;
    if (count >= limit) break;
  }
  return count;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Whether `value` is in `format`; a format the spec does not list is not checked. */
function formatHolds(value: string, format: unknown): boolean {
  switch (format) {
    case 'email':
      // What a form can fairly ask of an address: one @, something either side, no spaces.
      return /^[^@\s]+@[^@\s]+$/.test(value);
    case 'uri':
      return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) && URL.canParse(value);
    case 'date':
      return realDate(value);
    case 'date-time': {
      const parts = DATE_TIME.exec(value);
      if (!parts || !realDate(parts[1] as string)) return false;
      return Number(parts[2]) < 24 && Number(parts[3]) < 60 && Number(parts[4]) < 61;
    }
    default:
      return true;
  }
}

function realDate(value: string): boolean {
  const parts = DATE.exec(value);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
