import { defer } from 'rxjs';
import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import { observableOf } from '../util/observable-of.js';
import { messageOf } from '../util/values.js';
import type { TokenSource } from './auth-options.js';
import { waitFor } from './wait-for.js';

/** A JWT this long is surely not one: ID tokens and workload tokens are a few kilobytes. */
const MAX_JWT_LENGTH = 64 * 1024;
/** A compact JWS (three parts) or JWE (five), base64url between the dots. */
const COMPACT_JWT = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2}(?:(?:\.[A-Za-z0-9_-]*){2})?$/;

/** True when `value` is a `TokenSource` in shape: a string, a function or an Observable. */
export function isTokenSource(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'function' || (typeof value === 'object' && value !== null && typeof (value as { subscribe?: unknown }).subscribe === 'function');
}

/**
 * Reads a token the caller supplies (calling the function anew each time),
 * and checks it is a compact JWT before it goes anywhere.
 *
 * @throws McpAuthError at `step` when the source fails, gives nothing, or
 *   gives something that is not a JWT; the message names `what`, never the value.
 */
export async function readTokenSource(source: TokenSource, step: AuthStep, what: string, signal: AbortSignal): Promise<string> {
  let value: unknown;
  try {
    value = await waitFor(
      defer(() => observableOf(typeof source === 'function' ? source() : source)),
      signal,
      () => new McpAuthError(step, `${what} finished without a token`),
    );
  } catch (error) {
    if (signal.aborted || error instanceof McpAuthError) throw error;
    throw new McpAuthError(step, `${what} failed: ${messageOf(error)}`, { cause: error });
  }
  if (typeof value !== 'string' || value.length > MAX_JWT_LENGTH || !COMPACT_JWT.test(value)) {
    throw new McpAuthError(step, `${what} gave ${typeof value === 'string' ? `a string that is not a compact JWT (${value.length} characters)` : `no string but ${value === null ? 'null' : typeof value}`}`);
  }
  return value;
}
