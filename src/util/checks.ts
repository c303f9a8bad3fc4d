import { McpClientError } from '../errors/mcp-client-error.js';

/** Validates a duration option: a finite number of milliseconds, not negative. */
export function checkDuration(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new McpClientError(`option ${name} must be a number of milliseconds, 0 or more; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Validates a count option: a whole number, 0 or more. */
export function checkCount(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new McpClientError(`option ${name} must be a whole number, 0 or more; got ${JSON.stringify(value)}`);
  }
  return value;
}
