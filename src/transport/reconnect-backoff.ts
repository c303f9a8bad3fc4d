import { LONGEST_TIMER_MS } from '../util/checks.js';
import { keysOf } from '../util/option-keys.js';

/** How the 2025-11-25 binding paces re-opening an SSE stream the server dropped, and HTTP+SSE a new session after a dropped one. */
export interface ReconnectOptions {
  /**
   * How many streams in a row may end within 10 s of being opened (whatever
   * they carried) before the client stops re-opening them (default 8; 0 = never
   * re-open).
   */
  maxAttempts?: number;
  /**
   * How far the wait may grow, in milliseconds (default 30000). A server's own
   * `retry` advice is waited out even when it is longer.
   */
  maxDelayMs?: number;
}

/** The option names of `reconnect`. */
export const RECONNECT_OPTION_KEYS = keysOf<ReconnectOptions>({ maxAttempts: true, maxDelayMs: true });

/** No server's `retry` advice brings the client back sooner than this. */
export const RECONNECT_FLOOR_MS = 500;
/** The wait when the server gave no `retry` advice. */
const DEFAULT_DELAY_MS = 1000;
/** A stream that stayed open this long was working: the next drop starts the count afresh. */
export const STABLE_STREAM_MS = 10000;
export const DEFAULT_RECONNECT_ATTEMPTS = 8;
export const DEFAULT_MAX_RECONNECT_DELAY_MS = 30000;

/**
 * The waits between attempts to re-open one stream. The server's `retry`
 * advice is the base, raised to a floor so that `retry: 0` cannot make the
 * client spin, and always waited out (the spec requires it); it doubles with
 * each stream in a row that ended soon after it opened, up to a cap, the
 * growth jittered. Events do not reset the count, since
 * a server that sends one and hangs up each time would otherwise hold the
 * client in a loop for ever: only a stream that stayed open a while does.
 */
export class ReconnectBackoff {
  private short = 0;

  constructor(
    private readonly maxAttempts: number,
    private readonly maxDelayMs: number,
    /** When the first stream opened. */
    private openedAt = Date.now(),
  ) {}

  /** How many streams in a row ended soon after opening. */
  get attempts(): number {
    return this.short;
  }

  /** Marks the start of an attempt: the stream's life is counted from here. */
  opening(): void {
    this.openedAt = Date.now();
  }

  /**
   * Called when a stream has ended: the wait before the next attempt, or
   * `undefined` when it is time to give up.
   */
  next(retryMs: number | undefined): number | undefined {
    this.short = Date.now() - this.openedAt >= STABLE_STREAM_MS ? 0 : this.short + 1;
    if (this.short >= this.maxAttempts) return undefined;
    const base = Math.min(LONGEST_TIMER_MS, Math.max(RECONNECT_FLOOR_MS, retryMs ?? DEFAULT_DELAY_MS));
    const grown = Math.min(Math.max(this.maxDelayMs, base), base * 2 ** Math.max(0, this.short - 1));
    // Up to a quarter less, so that clients dropped together do not return together; never sooner than advised.
    return Math.max(base, grown * (1 - Math.random() / 4));
  }
}
