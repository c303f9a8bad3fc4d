// What each model API accepts in a tool declaration, written from the
// vendors' own API references and SDK type comments (cited at each rule),
// so the schema corpus spec can say which rule a declaration breaks.
// Every checker returns a list of problems, each naming where in the
// declaration it lies; an empty list means the vendor accepts it.
//
// Schemas are walked with an explicit stack, never by recursion, and a
// schema met twice (a shared object) is checked once.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rule the issue sets for names shown to a model: what every major model API accepts at once. */
export const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * OpenAI (`FunctionDefinition.name` in openai's shared.d.ts, and the
 * Responses API's function tools): "Must be a-z, A-Z, 0-9, or contain
 * underscores and dashes, with a maximum length of 64."
 */
export const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Anthropic Messages API, tool use: a tool's `name` "must match the regex `^[a-zA-Z0-9_-]{1,64}$`". */
export const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Gemini (`FunctionDeclaration.name` in @google/genai, and the Gemini API
 * reference): "Must start with a letter or an underscore. Must be a-z, A-Z,
 * 0-9, or contain underscores, dots, colons and dashes", at most 64 in the
 * Gemini API reference (the SDK's comment says 128 for Vertex AI; the
 * stricter of the two holds for a declaration meant for both).
 */
export const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** Amazon Bedrock Converse API, `ToolSpecification.name`: pattern `^[a-zA-Z0-9_-]+$`, length 1 to 64. */
export const BEDROCK_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Gemini's `parameters` (an OpenAPI-style `Schema`): "Parameter names must
 * start with a letter or an underscore and must only contain chars a-z, A-Z,
 * 0-9, or underscores with a maximum length of 64."
 */
const GEMINI_PARAMETER_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** One problem: where it lies (a path into the declaration) and which rule it breaks. */
export type Problem = string;

function nameProblems(name: unknown, pattern: RegExp, vendor: string): Problem[] {
  if (typeof name !== 'string') return [`name: ${vendor} needs a string`];
  return pattern.test(name) ? [] : [`name ${JSON.stringify(name)}: ${vendor} needs ${pattern}`];
}

/** A name every model API accepts (the default rule). */
export function portableNameProblems(name: unknown): Problem[] {
  return nameProblems(name, PORTABLE_NAME, 'a portable name');
}

/** Amazon Bedrock's tool name rule. */
export function bedrockNameProblems(name: unknown): Problem[] {
  return nameProblems(name, BEDROCK_NAME, 'Bedrock');
}

// ---------------------------------------------------------------------------
// Walking a schema

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalProperties'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

interface Visit {
  schema: Json;
  path: string;
  /** How many objects this schema sits inside (the root object is at 1). */
  depth: number;
  /** Whether the schema is the value of a property (not a $defs entry, not an items schema…). */
  parent?: { keyword: string; name?: string; holder: Json };
}

/** Every subschema of `root` (boolean schemas left out), the root first. */
function* walk(root: Json, rootPath: string): Generator<Visit> {
  const seen = new Set<Json>();
  const stack: Visit[] = [{ schema: root, path: rootPath, depth: isObjectSchema(root) ? 1 : 0 }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    if (seen.has(visit.schema)) continue;
    seen.add(visit.schema);
    yield visit;
    const { schema, path, depth } = visit;
    const push = (child: unknown, childPath: string, keyword: string, name?: string): void => {
      if (!isObject(child)) return;
      stack.push({ schema: child, path: childPath, depth: isObjectSchema(child) ? depth + 1 : depth, parent: { keyword, name, holder: schema } });
    };
    for (const keyword of ONE) {
      const child = schema[keyword];
      if (Array.isArray(child)) child.forEach((item, index) => push(item, `${path}.${keyword}[${index}]`, keyword));
      else push(child, `${path}.${keyword}`, keyword);
    }
    for (const keyword of LIST) {
      const children = schema[keyword];
      if (Array.isArray(children)) children.forEach((child, index) => push(child, `${path}.${keyword}[${index}]`, keyword));
    }
    for (const keyword of MAP) {
      const children = schema[keyword];
      if (isObject(children)) for (const [name, child] of Object.entries(children)) push(child, `${path}.${keyword}[${JSON.stringify(name)}]`, keyword, name);
    }
  }
}

function typesOf(schema: Json): string[] {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

function isObjectSchema(schema: Json): boolean {
  return typesOf(schema).includes('object') || isObject(schema.properties);
}

/** Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the document). */
export function resolveLocalRef(root: Json, ref: string): Json | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

function refProblems(root: Json, schema: Json, path: string): Problem[] {
  const { $ref } = schema;
  if ($ref === undefined) return [];
  if (typeof $ref !== 'string') return [`${path}.$ref: not a string`];
  if (!$ref.startsWith('#')) return [`${path}.$ref ${JSON.stringify($ref)}: points outside the document, which no vendor fetches`];
  return resolveLocalRef(root, $ref) ? [] : [`${path}.$ref ${JSON.stringify($ref)}: points at nothing in the document`];
}

/**
 * Whether OpenAI's strict mode can say what `schema` says: it cannot where
 * an object's keys are data (a map: `additionalProperties` as a schema or
 * true, `patternProperties`, or an object without properties below the
 * root), since every strict object must list its keys and set
 * `additionalProperties: false`.
 */
export function strictCanExpress(schema: Json): boolean {
  for (const { schema: sub, path } of walk(schema, '')) {
    if (isObject(sub.additionalProperties) || sub.additionalProperties === true || isObject(sub.patternProperties)) return false;
    if (path !== '' && typesOf(sub).includes('object') && !isObject(sub.properties)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// OpenAI

/**
 * What OpenAI's function calling accepts without `strict`: a name as above,
 * and `parameters` "described as a JSON Schema object" (`FunctionDefinition`)
 * whose root has `type: "object"` (the API answers "schema must be a JSON
 * Schema of 'type: \"object\"'" otherwise) and no `anyOf`/`oneOf`/`allOf`/
 * `enum`/`not` at its root; an array schema needs `items` ("array schema
 * missing items"); `$ref`s must resolve inside the document.
 */
export function openAIFunctionProblems(tool: { name?: unknown; parameters?: unknown; strict?: unknown }): Problem[] {
  const problems = nameProblems(tool.name, OPENAI_NAME, 'OpenAI');
  const parameters = tool.parameters;
  if (parameters === undefined || parameters === null) return problems;
  if (!isObject(parameters)) return [...problems, 'parameters: not a JSON Schema object'];
  if (parameters.type !== 'object') problems.push(`parameters.type: OpenAI needs "object" at the root, got ${JSON.stringify(parameters.type)}`);
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'enum', 'not']) {
    if (keyword in parameters) problems.push(`parameters.${keyword}: OpenAI refuses it at the root of parameters`);
  }
  for (const { schema, path } of walk(parameters, 'parameters')) {
    problems.push(...refProblems(parameters, schema, path));
    if (typesOf(schema).includes('array') && schema.items === undefined && schema.prefixItems === undefined) problems.push(`${path}: an array schema without items`);
  }
  if (tool.strict === true) problems.push(...openAIStrictSchemaProblems(parameters));
  return problems;
}

/**
 * Keywords Structured Outputs (`strict: true`) supports, from OpenAI's
 * "Supported schemas": the types and `enum`/`const`/`anyOf`, `$ref`s into
 * `$defs` (or `definitions`), descriptions and titles, and these
 * constraints: strings `pattern`, `format`; numbers `multipleOf`,
 * `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`; arrays
 * `minItems`, `maxItems`. Everything else (`default`, `allOf`, `not`,
 * `if`/`then`/`else`, `oneOf`, `minLength`, `patternProperties`,
 * `propertyNames`, `uniqueItems`, `prefixItems`…) is refused.
 */
export const OPENAI_STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf',
  '$ref', '$defs', 'definitions', 'description', 'title',
  'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
]);

/** The string formats Structured Outputs supports. */
export const OPENAI_STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

const OPENAI_STRICT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Structured Outputs' size limits, from the same page. */
export const OPENAI_STRICT_LIMITS = { properties: 5000, nesting: 10, characters: 120_000, enumValues: 1000, bigEnum: 250, bigEnumCharacters: 15_000 };

/**
 * What OpenAI's Structured Outputs (`strict: true`) accepts as a function's
 * parameters: an object at the root (not `anyOf`), `additionalProperties:
 * false` on every object, every property listed in `required`, only the
 * supported keywords and formats, every subschema typed (or a `$ref`,
 * `anyOf`, `enum` or `const`), and the size limits: 5000 properties, 10
 * levels of objects, 120,000 characters of property names, definition
 * names, enum values and const values, 1000 enum values, and 15,000
 * characters for a string enum of more than 250 values.
 */
export function openAIStrictSchemaProblems(parameters: Json): Problem[] {
  const problems: Problem[] = [];
  if (parameters.type !== 'object') problems.push('parameters: strict mode needs an object at the root');
  if ('anyOf' in parameters) problems.push('parameters.anyOf: strict mode refuses anyOf at the root');
  let properties = 0;
  let characters = 0;
  let enumValues = 0;
  for (const { schema, path, depth, parent } of walk(parameters, 'parameters')) {
    if (depth > OPENAI_STRICT_LIMITS.nesting) problems.push(`${path}: nested ${depth} objects deep, past strict mode's ${OPENAI_STRICT_LIMITS.nesting}`);
    if (parent?.name !== undefined && (parent.keyword === '$defs' || parent.keyword === 'definitions')) characters += parent.name.length;
    for (const keyword of Object.keys(schema)) {
      if (!OPENAI_STRICT_KEYWORDS.has(keyword)) problems.push(`${path}.${keyword}: strict mode refuses this keyword`);
    }
    for (const type of typesOf(schema)) if (!OPENAI_STRICT_TYPES.has(type)) problems.push(`${path}.type ${JSON.stringify(type)}: not a type strict mode knows`);
    if (typeof schema.format === 'string' && !OPENAI_STRICT_FORMATS.has(schema.format)) problems.push(`${path}.format ${JSON.stringify(schema.format)}: not a format strict mode supports`);
    if (schema.type === undefined && !['$ref', 'anyOf', 'enum', 'const'].some((keyword) => keyword in schema)) problems.push(`${path}: strict mode needs a type`);
    if (isObjectSchema(schema)) {
      if (schema.additionalProperties !== false) problems.push(`${path}: strict mode needs additionalProperties: false`);
      const names = isObject(schema.properties) ? Object.keys(schema.properties) : [];
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const name of names) if (!required.includes(name)) problems.push(`${path}.required: strict mode needs ${JSON.stringify(name)} listed`);
      properties += names.length;
      for (const name of names) characters += name.length;
    }
    if (Array.isArray(schema.enum)) {
      enumValues += schema.enum.length;
      const strings = schema.enum.filter((value): value is string => typeof value === 'string');
      const length = strings.reduce((sum, value) => sum + value.length, 0);
      characters += length;
      if (strings.length > OPENAI_STRICT_LIMITS.bigEnum && length > OPENAI_STRICT_LIMITS.bigEnumCharacters) problems.push(`${path}.enum: more than ${OPENAI_STRICT_LIMITS.bigEnum} values and ${length} characters`);
    }
    if (typeof schema.const === 'string') characters += schema.const.length;
  }
  if (properties > OPENAI_STRICT_LIMITS.properties) problems.push(`parameters: ${properties} properties, past strict mode's ${OPENAI_STRICT_LIMITS.properties}`);
  if (characters > OPENAI_STRICT_LIMITS.characters) problems.push(`parameters: ${characters} characters of names and values, past strict mode's ${OPENAI_STRICT_LIMITS.characters}`);
  if (enumValues > OPENAI_STRICT_LIMITS.enumValues) problems.push(`parameters: ${enumValues} enum values, past strict mode's ${OPENAI_STRICT_LIMITS.enumValues}`);
  return problems;
}

