import type { LlmTool, LlmToolCall, ToolMessage, ToolProvider } from '../../src/index.js';
import { CallGatherer } from '../../src/tools/call-gatherer.js';

const call = (id: string): LlmToolCall => ({ id, function: { name: 'tool', arguments: {} } });
const answer = (id: string): ToolMessage => ({ role: 'tool', tool_call_id: id, content: `answer ${id}`, is_error: false });

/** A provider whose batches finish when the test says so, recording what overlapped. */
class HeldProvider implements ToolProvider {
  readonly batches: Array<{ ids: string[]; signal: AbortSignal | undefined }> = [];
  running = 0;
  overlapped = false;
  private releases: Array<() => void> = [];
  async toolsForLlm(): Promise<LlmTool[]> {
    return [];
  }
  async executeToolCalls(calls: LlmToolCall[], options: { signal?: AbortSignal } = {}): Promise<ToolMessage[]> {
    this.batches.push({ ids: calls.map((c) => c.id), signal: options.signal });
    this.overlapped ||= this.running > 0;
    this.running++;
    await new Promise<void>((resolve) => this.releases.push(resolve));
    this.running--;
    return calls.map((c) => answer(c.id));
  }
  release(): void {
    this.releases.shift()?.();
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('CallGatherer', () => {
  it('hands the calls of one turn to the provider as one batch, and each caller its own answer', async () => {
    const provider = new HeldProvider();
    const gatherer = new CallGatherer(provider);
    const answers = Promise.all(['a', 'b', 'c'].map((id) => gatherer.run(call(id))));
    await tick();
    provider.release();
    expect(await answers).toEqual([answer('a'), answer('b'), answer('c')]);
    expect(provider.batches.map((batch) => batch.ids)).toEqual([['a', 'b', 'c']]);
  });

  it('keeps a call that arrives while a batch runs for the next batch, never overlapping them', async () => {
    const provider = new HeldProvider();
    const gatherer = new CallGatherer(provider);
    const first = gatherer.run(call('a'));
    await tick();
    const second = gatherer.run(call('b'));
    await tick();
    expect(provider.batches.map((batch) => batch.ids)).toEqual([['a']]);
    provider.release();
    expect(await first).toEqual(answer('a'));
    await tick();
    provider.release();
    expect(await second).toEqual(answer('b'));
    expect(provider.batches.map((batch) => batch.ids)).toEqual([['a'], ['b']]);
    expect(provider.overlapped).toBe(false);
  });

  it('runs calls under different abort signals as different batches, each under its own signal', async () => {
    const provider = new HeldProvider();
    const gatherer = new CallGatherer(provider);
    const one = new AbortController().signal;
    const two = new AbortController().signal;
    const answers = Promise.all([gatherer.run(call('a'), one), gatherer.run(call('b'), two), gatherer.run(call('c'), one)]);
    await tick();
    provider.release();
    await tick();
    provider.release();
    await answers;
    expect(provider.batches).toEqual([
      { ids: ['a', 'c'], signal: one },
      { ids: ['b'], signal: two },
    ]);
  });

  it('answers a call abandoned while it waits at once, without handing it to the provider', async () => {
    const provider = new HeldProvider();
    const gatherer = new CallGatherer(provider);
    const first = gatherer.run(call('a'));
    await tick();
    const controller = new AbortController();
    const waiting = gatherer.run(call('b'), controller.signal);
    controller.abort();
    expect(await waiting).toEqual({ role: 'tool', tool_call_id: 'b', content: 'Cancelled before it ran', is_error: true });
    expect(await gatherer.run(call('c'), controller.signal)).toMatchObject({ tool_call_id: 'c', is_error: true });
    provider.release();
    await first;
    await tick();
    expect(provider.batches.map((batch) => batch.ids)).toEqual([['a']]);
  });

  it('answers every call of a batch with the reason when a provider breaks its promise never to reject', async () => {
    const provider: ToolProvider = { toolsForLlm: async () => [], executeToolCalls: async () => Promise.reject(new Error('provider fell over')) };
    const gatherer = new CallGatherer(provider);
    expect(await Promise.all([gatherer.run(call('a')), gatherer.run(call('b'))])).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'provider fell over', is_error: true },
      { role: 'tool', tool_call_id: 'b', content: 'provider fell over', is_error: true },
    ]);
  });
});
