import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Seals and opens the `requestState` a gateway hands a downstream host when
 * it parks a call or asks it a permission question: a handle, its expiry,
 * and an HMAC-SHA256 under a key that never leaves this process over both
 * and the request it was issued for (`binding`: the host, the method and the
 * request's own parameters), which the state does not carry. A host can echo
 * it back on its retry of that request, never forge or extend it, nor use it
 * under another host, tool or arguments; another process cannot open it.
 */
export class RequestStateSeal {
  private readonly key = randomBytes(32);

  /** A sealed state for `handle`, valid until `expiresAt` (ms since the epoch), for the request `binding` names. */
  seal(handle: string, expiresAt: number, binding = ''): string {
    const body = `${handle}.${expiresAt.toString(36)}`;
    return `rxgw1.${body}.${this.mac(body, binding)}`;
  }

  /**
   * The handle in a state this seal made for `binding` and that has not
   * expired, or why not: `forged` also when it was issued for another request.
   */
  open(state: string, now = Date.now(), binding = ''): { handle: string } | { error: 'forged' | 'expired' } {
    const parts = state.length <= 256 ? state.split('.') : [];
    if (parts.length !== 4 || parts[0] !== 'rxgw1') return { error: 'forged' };
    const [, handle = '', expiry = '', mac = ''] = parts;
    const expected = Buffer.from(this.mac(`${handle}.${expiry}`, binding));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: 'forged' };
    if (parseInt(expiry, 36) <= now) return { error: 'expired' };
    return { handle };
  }

  private mac(body: string, binding: string): string {
    return createHmac('sha256', this.key).update(body).update('\0').update(binding).digest('base64url');
  }
}

/** An unguessable handle for a parked call. */
export function newHandle(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * What a sealed requestState is bound to: the host, the method and the
 * request's own parameters (all but the answers, the state and `_meta`,
 * which a retry changes), as a digest. Parameters too deep to write out bind
 * to nothing a retry can match.
 */
export function requestBinding(principal: string, method: string, params: Record<string, unknown>): string {
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(params)) if (key !== 'inputResponses' && key !== 'requestState' && key !== '_meta') own[key] = params[key];
  let text: string;
  try {
    text = JSON.stringify([principal, method, own]);
  } catch {
    text = randomUUID();
  }
  return createHash('sha256').update(text).digest('base64url');
}