// ---------------------------------------------------------------------------
// Anthropic

/**
 * What the Anthropic Messages API accepts as a client tool: a name as
 * above, and an `input_schema` that is a JSON Schema (2020-12) object
 * schema (`Tool.InputSchema` has `type: 'object'`) without `oneOf`, `allOf`
 * or `anyOf` at its top level (the API answers "input_schema does not
 * support oneOf, allOf, or anyOf at the top level"); `$ref`s must resolve
 * inside the document.
 */
export function anthropicToolProblems(tool: { name?: unknown; input_schema?: unknown }): Problem[] {
  const problems = nameProblems(tool.name, ANTHROPIC_NAME, 'Anthropic');
  const schema = tool.input_schema;
  if (!isObject(schema)) return [...problems, 'input_schema: Anthropic needs an object schema'];
  if (schema.type !== 'object') problems.push(`input_schema.type: Anthropic needs "object", got ${JSON.stringify(schema.type)}`);
  for (const keyword of ['oneOf', 'allOf', 'anyOf']) {
    if (keyword in schema) problems.push(`input_schema.${keyword}: Anthropic refuses it at the top level`);
  }
  for (const { schema: sub, path } of walk(schema, 'input_schema')) problems.push(...refProblems(schema, sub, path));
  return problems;
}

