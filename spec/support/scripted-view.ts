import type { MessageEvents, PostTarget } from '../../src/apps/index.js';

// A scripted stand-in for the sandbox frame's window, for unit tests of the
// host protocol in Node: what the host posts is recorded, and `post` delivers
// a message to the host page's window as if from a given source and origin.

/** One message the host posted, with the targetOrigin it named. */
export interface Posted {
  message: Record<string, unknown>;
  targetOrigin: string;
}

/** The host page's window and the frame's window, scripted. */
export class ScriptedView {
  /** Where the host listens for `message` events. */
  readonly page = new EventTarget();
  /** The same, as the transport takes it (the events dispatched are plain Events carrying data, origin and source). */
  readonly events = this.page as unknown as MessageEvents;
  /** Everything the host posted to the frame, in order. */
  readonly posted: Posted[] = [];
  /** The frame's window. */
  readonly frame: PostTarget = { postMessage: (message, targetOrigin) => this.posted.push({ message: message as Record<string, unknown>, targetOrigin }) };

  constructor(readonly origin: string) {}

  /** Delivers `data` to the page as a message event; from the frame at its origin unless told otherwise. */
  post(data: unknown, from: { source?: unknown; origin?: string } = {}): void {
    const event = new Event('message');
    Object.defineProperties(event, {
      data: { value: data },
      origin: { value: from.origin ?? this.origin },
      source: { value: 'source' in from ? from.source : this.frame },
    });
    this.page.dispatchEvent(event);
  }

  /** The messages posted so far that satisfy `test`. */
  sent(test: (message: Record<string, unknown>) => boolean = () => true): Array<Record<string, unknown>> {
    return this.posted.map((entry) => entry.message).filter(test);
  }

  /** Resolves with the first posted message that satisfies `test`, waiting up to `ms`. */
  async next(test: (message: Record<string, unknown>) => boolean, ms = 10000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.sent(test)[0];
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('the host posted no such message in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** The answer the host posted to request `id`. */
  answer(id: number | string, ms?: number): Promise<Record<string, unknown>> {
    return this.next((message) => message.id === id && ('result' in message || 'error' in message), ms);
  }
}
