import { McpClientError } from '../errors/mcp-client-error.js';

/** Throws for an option name nobody knows: a typo must not pass silently. */
export function refuseUnknown(options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new McpClientError(`unknown option: ${key}`);
  }
}
