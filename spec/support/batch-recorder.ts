import type { LlmTool, LlmToolCall, ToolMessage, ToolProvider } from '../../src/index.js';

/** A layer that records each batch handed to the provider under it (the call ids, and the signal if any). */
export class BatchRecorder implements ToolProvider {
  readonly batches: string[][] = [];
  readonly signals: Array<AbortSignal | undefined> = [];
  constructor(private readonly inner: ToolProvider) {}
  toolsForLlm(): Promise<LlmTool[]> {
    return this.inner.toolsForLlm();
  }
  executeToolCalls(calls: LlmToolCall[], options: { signal?: AbortSignal } = {}): Promise<ToolMessage[]> {
    this.batches.push(calls.map((call) => call.id));
    this.signals.push(options.signal);
    return this.inner.executeToolCalls(calls, options);
  }
}
