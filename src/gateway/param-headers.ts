import { isObject } from '../util/values.js';

/** How deep into `properties` an `x-mcp-header` declaration is looked for; a schema is untrusted. */
const MAX_DEPTH = 32;
const PRIMITIVE = new Set(['string', 'integer', 'boolean', 'number']);
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * The 2026-07-28 Streamable HTTP check of a `tools/call`'s `Mcp-Param-{Name}`
 * headers against its body: for each property the tool's input schema marks
 * with `x-mcp-header` (reached through `properties` only), a value the
 * arguments carry must come with its header, decoding (plain, or the
 * `=?base64?…?=` form) to the same text. The SDK makes this check only for
 * tools registered on an `McpServer`; the gateway serves its tools itself.
 *
 * @returns what disagrees (for a -32020 answer), or `undefined` when all agree.
 */
export function paramHeaderMismatch(schema: unknown, args: unknown, headers: Headers): string | undefined {
  for (const { name, type, path } of headerDeclarations(schema)) {
    const problem = check(name, type, valueAt(args, path), headers, path);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Whether an input schema marks any property with `x-mcp-header` (as
 * `paramHeaderMismatch` reads it): only such a tool's calls have headers to
 * check, so the gateway reads a body twice for those alone.
 */
export function declaresParamHeaders(schema: unknown): boolean {
  return !headerDeclarations(schema).next().done;
}

// The header-marked properties of a schema, walked iteratively and bounded: a schema is untrusted.
function* headerDeclarations(schema: unknown): Generator<{ name: string; type: string; path: string[] }> {
  const pending: Array<{ node: unknown; path: string[] }> = [{ node: schema, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop() as { node: unknown; path: string[] };
    if (!isObject(node)) continue;
    const name = node['x-mcp-header'];
    if (path.length > 0 && typeof name === 'string' && name !== '' && typeof node.type === 'string' && PRIMITIVE.has(node.type)) {
      yield { name, type: node.type, path };
    }
    const properties = node.properties;
    if (isObject(properties) && path.length < MAX_DEPTH) {
      for (const key of Object.keys(properties)) pending.push({ node: properties[key], path: [...path, key] });
    }
  }
}

function check(name: string, type: string, value: unknown, headers: Headers, path: string[]): string | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined) return undefined;
  const header = `Mcp-Param-${name}`;
  const sent = headers.get(header);
  const where = JSON.stringify(path.join('.'));
  if (sent === null) return `the arguments carry ${where} but the ${header} header is missing`;
  const decoded = decode(sent);
  if (decoded === undefined) return `the ${header} header is not valid Base64 UTF-8`;
  const same = (type === 'integer' || type === 'number') && typeof value === 'number' && /^-?\d+(\.\d+)?$/.test(decoded) ? Number(decoded) === value : decoded === text;
  return same ? undefined : `the ${header} header does not match the arguments' ${where}`;
}

function decode(value: string): string | undefined {
  const base64 = SENTINEL.exec(value)?.[1];
  if (base64 === undefined) return value;
  if (base64.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

function valueAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
