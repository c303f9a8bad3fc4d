import type { z } from 'zod';
import { McpProtocolError } from '../errors/protocol-errors.js';

/** Members a result carries for the protocol's sake, acted on and then removed. */
const BOOKKEEPING = ['resultType', '_meta', 'ttlMs', 'cacheScope', 'requestState', 'inputRequests'] as const;

/** A result's `resultType`; an absent one means `complete` (servers before 2026-07-28 send none). */
export function resultTypeOf(result: Record<string, unknown>): unknown {
  return result.resultType ?? 'complete';
}

/** A copy of `result` without the protocol's bookkeeping members. */
export function stripBookkeeping<T extends Record<string, unknown>>(result: T): T {
  const copy: Record<string, unknown> = { ...result };
  for (const key of BOOKKEEPING) delete copy[key];
  return copy as T;
}

/**
 * Checks a result against the shape the client relies on, or raises
 * `McpProtocolError` (with no code: the server sent no error, just a bad answer).
 */
export function checkResult<T>(method: string, schema: z.ZodType, result: unknown): T {
  const outcome = schema.safeParse(result);
  if (outcome.success) return outcome.data as T;
  const problems = outcome.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new McpProtocolError(`malformed ${method} result: ${problems.join('; ')}`, undefined, { issues: problems }, method);
}
