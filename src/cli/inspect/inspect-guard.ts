import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request to the inspector's server was refused, before its body was read. */
export interface InspectRefusal {
  status: 401 | 403 | 415;
  reason: string;
}

// The loopback names a browser on this machine may use for the server.
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The checks of `rxmcp inspect`'s server on 127.0.0.1 at `port`, made on a
 * request's head alone.
 *
 * - Host must name this server by a loopback name and its port: a page whose
 *   name an attacker re-points at 127.0.0.1 (DNS rebinding) is refused.
 * - Origin, when sent, must be this server's own: another site's page that
 *   guesses the port is refused.
 * - The run's token must come along, as `?token=` (the page and its script,
 *   which the browser loads from the printed URL) or `Authorization: Bearer`
 *   (what the page sends itself): every account on the machine can reach a
 *   loopback port, and the token is what only the person who started
 *   `rxmcp inspect` holds. Compared in constant time.
 * - A POST must be JSON, which no other site's page can send without a
 *   preflight this server never grants.
 *
 * `tokenless` names the paths a GET may load without the token: pages that
 * hold no secret, such as the sign-in window's redirect page, which the
 * authorization server sends the browser to with no token in its address.
 * Host and Origin are checked for them all the same.
 *
 * @returns the refusal for a request, or `undefined` when it may be served
 */
export function inspectGuard(port: number, token: string, tokenless: readonly string[] = []): (request: IncomingMessage) => InspectRefusal | undefined {
  const open = new Set(tokenless);
  const hosts = new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  const expected = digest(token);
  return (request) => {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !hosts.has(host)) return { status: 403, reason: 'the Host header does not name this server' };
    // Duplicate Origin headers arrive joined by a comma, which matches nothing.
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) return { status: 403, reason: 'the request comes from another origin' };
    if (request.method === 'GET' && open.has((request.url ?? '').split('?', 1)[0] as string)) return undefined;
    const given = tokenOf(request);
    if (given === undefined || !timingSafeEqual(digest(given), expected)) return { status: 401, reason: 'the request does not carry this run\'s token' };
    if (request.method === 'POST' && request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') {
      return { status: 415, reason: 'a POST must be application/json' };
    }
    return undefined;
  };
}

// The token from the query (the page's own loads) or a bearer header (the page's requests).
function tokenOf(request: IncomingMessage): string | undefined {
  const bearer = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const query = (request.url ?? '').split('?', 2)[1];
  if (query === undefined) return undefined;
  return new URLSearchParams(query).get('token') ?? undefined;
}

// Hashed first, so both sides have one length and the comparison says nothing about the token's.
function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
