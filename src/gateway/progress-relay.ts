/** How many progress notifications of one call go to the host at once before the rate applies. */
export const PROGRESS_BURST = 20;
/** Past the burst, the least time between two progress notifications relayed for one call (20 a second). */
export const PROGRESS_INTERVAL_MS = 50;

/**
 * One call's progress on its way to the host, coalesced: values go at once
 * while a small budget lasts (`PROGRESS_BURST`, refilled one every
 * `PROGRESS_INTERVAL_MS`), and past it only the latest value waiting goes
 * when the budget allows (a progress value says where the work is, so a
 * newer one makes the older unneeded). An upstream server that floods
 * progress cannot flood the host. `end` sends what is still waiting, so the
 * last value is never lost.
 */
export class ProgressRelay {
  // The latest value not yet sent, as the sending of it.
  private pending: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private budget = PROGRESS_BURST;
  private refilled = Date.now();

  /** A new value (`send` sends it): sent now when the budget allows, else kept as the latest. */
  push(send: () => void): void {
    this.pending = send;
    if (this.timer === undefined) this.drain();
  }

  /** Sends the value still waiting, if any, and stops (the round or the call is over). */
  end(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const send = this.pending;
    this.pending = undefined;
    send?.();
  }

  private drain(): void {
    this.timer = undefined;
    const now = Date.now();
    this.budget = Math.min(PROGRESS_BURST, this.budget + (now - this.refilled) / PROGRESS_INTERVAL_MS);
    this.refilled = now;
    const send = this.pending;
    if (!send) return;
    if (this.budget >= 1) {
      this.budget -= 1;
      this.pending = undefined;
      send();
      return;
    }
    this.timer = setTimeout(() => this.drain(), Math.ceil((1 - this.budget) * PROGRESS_INTERVAL_MS));
    this.timer.unref?.();
  }
}
