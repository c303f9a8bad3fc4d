// A 2025-era upstream server may ask a question the wire ties to no call; the gateway can then pass it on
// only while a single host could be the one it is for. This file keeps count of which hosts have
// something in flight, so the serving side (every request) and the host calls (questions) agree on it.

// How long a host whose request was given up before its upstream answered (cancelled by the host, or abandoned by
// the gateway) still counts as having one in flight: a 2025-era server is not bound to stop at a cancellation, and
// may still ask a question for it, which the wire ties to no call. And the most such hosts remembered.
const LINGER_MS = 60_000;
const MAX_LINGERING = 1_024;

/**
 * The hosts that have a request in flight (every method: tool calls,
 * lists, reads, completions, subscriptions), and those whose request was
 * given up lately, by `HostRequest.principal`.
 */
export class BusyHosts {
  private readonly inFlight = new Map<string, number>();
  // Hosts whose request was given up before its answer came, until when they still count as busy (see LINGER_MS).
  private readonly lingering = new Map<string, number>();

  /** A request of `principal` starts. */
  enter(principal: string): void {
    this.inFlight.set(principal, (this.inFlight.get(principal) ?? 0) + 1);
  }

  /** A request of `principal` ends; `givenUp` when it was cancelled before its answer. */
  leave(principal: string, givenUp: boolean): void {
    if (givenUp) this.linger(principal);
    const left = (this.inFlight.get(principal) ?? 1) - 1;
    if (left > 0) this.inFlight.set(principal, left);
    else this.inFlight.delete(principal);
  }

  /** Counts a host as busy for LINGER_MS more: its request was given up before its upstream answered. */
  linger(principal: string): void {
    const now = Date.now();
    for (const [host, until] of this.lingering) if (until <= now) this.lingering.delete(host);
    this.lingering.delete(principal);
    // Past the bound the longest-kept goes: the many left still make every untied question declined.
    if (this.lingering.size >= MAX_LINGERING) this.lingering.delete(this.lingering.keys().next().value as string);
    this.lingering.set(principal, now + LINGER_MS);
  }

  /** How many hosts have a request in flight, are among `waiting` (a call waits for their answer), or gave up a request whose server may still ask. */
  count(waiting: Iterable<string>): number {
    const hosts = new Set(this.inFlight.keys());
    for (const principal of waiting) hosts.add(principal);
    const now = Date.now();
    for (const [host, until] of this.lingering) if (until > now) hosts.add(host);
    return hosts.size;
  }
}
