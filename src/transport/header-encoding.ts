import { quote } from '../util/quote.js';
import { isObject } from '../util/values.js';

// How MCP values travel in HTTP headers (2026-07-28 Streamable HTTP,
// "Value Encoding" and "Custom Headers from Tool Parameters").

const SENTINEL = /^=\?base64\?.*\?=$/s;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A header value for `value`: as it is when it is plain visible ASCII (or
 * inner spaces and tabs), else `=?base64?…?=` of its UTF-8 bytes. A plain
 * value that looks like the sentinel is encoded too, so it cannot be misread.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${base64(value)}?=`;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** One tool parameter mirrored into `Mcp-Param-{name}`. */
export interface ParamHeader {
  /** The `{name}` of `Mcp-Param-{name}`. */
  name: string;
  /** The chain of `properties` keys that leads to the parameter. */
  path: string[];
}

/**
 * Reads the `x-mcp-header` annotations of a tool's input schema. Every
 * annotation must name a header token, be unique (ignoring case), sit on an
 * integer, string or boolean property, and be reachable from the root
 * through `properties` alone.
 *
 * The schema is the server's: both walks keep their own stack, so a schema
 * nested a hundred thousand levels deep costs time in proportion to its
 * size and never the call stack.
 *
 * @returns the headers, or a string saying why the tool must be rejected.
 */
export function paramHeaders(inputSchema: unknown): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const names = new Set<string>();
  const reachable = new Set<unknown>();
  // Each schema reached through `properties` remembers its parent's entry and
  // its own key: a path is spelled out only for an annotation, never per level.
  const stack: Array<{ schema: unknown; key: string; parent: Reached | undefined }> = [{ schema: inputSchema, key: '', parent: undefined }];
  while (stack.length > 0) {
    const { schema, key, parent } = stack.pop() as (typeof stack)[number];
    if (!isObject(schema) || reachable.has(schema)) continue;
    reachable.add(schema);
    const here: Reached = { key, parent };
    const name = schema['x-mcp-header'];
    if (name !== undefined) {
      if (parent === undefined) return 'x-mcp-header on the schema root';
      if (typeof name !== 'string' || !TOKEN.test(name)) return `x-mcp-header ${quote(name)} is not a header name token`;
      if (!['string', 'integer', 'boolean'].includes(schema.type as string)) {
        return `x-mcp-header ${quote(name)} is on a parameter of type ${quote(schema.type)}, not integer, string or boolean`;
      }
      if (names.has(name.toLowerCase())) return `x-mcp-header ${quote(name)} is not unique`;
      names.add(name.toLowerCase());
      found.push({ name, path: pathOf(here) });
    }
    if (isObject(schema.properties)) {
      // Pushed in reverse, so that properties are read in their order.
      const entries = Object.entries(schema.properties);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [childKey, child] = entries[i] as [string, unknown];
        stack.push({ schema: child, key: childKey, parent: here });
      }
    }
  }
  return strayAnnotation(inputSchema, reachable) ?? found;
}

/** A schema reached through `properties`: its key, and the schema it was reached from. */
interface Reached {
  key: string;
  parent: Reached | undefined;
}

function pathOf(reached: Reached): string[] {
  const path: string[] = [];
  for (let at: Reached | undefined = reached; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

// An annotation anywhere not reached through `properties` chains (items,
// anyOf, $defs, …) makes the tool invalid. Walked with a stack of its own.
function strayAnnotation(root: unknown, reachable: Set<unknown>): string | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const schema = stack.pop();
    if (typeof schema !== 'object' || schema === null || seen.has(schema)) continue;
    seen.add(schema);
    if (!Array.isArray(schema) && !reachable.has(schema) && Object.hasOwn(schema, 'x-mcp-header')) {
      return `x-mcp-header ${quote((schema as Record<string, unknown>)['x-mcp-header'])} is not reachable through properties alone`;
    }
    for (const child of Object.values(schema)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return undefined;
}

/**
 * The header value of one argument, or `undefined` when the argument is
 * absent or null (the header is then left out) or not of a mirrorable type.
 */
export function paramValue(args: unknown, path: readonly string[]): string | undefined {
  let value: unknown = args;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

