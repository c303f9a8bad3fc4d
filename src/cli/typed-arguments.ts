import { UsageError } from './args.js';
import { jsonText } from './json-text.js';

// The JSON Schema types a key=value pair can be read as, tried in this order
// when a property allows several: the narrow readings first, string last
// (any text is a string).
const ORDER = ['null', 'boolean', 'integer', 'number', 'array', 'object', 'string'] as const;
type JsonType = (typeof ORDER)[number];

// How far into anyOf/oneOf/allOf a property's types are looked for: a
// server's schema may nest them, and a deep one must not cost a deep walk.
const MAX_SCHEMAS = 64;
// How many of a tool's argument names a message lists.
const MAX_NAMES = 20;

/**
 * Reads `rxmcp call TOOL key=value ...` pairs as the tool's arguments, each
 * value typed by the property of that name in the tool's input schema:
 * `string` as written, `number` and `integer` as decimal numbers, `boolean`
 * as true or false, `null` as null, `array` and `object` as JSON. A property
 * that allows several types takes the first reading that fits (null,
 * boolean, integer, number, array, object, string); one with no type takes
 * JSON when the text parses, else the text (as `--arg` does).
 *
 * @param tool the tool's name, for the messages.
 * @param schema the tool's `inputSchema`, as the server sent it.
 * @throws UsageError for a key the schema does not name (unless it allows
 *   other properties) and for a value that fits none of the property's types.
 */
export function typedArguments(tool: string, schema: unknown, pairs: ReadonlyArray<readonly [string, string]>): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const open = isRecord(schema) && schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const args: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, text] of pairs) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined && !open) {
      // A server chooses its schema: a million property names must not become a million-name message.
      const known = Object.keys(properties);
      const listed = known.slice(0, MAX_NAMES).map(shortName);
      const more = known.length > MAX_NAMES ? ` and ${known.length - MAX_NAMES} more` : '';
      throw new UsageError(`tool ${JSON.stringify(tool)} has no argument ${JSON.stringify(key)}; ${known.length ? `it takes ${listed.join(', ')}${more}` : 'it takes none'}`);
    }
    args[key] = valueFor(tool, key, text, property);
  }
  // A plain object again: the null prototype kept a key like __proto__ a
  // key, and the spread keeps it so.
  return { ...args };
}

function valueFor(tool: string, key: string, text: string, property: unknown): unknown {
  const types = typesOf(property);
  if (types.length === 0) return enumValue(property, text) ?? jsonOrText(text);
  for (const type of ORDER) {
    if (!types.includes(type)) continue;
    const value = readAs(type, text);
    if (value !== NO_FIT) return value;
  }
  throw new UsageError(`tool ${JSON.stringify(tool)} wants ${JSON.stringify(key)} as ${types.join(' or ')}, got ${JSON.stringify(text)}`);
}

const NO_FIT = Symbol('no fit');

/**
 * Checks a tool's arguments, however they were given (JSON, key=value,
 * `--arg`), against what its input schema proves: every name in its
 * top-level `required` is there, and every value whose property names its
 * types has one of them (an integer is a number too). Anything the schema
 * does not say at its top level (nested shapes, ranges, patterns) is left to
 * the server, which is the authority on its own arguments.
 *
 * @param tool the tool's name, for the messages.
 * @param schema the tool's `inputSchema`, as the server sent it.
 * @throws UsageError naming the missing arguments with their types, or the
 *   first value of a type the schema does not allow.
 */
export function checkArguments(tool: string, schema: unknown, args: Readonly<Record<string, unknown>>): void {
  const properties = propertiesOf(schema);
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  const missing = required.filter((name): name is string => typeof name === 'string' && !Object.hasOwn(args, name));
  if (missing.length > 0) {
    const listed = missing.slice(0, MAX_NAMES).map((name) => {
      const types = typesOf(Object.hasOwn(properties, name) ? properties[name] : undefined);
      return `${shortName(name)}${types.length ? ` (${types.join(' or ')})` : ''}`;
    });
    const more = missing.length > MAX_NAMES ? ` and ${missing.length - MAX_NAMES} more` : '';
    const plural = missing.length > 1;
    throw new UsageError(`tool ${JSON.stringify(tool)} needs argument${plural ? 's' : ''} ${listed.join(', ')}${more}, which ${plural ? 'were' : 'was'} not given`);
  }
  for (const [key, value] of Object.entries(args)) {
    const types = typesOf(Object.hasOwn(properties, key) ? properties[key] : undefined);
    if (types.length === 0 || types.includes(jsonTypeOf(value)) || (jsonTypeOf(value) === 'integer' && types.includes('number'))) continue;
    throw new UsageError(`tool ${JSON.stringify(tool)} wants ${JSON.stringify(key)} as ${types.join(' or ')}, got ${shortJson(value)}`);
  }
}

