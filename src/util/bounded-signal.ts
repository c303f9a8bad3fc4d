import type { AbortLike } from './light-abort.js';

/**
 * An abort signal for one HTTP exchange: it follows the caller's signal and
 * aborts by itself after `timeoutMs` (0 = never), and says which of the two
 * it was.
 */
export class BoundedSignal {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private readonly follow = (): void => this.controller.abort(this.parent.reason);

  readonly signal: AbortSignal = this.controller.signal;

  constructor(
    private readonly parent: AbortLike,
    timeoutMs: number,
  ) {
    parent.addEventListener('abort', this.follow, { once: true });
    this.timer = timeoutMs > 0 ? setTimeout(() => ((this.expired = true), this.controller.abort()), timeoutMs) : undefined;
  }

  /** True when the time ran out (rather than the caller aborting). */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Stops the clock; the link to the caller's signal stays, for a body still streaming. */
  stopClock(): void {
    clearTimeout(this.timer);
  }

  /** Stops the clock and lets go of the caller's signal. */
  release(): void {
    this.stopClock();
    this.parent.removeEventListener('abort', this.follow);
  }
}