// ---------------------------------------------------------------------------
// Gemini

/**
 * The fields of @google/genai's OpenAPI-style `Schema` (for `parameters`),
 * which the Gemini API parses strictly: any other key fails the request
 * ("Unknown name ... Cannot find field").
 */
export const GEMINI_SCHEMA_FIELDS = new Set([
  'anyOf', 'default', 'description', 'enum', 'example', 'format', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems',
  'minLength', 'minProperties', 'minimum', 'nullable', 'pattern', 'properties', 'propertyOrdering', 'required', 'title', 'type',
]);

/**
 * The JSON Schema keywords Gemini documents for `parametersJsonSchema`: the
 * list @google/genai gives for its JSON Schema fields ("only the following
 * properties are supported: `$id` `$defs` `$ref` `$anchor` `type` `format`
 * `title` `description` `enum` (for strings and numbers) `items`
 * `prefixItems` `minItems` `maxItems` `minimum` `maximum` `anyOf` `oneOf`
 * `properties` `additionalProperties` `required`", and the non-standard
 * `propertyOrdering`), together with the fields of its `Schema`, the same
 * model's schema written the OpenAPI way. Anything else is outside what
 * Gemini says it reads.
 */
export const GEMINI_JSON_SCHEMA_KEYWORDS = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems', 'maxItems',
  'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
  ...GEMINI_SCHEMA_FIELDS,
]);

