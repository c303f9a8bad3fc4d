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
 * @returns the headers, or a string saying why the tool must be rejected.
 */
export function paramHeaders(inputSchema: unknown): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const reachable = new Set<unknown>();
  const collect = (schema: unknown, path: string[]): string | undefined => {
    if (!isObject(schema)) return undefined;
    reachable.add(schema);
    const name = schema['x-mcp-header'];
    if (name !== undefined) {
      if (path.length === 0) return 'x-mcp-header on the schema root';
      if (typeof name !== 'string' || !TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} is not a header name token`;
      if (!['string', 'integer', 'boolean'].includes(schema.type as string)) {
        return `x-mcp-header ${JSON.stringify(name)} is on a parameter of type ${JSON.stringify(schema.type)}, not integer, string or boolean`;
      }
      if (found.some((header) => header.name.toLowerCase() === name.toLowerCase())) return `x-mcp-header ${JSON.stringify(name)} is not unique`;
      found.push({ name, path });
    }
    if (isObject(schema.properties)) {
      for (const [key, child] of Object.entries(schema.properties)) {
        const problem = collect(child, [...path, key]);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  const problem = collect(inputSchema, []) ?? strayAnnotation(inputSchema, reachable);
  return problem ?? found;
}

// An annotation anywhere not reached through `properties` chains (items,
// anyOf, $defs, …) makes the tool invalid.
function strayAnnotation(schema: unknown, reachable: Set<unknown>, seen = new Set<unknown>()): string | undefined {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return undefined;
  seen.add(schema);
  if (!Array.isArray(schema) && !reachable.has(schema) && 'x-mcp-header' in schema) {
    return `x-mcp-header ${JSON.stringify((schema as Record<string, unknown>)['x-mcp-header'])} is not reachable through properties alone`;
  }
  for (const child of Object.values(schema)) {
    const problem = strayAnnotation(child, reachable, seen);
    if (problem) return problem;
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

