/**
 * Many call deadlines on one timer. The timer is armed for the earliest
 * deadline and re-armed only when an earlier one arrives, so a stream of
 * calls with the same budget sets a timer about once per budget rather than
 * once per call. The timer never keeps the process alive by itself: what a
 * pending call waits on (a child process, a socket) does that.
 */
export class Deadlines {
  private readonly entries = new Map<number, { at: number; expire: () => void }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt = Infinity;
  private nextKey = 1;

  /** Calls `expire` after `ms`, unless the returned function is called first. */
  add(ms: number, expire: () => void): () => void {
    const key = this.nextKey++;
    const at = Date.now() + ms;
    this.entries.set(key, { at, expire });
    if (at < this.armedAt) this.arm(at);
    return () => {
      this.entries.delete(key);
    };
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
    for (const [key, entry] of this.entries) {
      if (entry.at <= now) {
        this.entries.delete(key);
        entry.expire();
      } else if (entry.at < earliest) {
        earliest = entry.at;
      }
    }
    if (earliest < Infinity && earliest < this.armedAt) this.arm(earliest);
  }
}