/**
 * Checks a prompt's arguments against the arguments its listing declares:
 * every required one given, no name it does not declare, every value a
 * string (as prompts take them).
 *
 * @param prompt the prompt's name, for the messages.
 * @param declared the prompt's `arguments`, as the server listed them.
 * @throws UsageError naming what is missing, unknown or not a string.
 */
export function checkPromptArguments(prompt: string, declared: unknown, args: Readonly<Record<string, unknown>>): void {
  const entries = (Array.isArray(declared) ? declared : []).filter((entry): entry is { name: string; required?: unknown } => isRecord(entry) && typeof entry.name === 'string');
  const names = new Set(entries.map((entry) => entry.name));
  const missing = entries.filter((entry) => entry.required === true && !Object.hasOwn(args, entry.name)).map((entry) => entry.name);
  if (missing.length > 0) {
    const more = missing.length > MAX_NAMES ? ` and ${missing.length - MAX_NAMES} more` : '';
    const plural = missing.length > 1;
    throw new UsageError(`prompt ${JSON.stringify(prompt)} needs argument${plural ? 's' : ''} ${missing.slice(0, MAX_NAMES).map(shortName).join(', ')}${more}, which ${plural ? 'were' : 'was'} not given`);
  }
  for (const [key, value] of Object.entries(args)) {
    if (!names.has(key)) {
      const known = [...names];
      const listed = known.slice(0, MAX_NAMES).map(shortName).join(', ');
      const more = known.length > MAX_NAMES ? ` and ${known.length - MAX_NAMES} more` : '';
      throw new UsageError(`prompt ${JSON.stringify(prompt)} has no argument ${JSON.stringify(key)}; ${known.length ? `it takes ${listed}${more}` : 'it takes none'}`);
    }
    if (typeof value !== 'string') throw new UsageError(`prompt ${JSON.stringify(prompt)} wants ${JSON.stringify(key)} as a string (prompts take text), got ${shortJson(value)}`);
  }
}

// The JSON type of a value as JSON Schema names it (a whole number is an integer).
function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

// A name a server chose, quoted and cut: a message is one line, not a page.
function shortName(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

// A given value as JSON, cut after 100 characters (jsonText does not recurse: the value may nest deep).
function shortJson(value: unknown): string {
  const text = jsonText(value, 0);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function readAs(type: JsonType, text: string): unknown {
  switch (type) {
    case 'string':
      return text;
    case 'null':
      return text === 'null' ? null : NO_FIT;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : NO_FIT;
    case 'integer':
    case 'number': {
      // Number('') is 0 and Number('0x1f') is 31: only plain decimals count.
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) return NO_FIT;
      const value = Number(text);
      if (!Number.isFinite(value)) return NO_FIT;
      return type === 'integer' && !Number.isInteger(value) ? NO_FIT : value;
    }
    case 'array':
    case 'object': {
      const value = jsonOrText(text);
      if (type === 'array') return Array.isArray(value) ? value : NO_FIT;
      return isRecord(value) && !Array.isArray(value) ? value : NO_FIT;
    }
  }
}

// An enum without a type: the member whose JSON or text reads as given.
function enumValue(property: unknown, text: string): unknown {
  if (!isRecord(property) || !Array.isArray(property.enum)) return undefined;
  // jsonText, not JSON.stringify: a member may nest past the call stack.
  return property.enum.find((member) => (typeof member === 'string' ? member === text : jsonText(member, 0) === text));
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  return schema.properties;
}

// The types a property allows: its own `type`, or those of its anyOf/oneOf
// branches (walked without recursion, at most 64 schemas).
function typesOf(property: unknown): JsonType[] {
  const found = new Set<JsonType>();
  const queue: unknown[] = [property];
  for (let seen = 0; seen < queue.length; seen++) {
    const schema = queue[seen];
    if (!isRecord(schema)) continue;
    for (const type of [schema.type].flat()) if (typeof type === 'string' && (ORDER as readonly string[]).includes(type)) found.add(type as JsonType);
    if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) found.add('null');
    // Only as many branches as are ever looked at: spreading a list of a million into push() overflows the stack.
    for (const branch of ['anyOf', 'oneOf'] as const) {
      const branches = schema[branch];
      if (Array.isArray(branches)) for (const item of branches.slice(0, MAX_SCHEMAS - queue.length)) queue.push(item);
    }
  }
  return [...found];
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
