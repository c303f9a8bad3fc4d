import { type AuthStep, McpAuthError } from '../errors/auth-errors.js';
import { MessageTooLongError, readText } from '../http/body.js';
import type { FetchLike } from '../http/fetch-like.js';
import { BoundedSignal } from '../util/bounded-signal.js';
import { isObject } from '../util/values.js';
import { zoneOf } from './network-zone.js';
import type { OAuthReach } from './oauth-reach.js';
import { quote } from '../util/quote.js';

/** How long an authorization server may take to answer one request. */
const EXCHANGE_TIMEOUT_MS = 30000;
/** Metadata documents and token answers are small; anything larger is refused. */
const MAX_BODY = 1024 * 1024;

/**
 * True for URLs a secret may travel to: https, or plain http to this machine
 * (OAuth 2.1 §1.5, and the loopback redirect URIs native apps use).
 */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && zoneOf(url) === 'this-machine');
}

/** Parses `value` as a URL that is https or loopback, or refuses it for `step`. */
export function secureUrl(value: unknown, step: AuthStep, what: string): URL {
  let url: URL;
  try {
    // Only a string or a URL: String() of an array nested deep enough overflows the stack.
    if (typeof value !== 'string' && !(value instanceof URL)) throw new TypeError('not a string');
    url = new URL(String(value));
  } catch {
    throw new McpAuthError(step, `${what} is not a URL: ${quote(value)}`);
  }
  if (!isSecureUrl(url)) throw new McpAuthError(step, `${what} must be https (or http on this machine); got ${JSON.stringify(url.origin)}`);
  return url;
}

/** A JSON answer from an authorization server or a metadata endpoint. */
export interface OAuthReply {
  status: number;
  body: Record<string, unknown> | undefined;
  /** The `DPoP-Nonce` header (RFC 9449 §8), as sent: untrusted. */
  dpopNonce: string | null;
}

/**
 * The client's HTTP to everything that is not the MCP endpoint: metadata,
 * registration and token requests. Each URL must pass `reach` before
 * anything is sent to it; redirects are not followed (a secret must not
 * follow one, and a redirect would skip that check); every request has a
 * time limit and the caller's signal; error messages quote what the server
 * said, never what was sent.
 */
export class OAuthHttp {
  constructor(
    private readonly fetchImpl: () => Promise<FetchLike>,
    private readonly reach: OAuthReach,
  ) {}

  /** GETs a JSON document; `body` is undefined when the answer is not a JSON object. */
  get(url: URL, step: AuthStep, signal: AbortSignal): Promise<OAuthReply> {
    this.reach.check(url, step);
    return this.exchange(url, { method: 'GET', headers: { Accept: 'application/json' } }, step, signal);
  }

  /**
   * POSTs a form (token requests) or a JSON body (registration). `callerChosen`
   * is for a URL from the caller's own options (the identity provider of
   * `auth.enterprise`): the network-zone rules guard against URLs a server
   * steers the client to, and do not apply to it; it must still be https or on this machine.
   */
  post(
    url: URL,
    body: URLSearchParams | Record<string, unknown>,
    headers: Record<string, string>,
    step: AuthStep,
    signal: AbortSignal,
    callerChosen = false,
  ): Promise<OAuthReply> {
    const form = body instanceof URLSearchParams;
    if (!callerChosen) this.reach.check(url, step);
    return this.exchange(
      url,
      {
        method: 'POST',
        headers: { ...headers, Accept: 'application/json', 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        body: form ? body.toString() : JSON.stringify(body),
      },
      step,
      signal,
    );
  }

  private async exchange(url: URL, init: Record<string, unknown>, step: AuthStep, signal: AbortSignal): Promise<OAuthReply> {
    if (!isSecureUrl(url)) throw new McpAuthError(step, `refusing to send an OAuth request to ${JSON.stringify(url.origin.slice(0, 200))} in the clear`);
    const fetchImpl = await this.fetchImpl();
    const bounded = new BoundedSignal(signal, EXCHANGE_TIMEOUT_MS);
    try {
      const response = await fetchImpl(url.href, { ...init, redirect: 'manual', signal: bounded.signal });
      return { status: response.status, body: parseObject(await readText(response, MAX_BODY)), dpopNonce: response.headers.get('dpop-nonce') };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof MessageTooLongError) throw new McpAuthError(step, `${url.origin}${url.pathname} answered with more than ${MAX_BODY} bytes`);
      const reason = bounded.timedOut ? `no answer within ${EXCHANGE_TIMEOUT_MS} ms` : (error as Error).message;
      throw new McpAuthError(step, `cannot reach ${url.origin}${url.pathname}: ${reason}`, { cause: error });
    } finally {
      bounded.release();
    }
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 6749 §5.2: an error code is printable ASCII but `"` and `\`; a longer one than this is not a code. */
const ERROR_CODE = /^[\x20\x21\x23-\x5B\x5D-\x7E]{1,64}$/;
/** A JWT, or the start of one, as a server might quote an assertion or an ID token back. */
const JWT_LIKE = /eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)*/g;
/** Shorter secrets are not looked for: hiding every `s` of a one-letter test secret would hide the server's words instead. */
const MIN_HIDDEN = 8;

/**
 * The authorization server's own account of a refusal, for an error message.
 * `secrets` are what the request carried (a client secret, an assertion, a
 * refresh token…): a server that quotes one back in its description, or any
 * JWT, has it hidden, and an error code that is not one is left out.
 */
export function oauthRefusal(reply: OAuthReply, secrets: readonly (string | undefined)[] = []): { text: string; code?: string } {
  const hidden = secrets.filter((secret): secret is string => secret !== undefined && secret.length >= MIN_HIDDEN);
  const hide = (text: string): string => hidden.reduce((shown, secret) => shown.split(secret).join('[hidden]'), text).replace(JWT_LIKE, '[a JWT]');
  const raw = reply.body?.error;
  const code = typeof raw === 'string' && ERROR_CODE.test(raw) && hide(raw) === raw ? raw : undefined;
  const description = typeof reply.body?.error_description === 'string' ? hide(reply.body.error_description).slice(0, 300) : undefined;
  if (!code) return { text: `HTTP ${reply.status}${raw !== undefined ? ' with an error code rxmcp does not quote' : ''}` };
  return { text: `HTTP ${reply.status} ${JSON.stringify(code)}` + (description ? ` (${JSON.stringify(description)})` : ''), code };
}
