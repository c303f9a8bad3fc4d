import type { ToolMessage } from '@langchain/core/messages';
import { McpClient } from 'rxmcp';
import { aiSdkTools, type AiSdkToolOutput } from 'rxmcp/ai-sdk';
import { langchainTools } from 'rxmcp/langchain';
import { fixture } from '../support/servers.js';

// The 90 s build under a 10 s timeout, scaled down at the same 9:1
// ratio so the suite stays fast: 4.5 s, progress every 300 ms, 500 ms timeout.
const BUILD = { ms: 4500, everyMs: 300 };
const LONG = { timeoutMs: 500, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 20_000 };

describe('long calls through the framework adapters', () => {
  const mcp = McpClient.connectStdio(fixture('long-calls-server.mjs'));
  afterAll(() => mcp.close());

  it('aiSdkTools passes the timeouts on: the build finishes with the reset, and is cut at the timeout without it', async () => {
    const long = await aiSdkTools(mcp, LONG);
    const short = await aiSdkTools(mcp, { timeoutMs: 500 });
    const run = (tools: typeof long, id: string) => tools.build?.execute?.(BUILD, { toolCallId: id, messages: [] }) as Promise<AiSdkToolOutput>;
    const [finished, cut] = await Promise.all([run(long, 'a1'), run(short, 'a2')]);
    expect(finished).toEqual({ text: 'build done after 4500 ms', isError: false });
    expect(cut).toEqual({ text: 'tools/call got no answer within 500 ms', isError: true });
  }, 15_000);

  it('langchainTools passes the per-tool timeouts on, keyed by the names the model is shown', async () => {
    const [build] = await langchainTools(mcp, { timeoutMs: 500, toolTimeouts: { build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 20_000 } } });
    const message = (await build?.invoke({ type: 'tool_call', id: 'l1', name: 'build', args: BUILD })) as ToolMessage;
    expect(message.content).toBe('build done after 4500 ms');
    expect(message.status).toBe('success');
  }, 15_000);

  it('refuses timeouts that are no number of milliseconds when the tools are made', async () => {
    await expect(aiSdkTools(mcp, { timeoutMs: Number.NaN })).rejects.toThrow('batch option timeoutMs must be a number of milliseconds, 0 or more; got null');
    await expect(langchainTools(mcp, { maxTotalTimeoutMs: -1 })).rejects.toThrow('batch option maxTotalTimeoutMs must be a number of milliseconds, 0 or more; got -1');
  });
});
