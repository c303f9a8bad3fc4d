import { McpConfigError, type ConfigPlace } from '../errors/config-errors.js';
import type { ServerEntry } from './server-config.js';

// RFC 9110's token for a field name; a value may not hold NUL, CR or LF.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BREAKS = /[\0\r\n]/;

/**
 * Refuses a header fetch would refuse, before fetch does: its own message
 * quotes the value (a token with a newline pasted after it, most often), and
 * a header value is a secret. The error names the header, never its value.
 *
 * @throws McpConfigError naming the server and `headers.NAME`.
 */
export function checkHeaders(entry: ServerEntry, place: ConfigPlace): void {
  if (entry.transport !== 'http') return;
  for (const name of Object.keys(entry.headers)) {
    if (!TOKEN.test(name)) throw new McpConfigError({ ...place, key: `headers.${name}` }, 'is not a legal HTTP header name');
    if (BREAKS.test(entry.headers[name] as string)) throw new McpConfigError({ ...place, key: `headers.${name}` }, 'has a value with a line break or NUL in it, which HTTP does not allow (the value is not shown)');
  }
}
