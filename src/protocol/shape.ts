import { McpProtocolError } from '../errors/protocol-errors.js';
import type { Shape } from './shapes.js';

/**
 * Members a result carries for the protocol's sake, acted on and then
 * removed; and `__proto__`, which no result has a use for and which a copy
 * made by assignment would take for the copy's prototype.
 */
const DROPPED = new Set(['resultType', '_meta', 'ttlMs', 'cacheScope', 'requestState', 'inputRequests', '__proto__']);

/** A result's `resultType`; an absent one means `complete` (servers before 2026-07-28 send none). */
export function resultTypeOf(result: Record<string, unknown>): unknown {
  return result.resultType ?? 'complete';
}

/**
 * `result` without the protocol's bookkeeping members (nor a `__proto__` of
 * its own): a copy, unless it has none. The copy's prototype is
 * `Object.prototype`, whatever the server sent.
 */
export function stripBookkeeping<T extends Record<string, unknown>>(result: T): T {
  let found = false;
  for (const key in result) {
    if (DROPPED.has(key)) {
      found = true;
      break;
    }
  }
  // Nothing to remove (a 2025-11-25 server sends none of it): no copy either.
  if (!found) return result;
  // Built key by key: deleting from a copy would turn it into a slow dictionary object.
  const copy: Record<string, unknown> = {};
  for (const key in result) if (!DROPPED.has(key)) copy[key] = result[key];
  return copy as T;
}

/**
 * Checks a result against the shape the client relies on, or raises
 * `McpProtocolError` (with no code: the server sent no error, just a bad
 * answer). The result is handed on as it came, not copied.
 */
export function checkResult<T>(method: string, shape: Shape, result: unknown): T {
  const problem = shape(result);
  if (problem) throw new McpProtocolError(`malformed ${method} result: ${problem}`, undefined, { issues: [problem] }, method);
  return result as T;
}

/**
 * Checks a `tools/call` result without a schema: `content` must be a list of
 * blocks that each name their `type`, and `isError`, when present, a boolean.
 */
export function checkToolResult(result: Record<string, unknown>): Record<string, unknown> {
  const { content, isError } = result;
  const problem = !Array.isArray(content)
    ? 'content: expected an array'
    : !content.every(isTypedBlock)
      ? 'content: every block needs a string type'
      : isError !== undefined && typeof isError !== 'boolean'
        ? 'isError: expected a boolean'
        : undefined;
  if (problem) throw new McpProtocolError(`malformed tools/call result: ${problem}`, undefined, { issues: [problem] }, 'tools/call');
  return result;
}

function isTypedBlock(block: unknown): boolean {
  return typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string';
}