/** @google/genai's `Type` enum. */
const GEMINI_TYPES = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/**
 * What the Gemini API accepts as a function declaration: a name as above,
 * and either `parametersJsonSchema` (JSON Schema, only the keywords above;
 * `enum` of strings and numbers; an object at the root; beside a `$ref` only
 * keywords starting with `$`; a cycle of references only through
 * properties that are not required) or `parameters` (the OpenAPI-style
 * `Schema`: only its fields, one `Type` per schema, string enums,
 * parameter names as the SDK documents them), never both.
 */
export function geminiDeclarationProblems(declaration: { name?: unknown; parameters?: unknown; parametersJsonSchema?: unknown }): Problem[] {
  const problems = nameProblems(declaration.name, GEMINI_NAME, 'Gemini');
  const { parameters, parametersJsonSchema } = declaration;
  if (parameters !== undefined && parametersJsonSchema !== undefined) problems.push('parameters and parametersJsonSchema: Gemini takes one or the other');
  if (parametersJsonSchema !== undefined) problems.push(...geminiJsonSchemaProblems(parametersJsonSchema));
  if (parameters !== undefined) problems.push(...geminiSchemaProblems(parameters));
  return problems;
}

function geminiJsonSchemaProblems(root: unknown): Problem[] {
  if (!isObject(root)) return ['parametersJsonSchema: not a JSON Schema object'];
  const problems: Problem[] = [];
  if (root.type !== 'object') problems.push(`parametersJsonSchema.type: Gemini needs "the schema must describe an object", got ${JSON.stringify(root.type)}`);
  for (const { schema, path } of walk(root, 'parametersJsonSchema')) {
    for (const keyword of Object.keys(schema)) {
      if (!GEMINI_JSON_SCHEMA_KEYWORDS.has(keyword)) problems.push(`${path}.${keyword}: Gemini does not support this keyword`);
    }
    if ('$ref' in schema) {
      for (const keyword of Object.keys(schema)) if (!keyword.startsWith('$')) problems.push(`${path}.${keyword}: Gemini allows only $-keywords beside a $ref`);
    }
    if (Array.isArray(schema.enum) && schema.enum.some((value) => typeof value !== 'string' && typeof value !== 'number')) problems.push(`${path}.enum: Gemini takes enums of strings and numbers only`);
    problems.push(...refProblems(root, schema, path));
  }
  problems.push(...requiredCycles(root));
  return problems;
}

