import { McpClientError } from '../errors/mcp-client-error.js';

/** Validates a duration option: a finite number of milliseconds, not negative. */
export function checkDuration(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new McpClientError(`option ${name} must be a number of milliseconds, 0 or more; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The longest delay a timer waits: 2^31 − 1 ms, about 24.8 days. Node takes a longer one as 1 ms. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Validates a duration option that one timer waits out: as `checkDuration`,
 * and no longer than a timer can wait, which would otherwise fire at once.
 */
export function checkTimerDuration(name: string, value: unknown, fallback: number): number {
  const ms = checkDuration(name, value, fallback);
  if (ms > LONGEST_TIMER_MS) {
    throw new McpClientError(`option ${name} must be at most ${LONGEST_TIMER_MS} ms (about 24.8 days, the longest a timer waits); got ${ms}`);
  }
  return ms;
}

/** Validates a count option: a whole number, 0 or more. */
export function checkCount(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new McpClientError(`option ${name} must be a whole number, 0 or more; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Validates a size option: a whole number of bytes, 1 or more (0 would refuse every message). */
export function checkSize(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new McpClientError(`option ${name} must be a whole number of bytes, 1 or more; got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`);
  }
  return value;
}
