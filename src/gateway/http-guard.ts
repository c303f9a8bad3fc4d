import { createHash, timingSafeEqual } from 'node:crypto';
import { McpClientError } from '../errors/mcp-client-error.js';
import { keysOf } from '../util/option-keys.js';
import { refuseUnknown } from '../util/refuse-unknown.js';

/** The checks a gateway's HTTP face makes before a request reaches MCP. */
export interface HttpGuardOptions {
  /**
   * The token a request must carry as `Authorization: Bearer …`, compared in
   * constant time; a request without it, or with another, is answered 401
   * with a `WWW-Authenticate: Bearer` challenge. Required by `listen`,
   * which takes `false` to serve without one (on loopback only).
   */
  bearerToken?: string;
  /**
   * The `Host` header values accepted (`name:port`, or a bare name for any
   * port). Default: the loopback names (`127.0.0.1`, `localhost`, `[::1]`)
   * with the bound port under `listen`, with any port under `fetchHandler`.
   * Anything else is answered 403: it stops DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * The `Origin` header values accepted (a request without `Origin` always
   * passes this check). Default: under `listen`, the gateway's own loopback
   * origins with the bound port (`http://127.0.0.1:P`, `http://localhost:P`,
   * `http://[::1]:P`), since a page served from the gateway's own address is
   * no foreign site; under `fetchHandler`, none. Any other `Origin` (a web
   * page's elsewhere) is answered 403: it stops a browser page from driving
   * the gateway.
   */
  allowedOrigins?: string[];
}

const GUARD_KEYS = keysOf<HttpGuardOptions>({ bearerToken: true, allowedHosts: true, allowedOrigins: true });
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The guard's checks, compiled once. */
export interface HttpGuard {
  /** The response that refuses the request (read from its headers alone), or `undefined` to let it through. */
  refuse(request: Pick<Request, 'headers'>): Response | undefined;
}

/** Whether a host to bind to is a loopback one. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Compiles the checks of `options`; `port` is the bound port (`undefined`
 * under a bare fetch handler, where the default hosts accept any port).
 *
 * @throws McpClientError for an unknown or malformed option (the token is never quoted).
 */
export function httpGuard(options: HttpGuardOptions = {}, port?: number): HttpGuard {
  refuseUnknown(options, GUARD_KEYS);
  const { bearerToken, allowedHosts, allowedOrigins } = options;
  if (bearerToken !== undefined && (typeof bearerToken !== 'string' || bearerToken.length < 16 || /\s/.test(bearerToken))) {
    throw new McpClientError('option bearerToken must be a string of at least 16 characters without spaces');
  }
  for (const [name, list] of [['allowedHosts', allowedHosts ?? []], ['allowedOrigins', allowedOrigins ?? []]] as const) {
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== '')) throw new McpClientError(`option ${name} must be an array of non-empty strings`);
  }
  const hosts = new Set((allowedHosts ?? LOOPBACK_NAMES.map((name) => (port === undefined ? name : `${name}:${port}`))).map((host) => host.toLowerCase()));
  const origins = new Set(allowedOrigins ?? (port === undefined ? [] : LOOPBACK_NAMES.map((name) => `http://${name}:${port}`)));
  const expected = bearerToken === undefined ? undefined : digest(bearerToken);
  return {
    refuse(request) {
      const host = (request.headers.get('host') ?? '').toLowerCase();
      if (!hosts.has(host) && !hosts.has(withoutPort(host))) return plain(403, 'Forbidden: this Host is not served here');
      const origin = request.headers.get('origin');
      if (origin !== null && !origins.has(origin)) return plain(403, 'Forbidden: requests from a web origin are refused');
      if (expected) {
        const given = /^Bearer ([^\s]+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
        if (given === undefined) return challenge('');
        if (!timingSafeEqual(digest(given), expected)) return challenge(', error="invalid_token"');
      }
      return undefined;
    },
  };
}

// Hashing first makes both sides one length, so the comparison itself says nothing about the token's.
function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function withoutPort(host: string): string {
  return host.replace(/:\d+$/, '');
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

function challenge(error: string): Response {
  const response = plain(401, 'Unauthorized: a bearer token is needed');
  response.headers.set('www-authenticate', `Bearer realm="rxmcp-gateway"${error}`);
  return response;
}
