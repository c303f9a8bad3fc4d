import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Seals and opens the `requestState` a gateway hands a downstream host when
 * it parks a call: the handle of the parked call, its expiry, and an
 * HMAC-SHA256 under a key that never leaves this process. A host can echo
 * it back, never forge or extend it; another process cannot open it.
 */
export class RequestStateSeal {
  private readonly key = randomBytes(32);

  /** A sealed state for `handle`, valid until `expiresAt` (ms since the epoch). */
  seal(handle: string, expiresAt: number): string {
    const body = `${handle}.${expiresAt.toString(36)}`;
    return `rxgw1.${body}.${this.mac(body)}`;
  }

  /** The handle in a state this seal made and that has not expired, or why not. */
  open(state: string, now = Date.now()): { handle: string } | { error: 'forged' | 'expired' } {
    const parts = state.length <= 256 ? state.split('.') : [];
    if (parts.length !== 4 || parts[0] !== 'rxgw1') return { error: 'forged' };
    const [, handle = '', expiry = '', mac = ''] = parts;
    const expected = Buffer.from(this.mac(`${handle}.${expiry}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: 'forged' };
    if (parseInt(expiry, 36) <= now) return { error: 'expired' };
    return { handle };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** An unguessable handle for a parked call. */
export function newHandle(): string {
  return randomBytes(18).toString('base64url');
}
