// What a 2025-era host is told when a page it was sent to is done: the upstream server's
// notifications/elicitation/complete, relayed to that host alone (see `ElicitationCompletions`).
import { randomUUID } from 'node:crypto';
import { messageOf } from '../util/values.js';

/** The longest upstream `elicitationId` passed on as it is (as in a -32042 the gateway writes). */
const MAX_ELICITATION_ID_CHARS = 256;

/** How many URL questions put to 2025-era hosts are remembered for their completion, and for how long. */
const MAX_HANDED = 256;
const HANDED_MS = 10 * 60_000;

interface Handed {
  principal: string;
  hostId: string;
  expiry: number;
  answered: boolean;
  completed: boolean;
}

type Send = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;

/**
 * The relay of `notifications/elicitation/complete` (2025-11-25 only): each
 * URL question put to a 2025-era host is remembered under its server and
 * that server's elicitationId, with the host and the id the host saw; the
 * server's completion goes to that host alone (2025-11-25
 * client/elicitation: only to the client that was asked), once, after the
 * host has answered, and is then forgotten. Bounded in count and time; a
 * completion for an id not handed out (yet) is kept as briefly, since a
 * server may send it before its question has even reached the host.
 */
export class ElicitationCompletions {
  private readonly senders = new Map<string, Send>();
  private readonly handed = new Map<string, Handed>();
  private readonly heard = new Map<string, number>();

  /** A 2025-era host's session, which `send` reaches alone. */
  reach(principal: string, send: Send): void {
    this.senders.set(principal, send);
  }

  /** Forgets a host that went away, and the pages put to it. */
  forget(principal: string): void {
    this.senders.delete(principal);
    for (const [key, entry] of this.handed) if (entry.principal === principal) this.handed.delete(key);
  }

  /** Remembers a URL question for a host that can be told of its completion; `undefined` for one that cannot (no 2025-era session). */
  handOut(principal: string, server: string, upstreamId: unknown): { hostId: string; answered(onWarn: (message: string) => void): void } | undefined {
    if (!this.senders.has(principal)) return undefined;
    const sane = typeof upstreamId === 'string' && upstreamId !== '' && upstreamId.length <= MAX_ELICITATION_ID_CHARS;
    const hostId = sane ? upstreamId : `rxmcp-${randomUUID()}`;
    // An id the server did not give (or gave too long to keep) is one it cannot complete: only the host's is made.
    if (!sane) return { hostId, answered: () => undefined };
    const key = JSON.stringify([server, upstreamId]);
    const now = Date.now();
    makeRoom(this.handed, now);
    const entry: Handed = { principal, hostId, expiry: now + HANDED_MS, answered: false, completed: this.heard.delete(key) };
    this.handed.delete(key);
    this.handed.set(key, entry);
    return {
      hostId,
      answered: (onWarn) => {
        if (this.handed.get(key) !== entry) return;
        entry.answered = true;
        if (entry.completed) this.send(key, entry, onWarn);
      },
    };
  }

  /** A server's completion of one of its pages: sent to the host given it once that host answered, else kept briefly. */
  complete(server: string, upstreamId: string, onWarn: (message: string) => void): void {
    const key = JSON.stringify([server, upstreamId]);
    const entry = this.handed.get(key);
    const now = Date.now();
    if (!entry || entry.expiry <= now) {
      if (entry) this.handed.delete(key);
      makeRoom(this.heard, now);
      this.heard.delete(key);
      this.heard.set(key, now + HANDED_MS);
      return;
    }
    entry.completed = true;
    if (entry.answered) this.send(key, entry, onWarn);
  }

  private send(key: string, entry: Handed, onWarn: (message: string) => void): void {
    this.handed.delete(key);
    const send = this.senders.get(entry.principal);
    send?.({ method: 'notifications/elicitation/complete', params: { elicitationId: entry.hostId } }).catch((error: unknown) =>
      onWarn(`a URL elicitation's completion could not be passed on: ${messageOf(error)}`),
    );
  }
}

// Room for one more in a map of entries with expiries (in the order they were put): the expired go, then the oldest.
function makeRoom<V extends number | { expiry: number }>(map: Map<string, V>, now: number): void {
  for (const [key, value] of map) {
    if ((typeof value === 'number' ? value : value.expiry) > now) break;
    map.delete(key);
  }
  for (const key of map.keys()) {
    if (map.size < MAX_HANDED) break;
    map.delete(key);
  }
}
