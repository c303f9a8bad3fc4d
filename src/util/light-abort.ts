/**
 * The part of an AbortSignal that rxmcp's HTTP code reads: whether it
 * aborted, why, and a listener for when it does.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * An abort controller and its signal in one plain object, for the abort
 * every HTTP request carries (cancelling a call aborts its request). Node's
 * AbortSignal is an EventTarget: making one, then adding and removing a
 * listener, measured about 9 µs, more than the rest of what the transport
 * does for a request in JavaScript. Listeners run once, in order, when
 * `abort` is first called; one added later never runs, as with AbortSignal.
 *
 * Code outside rxmcp (a caller's fetch, a sign-in) gets a real AbortSignal
 * from `toAbortSignal`.
 */
export class LightAbort implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | undefined;
  private native: AbortController | undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const { listeners } = this;
    this.listeners = undefined;
    this.native?.abort(reason);
    if (listeners) for (const listener of listeners) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index !== -1) this.listeners?.splice(index, 1);
  }

  /** A real AbortSignal that aborts with this one (made once, when first asked for). */
  get signal(): AbortSignal {
    if (!this.native) {
      this.native = new AbortController();
      if (this.aborted) this.native.abort(this.reason);
    }
    return this.native.signal;
  }
}

/** An AbortSignal for code that needs a real one: the signal itself, or a LightAbort's. */
export function toAbortSignal(signal: AbortLike): AbortSignal {
  return signal instanceof LightAbort ? signal.signal : (signal as AbortSignal);
}
