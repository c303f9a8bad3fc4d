/** One deadline: when it runs out (`Date.now()` time), and what then. */
export interface Deadline {
  at: number;
  expire(): void;
}

/**
 * Many call deadlines on one timer. The timer is armed for the earliest
 * deadline and re-armed only when an earlier one arrives, so a stream of
 * calls with the same budget sets a timer about once per budget rather than
 * once per call. The timer never keeps the process alive by itself: what a
 * pending call waits on (a child process, a socket) does that.
 */
export class Deadlines {
  private readonly entries = new Set<Deadline>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt = Infinity;
  private pausedAt: number | undefined;

  /** Calls `expire` after `ms`, unless the returned function is called first. */
  add(ms: number, expire: () => void): () => void {
    const entry = { at: 0, expire };
    this.track(entry, ms);
    return () => this.untrack(entry);
  }

  /**
   * Runs `entry.expire()` after `ms` unless `untrack`ed first, setting
   * `entry.at`. For callers that are deadlines themselves (every call is),
   * so that bounding one costs no object or closure of its own.
   */
  track(entry: Deadline, ms: number): void {
    entry.at = (this.pausedAt ?? Date.now()) + ms;
    this.entries.add(entry);
    if (this.pausedAt === undefined && entry.at < this.armedAt) this.arm(entry.at);
  }

  /** Forgets a tracked deadline; a no-op for one that ran out or was never tracked. */
  untrack(entry: Deadline): void {
    this.entries.delete(entry);
  }

  /**
   * Stops the clock: no deadline runs out until `resume`, and the time in
   * between does not count (a person signing in is not the server being slow).
   */
  pause(): void {
    if (this.pausedAt !== undefined) return;
    this.pausedAt = Date.now();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  /** Starts the clock again, every deadline moved on by the time it stood still. */
  resume(): void {
    if (this.pausedAt === undefined) return;
    const stood = Date.now() - this.pausedAt;
    this.pausedAt = undefined;
    let earliest = Infinity;
    for (const entry of this.entries) {
      entry.at += stood;
      earliest = Math.min(earliest, entry.at);
    }
    if (earliest < Infinity) this.arm(earliest);
  }

  /** Drops every pending deadline and the timer. */
  clear(): void {
    this.entries.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = Date.now();
    let earliest = Infinity;
    for (const entry of this.entries) {
      if (entry.at <= now) {
        this.entries.delete(entry);
        entry.expire();
      } else if (entry.at < earliest) {
        earliest = entry.at;
      }
    }
    if (earliest < Infinity && earliest < this.armedAt) this.arm(earliest);
  }
}
