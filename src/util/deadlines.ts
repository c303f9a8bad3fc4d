import { LONGEST_TIMER_MS } from './checks.js';

/**
 * One deadline: when it runs out (in ms on its `Deadlines`' clock), and what then. The
 * two links are `Deadlines`' own, for the ring it keeps the deadlines on:
 * an implementer starts them undefined and leaves them alone.
 */
export interface Deadline {
  at: number;
  expire(): void;
  newer: Deadline | undefined;
  older: Deadline | undefined;
}

/**
 * Many deadlines on one timer: the client's call budgets, and the HTTP
 * wire's wait for a response and its drain of a body left unread. The
 * timer is armed for the earliest deadline and re-armed only when an
 * earlier one arrives, so a stream of calls with the same budget sets a
 * timer about once per budget rather than once per call. The timer never
 * keeps the process alive by itself: what a pending call waits on (a child
 * process, a socket) does that.
 *
 * The deadlines being tracked hang on a ring, each linked to the ones
 * tracked before and after it, through a sentinel. Every call is tracked
 * and dropped once, and on the ring that is a few field writes; a Set cost
 * a thousand calls in flight an identity hash for each call's guard, two
 * hash-table operations and the table's rehashing as calls came and went.
 */
export class Deadlines {
  private readonly ring: Deadline = { at: Infinity, expire: () => undefined, newer: undefined, older: undefined };
  // Times are counted from here rather than from 1970: for at least the
  // first twelve days that is a small integer, which V8 keeps in the
  // deadline's own field, where a Date.now() time is a number it boxes in an
  // object of its own, one more for every call. (Later ones are boxed again:
  // slower, never wrong.)
  private readonly origin = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt = Infinity;
  private pausedAt: number | undefined;

  constructor() {
    this.ring.newer = this.ring;
    this.ring.older = this.ring;
  }

  /** Calls `expire` after `ms`, unless the returned function is called first. */
  add(ms: number, expire: () => void): () => void {
    const entry: Deadline = { at: 0, expire, newer: undefined, older: undefined };
    this.track(entry, ms);
    return () => this.untrack(entry);
  }

  /**
   * Runs `entry.expire()` after `ms` unless `untrack`ed first, setting
   * `entry.at`. For callers that are deadlines themselves (every call is),
   * so that bounding one costs no object or closure of its own.
   */
  track(entry: Deadline, ms: number): void {
    entry.at = (this.pausedAt ?? this.now()) + ms;
    // Tracked again (a call's activity restarts its budget), it keeps its place.
    if (entry.older === undefined) this.link(entry);
    if (this.pausedAt === undefined && entry.at < this.armedAt) this.arm(entry.at);
  }

  /** Forgets a tracked deadline; a no-op for one that ran out or was never tracked. */
  untrack(entry: Deadline): void {
    if (entry.older !== undefined) this.unlink(entry);
  }

  /**
   * Stops the clock: no deadline runs out until `resume`, and the time in
   * between does not count (a person signing in is not the server being slow).
   */
  pause(): void {
    if (this.pausedAt !== undefined) return;
    this.pausedAt = this.now();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  /** Starts the clock again, every deadline moved on by the time it stood still. */
  resume(): void {
    if (this.pausedAt === undefined) return;
    const stood = this.now() - this.pausedAt;
    this.pausedAt = undefined;
    let earliest = Infinity;
    for (let entry = this.ring.newer as Deadline; entry !== this.ring; entry = entry.newer as Deadline) {
      entry.at += stood;
      earliest = Math.min(earliest, entry.at);
    }
    if (earliest < Infinity) this.arm(earliest);
  }

  /** Drops every pending deadline and the timer. */
  clear(): void {
    while (this.ring.newer !== this.ring) this.unlink(this.ring.newer as Deadline);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  // Math.trunc of a whole number changes nothing, but it hands back a small
  // integer where the subtraction, run by the interpreter, may give a boxed
  // number, and one boxed value stored makes every deadline's field boxed.
  private now(): number {
    return Math.trunc(Date.now() - this.origin);
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedAt = at;
    // A longer delay than a timer takes would fire at once, again and again:
    // a budget that long (a call's is not capped) waits the longest a timer
    // waits, finds nothing due yet and waits again.
    this.timer = setTimeout(() => this.fire(), Math.min(LONGEST_TIMER_MS, Math.max(0, at - this.now())));
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = this.now();
    let earliest = Infinity;
    // Found first and expired after: an expiry ends a call, and what that
    // drops or tracks would otherwise change the ring under the walk.
    const due: Deadline[] = [];
    for (let entry = this.ring.newer as Deadline; entry !== this.ring; entry = entry.newer as Deadline) {
      if (entry.at <= now) due.push(entry);
      else if (entry.at < earliest) earliest = entry.at;
    }
    try {
      for (const entry of due) {
        // An earlier expiry may have dropped this one, or tracked it afresh.
        if (entry.older === undefined || entry.at > now) continue;
        this.unlink(entry);
        entry.expire();
      }
    } finally {
      // An expiry may throw (RxJS rethrows an error for a Subscriber given
      // no observer): the error goes on, and the calls still due run out on
      // the next turn rather than never.
      if (due.some((entry) => entry.older !== undefined && entry.at <= now)) earliest = now;
      if (earliest < Infinity && earliest < this.armedAt) this.arm(earliest);
    }
  }

  // On the ring, as its newest.
  private link(entry: Deadline): void {
    const newest = this.ring.older as Deadline;
    entry.older = newest;
    entry.newer = this.ring;
    newest.newer = entry;
    this.ring.older = entry;
  }

  private unlink(entry: Deadline): void {
    (entry.older as Deadline).newer = entry.newer;
    (entry.newer as Deadline).older = entry.older;
    entry.newer = undefined;
    entry.older = undefined;
  }
}
