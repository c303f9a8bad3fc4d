import { quote } from '../util/quote.js';
import { McpClientError } from './mcp-client-error.js';

/** Where in a config file a problem sits: the file, the server entry, the key inside it. */
export interface ConfigPlace {
  /** The file (or another name for where the text came from), when known. */
  source?: string;
  /** The server's name in the file, when the problem is inside one entry. */
  server?: string;
  /** The key, as a path such as `env.API_KEY` or `args[2]`. */
  key?: string;
}

/**
 * A server config could not be used: the file is malformed or too large, an
 * entry holds a key its format does not define, a value has the wrong type,
 * or a placeholder names a variable nobody supplied.
 *
 * The message names the file, the server and the key. It never holds the
 * value of an environment entry, a header, a token or an input answer: a
 * config file carries secrets, and errors end up in logs.
 *
 * @example
 * ```ts
 * try {
 *   await readServerConfig('.mcp.json');
 * } catch (error) {
 *   if (error instanceof McpConfigError) console.error(`fix ${error.key} of ${error.server} in ${error.source}`);
 * }
 * ```
 */
export class McpConfigError extends McpClientError {
  override name = 'McpConfigError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_CONFIG';
  declare readonly code: typeof McpConfigError.code;

  /** The file (or another name for the text), when known. */
  readonly source: string | undefined;
  /** The server entry the problem is in, when it is in one. */
  readonly server: string | undefined;
  /** The key the problem is at, as a path such as `env.API_KEY`. */
  readonly key: string | undefined;

  constructor(place: ConfigPlace, reason: string, options?: { cause?: unknown }) {
    super(`${describePlace(place)}: ${reason}`, options);
    this.source = place.source;
    this.server = place.server;
    this.key = place.key;
  }
}

function describePlace({ source, server, key }: ConfigPlace): string {
  // Names come from the file, which may be hostile: quoted, and cut when long.
  const parts = [source === undefined ? 'server config' : quoteName(source)];
  if (server !== undefined) parts.push(`server ${quoteName(server)}`);
  if (key !== undefined) parts.push(`key ${quoteName(key)}`);
  return parts.join(', ');
}

// JSON.stringify escapes C0 controls only: DEL, C1 (U+009B is CSI), format
// characters (bidi overrides, zero-width) and U+2028/9 are escaped too, so a
// message logged or printed as it is drives no terminal.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * A name from a config file (a server, a key, an input id, a path), quoted
 * for a message: as `quote` (JSON, cut after 200 characters), with every
 * control and format character a `\u` escape.
 */
export function quoteName(value: string): string {
  return quote(value).replace(UNSAFE, (character) => `\\u${(character.codePointAt(0) as number).toString(16).padStart(4, '0')}`);
}
