import type { ServerEntry } from '../config/server-config.js';
import { base64Url } from '../util/base64url.js';
import { canonicalJson } from '../util/canonical-json.js';

// A catalogue file lies about on disk and may be shared: it must say
// whether a server's entry changed without saying what the entry holds.
// Env values, header values (tokens), and args (which carry tokens as
// often as not) all go into one digest and nowhere else.

/**
 * A digest of what in a server's config entry decides which server runs:
 * its command, args, env (names and values), cwd, url, headers (names and
 * values) and HTTP transport. Not the tool filters nor `alwaysLoad`, which
 * are applied to whatever list the server gives. WebCrypto's SHA-256, so it
 * runs in a browser as well as in Node.
 */
export async function configFingerprint(entry: ServerEntry): Promise<string> {
  const described =
    entry.transport === 'stdio'
      ? { transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd ?? null }
      : { transport: 'http', url: entry.url, headers: entry.headers, httpTransport: entry.httpTransport };
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(described)));
  return `sha256:${base64Url(new Uint8Array(digest))}`;
}
