import { type ExecuteOptions, failure, type LlmToolCall, type ToolMessage, type ToolProvider } from './bridge.js';
import { messageOf } from '../util/values.js';

interface Waiting {
  call: LlmToolCall;
  signal: AbortSignal | undefined;
  answer(message: ToolMessage): void;
  /** Stops listening for an abort while waiting: the batch that takes the call passes the signal on. */
  taken(): void;
}

/**
 * Gathers the tool calls a framework runs one by one back into the batch the
 * model made, and hands each batch to the provider whole.
 *
 * The AI SDK calls a tool's `execute` once per call, and a LangGraph
 * `ToolNode` invokes each tool on its own, all of a model's turn at once.
 * Passed on one by one, those calls would run side by side in batches of
 * one, and the batch scheduler could no longer keep a turn serial unless
 * every call in it is read-only and idempotent, nor run identical safe calls
 * once. So calls arriving in the same turn of the event loop become one
 * `executeToolCalls`, and batches run one after another: a call that
 * arrives while a batch runs waits for the next. Calls with different abort
 * signals go in different batches, each under its own signal.
 *
 * @example
 * ```ts
 * const gatherer = new CallGatherer(policy);
 * const answer = await gatherer.run({ id: 'call-1', function: { name: 'add', arguments: { a: 1, b: 2 } } }, signal);
 * ```
 */
export class CallGatherer {
  private waiting: Waiting[] = [];
  private draining = false;

  /** @param options passed on with every batch (each batch adds its own signal). */
  constructor(
    private readonly provider: ToolProvider,
    private readonly options: Omit<ExecuteOptions, 'signal'> = {},
  ) {}

  /** Runs one call in the next batch; resolves with its answer, never rejects. */
  run(call: LlmToolCall, signal?: AbortSignal): Promise<ToolMessage> {
    return new Promise((resolve) => {
      // A call abandoned while it waits is answered at once; one already
      // running is cancelled by the provider through the same signal.
      const abandon = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at === -1) return;
        this.waiting.splice(at, 1);
        resolve(failure(call.id, 'Cancelled before it ran'));
      };
      const entry: Waiting = { call, signal, answer: resolve, taken: () => signal?.removeEventListener('abort', abandon) };
      if (signal?.aborted) {
        resolve(failure(call.id, 'Cancelled before it ran'));
        return;
      }
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting.push(entry);
      if (!this.draining) {
        this.draining = true;
        setTimeout(() => void this.drain(), 0);
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      for (const entry of batch) entry.taken();
      for (const group of bySignal(batch)) await this.runBatch(group);
      // Let stragglers of the same turn join the next batch rather than each start one.
      if (this.waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.draining = false;
  }

  private async runBatch(group: Waiting[]): Promise<void> {
    const signal = group[0]?.signal;
    const calls = group.map((entry) => entry.call);
    // executeToolCalls never rejects by contract; a provider written elsewhere might, and that must not strand the calls.
    const answers = await this.provider.executeToolCalls(calls, signal ? { ...this.options, signal } : this.options).catch((error: unknown) => calls.map((call) => failure(call.id, messageOf(error))));
    group.forEach((entry, index) => entry.answer(answers[index] ?? failure(entry.call.id, 'The provider gave no answer to this call')));
  }
}

/** The entries in groups sharing one abort signal, in order of first arrival. */
function bySignal(entries: Waiting[]): Waiting[][] {
  const groups = new Map<AbortSignal | undefined, Waiting[]>();
  for (const entry of entries) {
    const group = groups.get(entry.signal);
    if (group) group.push(entry);
    else groups.set(entry.signal, [entry]);
  }
  return [...groups.values()];
}