/**
 * Gemini unrolls cyclic references "to a limited degree", so a cycle may
 * pass only through properties that are not required: follows, from each
 * `$defs` entry, the `$ref`s reachable through required properties, items
 * and combinators, and reports a definition that reaches itself that way.
 */
function requiredCycles(root: Json): Problem[] {
  const problems: Problem[] = [];
  const defs = { ...(isObject(root.$defs) ? root.$defs : {}), ...(isObject(root.definitions) ? root.definitions : {}) };
  const targets = (schema: Json): string[] => {
    const found: string[] = [];
    const stack: Json[] = [schema];
    const seen = new Set<Json>();
    while (stack.length > 0) {
      const node = stack.pop() as Json;
      if (seen.has(node)) continue;
      seen.add(node);
      if (typeof node.$ref === 'string') found.push(node.$ref);
      const required = Array.isArray(node.required) ? node.required : [];
      if (isObject(node.properties)) for (const [name, child] of Object.entries(node.properties)) if (required.includes(name) && isObject(child)) stack.push(child);
      if (isObject(node.items)) stack.push(node.items);
      for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
        const list = node[keyword];
        if (Array.isArray(list)) for (const child of list) if (isObject(child)) stack.push(child);
      }
    }
    return found;
  };
  for (const [name, def] of Object.entries(defs)) {
    if (!isObject(def)) continue;
    const start = new Set([`#/$defs/${name}`, `#/definitions/${name}`]);
    const queue = targets(def);
    const visited = new Set<string>();
    while (queue.length > 0) {
      const ref = queue.shift() as string;
      if (start.has(ref)) {
        problems.push(`parametersJsonSchema.$defs[${JSON.stringify(name)}]: refers to itself through required properties, which Gemini cannot unroll`);
        break;
      }
      if (visited.has(ref)) continue;
      visited.add(ref);
      const next = resolveLocalRef(root, ref);
      if (next) queue.push(...targets(next));
    }
  }
  return problems;
}

function geminiSchemaProblems(root: unknown): Problem[] {
  if (!isObject(root)) return ['parameters: not a Schema object'];
  const problems: Problem[] = [];
  if (isObject(root.properties)) {
    for (const name of Object.keys(root.properties)) if (!GEMINI_PARAMETER_NAME.test(name)) problems.push(`parameters.properties[${JSON.stringify(name)}]: Gemini needs parameter names like ${GEMINI_PARAMETER_NAME}`);
  }
  for (const { schema, path } of walk(root, 'parameters')) {
    for (const keyword of Object.keys(schema)) if (!GEMINI_SCHEMA_FIELDS.has(keyword)) problems.push(`${path}.${keyword}: not a field of Gemini's Schema`);
    if (schema.type !== undefined && (typeof schema.type !== 'string' || !GEMINI_TYPES.has(schema.type.toUpperCase()))) problems.push(`${path}.type ${JSON.stringify(schema.type)}: not one Gemini Type`);
    if (Array.isArray(schema.enum) && schema.enum.some((value) => typeof value !== 'string')) problems.push(`${path}.enum: Gemini's Schema takes string enums only`);
  }
  return problems;
}
