import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, McpInputLoopExceededError } from '../../src/index.js';
import type { InputRequest } from '../../src/protocol/input-request.js';
import type { CreateMessageParams, CreateMessageResult } from 'rxmcp/protocol';
import { anthropicToSamplingResult, samplingToAnthropic } from 'rxmcp/sampling';
import { everythingServer, fixture } from '../support/servers.js';

// Sampling with tools (SEP-1577) against the official SDK v2 server in both
// eras, server-everything's plain sampling, and the hostile server's 10,000 tools.
const samplingServer = fixture('sampling-tools-server.mjs');
const hostileServer = fixture('hostile-server.mjs');
const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

// A model that calls the weather tool: an Anthropic answer read back by the rxmcp/sampling helper.
function weatherModel(asked: CreateMessageParams[]) {
  return ({ params }: InputRequest): CreateMessageResult => {
    const typed = params as unknown as CreateMessageParams;
    asked.push(typed);
    const body = samplingToAnthropic(typed, { model: 'claude-test' });
    expect(body.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
    return anthropicToSamplingResult({
      model: 'claude-test',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
      stop_reason: 'tool_use',
    });
  };
}

describe.each([
  ['2026-07-28', 'modern' as const, 'an input_required round'],
  ['2025-11-25', 'legacy' as const, 'a server request (the SDK shim)'],
])('sampling with tools from the SDK v2 server (%s)', (version, era, how) => {
  it(`${version} client/sampling, Tools in Sampling: with sampleWithTools the hook gets the typed tools through ${how}, answers with a tool use, and the server sees it`, async () => {
    const asked: CreateMessageParams[] = [];
    const mcp = McpClient.connectStdio({ ...samplingServer, era, onSample: weatherModel(asked), sampleWithTools: true });
    try {
      expect(mcp.declaredCapabilities.sampling).toEqual({ tools: {} });
      expect((await firstValueFrom(mcp.describe())).era).toBe(era);
      const seen = JSON.parse(text(await firstValueFrom(mcp.callTool('plan-trip', { city: 'Paris' }))));
      expect(seen).toMatchObject({ role: 'assistant', model: 'claude-test', stopReason: 'toolUse', content: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } } });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.tools?.[0]).toMatchObject({ name: 'get_weather', inputSchema: { type: 'object' } });
      expect(asked[0]?.toolChoice).toEqual({ mode: 'auto' });
    } finally {
      await mcp.close();
    }
  });
});

describe('sampling with tools, not declared', () => {
  it('2025-11-25 client/sampling, Tools in Sampling and Error Handling: a server request carrying tools to a client without sampling.tools is refused with -32602, never given to the hook', async () => {
    const asked: unknown[] = [];
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...samplingServer, era: 'legacy', onSample: (question) => (asked.push(question), undefined), onWarn: (w) => warnings.push(w) });
    try {
      expect(mcp.declaredCapabilities.sampling).toEqual({});
      const answer = text(await firstValueFrom(mcp.callTool('plan-trip-raw', { city: 'Paris' })));
      expect(answer).toMatch(/^refused -32602 .*did not declare sampling\.tools/);
      expect(asked).toEqual([]);
      expect(warnings.some((warning) => warning.includes('sampling.tools'))).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('2025-11-25 client/sampling, Capabilities: the same request is answered once the client declares sampling.tools', async () => {
    const mcp = McpClient.connectStdio({ ...samplingServer, era: 'legacy', onSample: weatherModel([]), sampleWithTools: true });
    try {
      expect(text(await firstValueFrom(mcp.callTool('plan-trip-raw', { city: 'Paris' })))).toMatch(/^answered .*"name":"get_weather"/);
    } finally {
      await mcp.close();
    }
  });

  it("2025-11-25 client/sampling, Tools in Sampling: a hook's tool use naming a tool the request did not offer is not sent; the server is told the sampling was rejected", async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({
      ...samplingServer,
      era: 'legacy',
      sampleWithTools: true,
      onSample: () => ({ role: 'assistant', model: 'm', stopReason: 'toolUse', content: { type: 'tool_use', id: 'u1', name: 'rm_rf', input: {} } }),
      onWarn: (w) => warnings.push(w),
    });
    try {
      expect(text(await firstValueFrom(mcp.callTool('plan-trip-raw', { city: 'Paris' })))).toBe('refused -1 User rejected sampling request');
      expect(warnings.some((w) => w.includes('"rm_rf", which the request did not offer'))).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('sampleWithTools without onSample is refused at construction', () => {
    expect(() => McpClient.connectStdio({ ...samplingServer, sampleWithTools: true })).toThrow(McpClientError);
    expect(() => McpClient.connectStdio({ ...samplingServer, onSample: () => undefined, sampleWithTools: 'yes' as never })).toThrow('sampleWithTools must be a boolean');
  });
});

describe('a hostile server offering 10,000 tools', () => {
  it('2025-11-25: its sampling request is refused with -32602 before the hook, and the call goes on', async () => {
    const asked: unknown[] = [];
    const mcp = McpClient.connectStdio({
      ...hostileServer,
      args: [...hostileServer.args, '--legacy', '--case', 'sampling-10000-tools-request'],
      onSample: (question) => (asked.push(question), undefined),
      sampleWithTools: true,
      onWarn: () => undefined,
    });
    try {
      expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'after' })))).toBe('ok');
      const report = JSON.parse(text(await firstValueFrom(mcp.callTool('received_answers')))) as string[];
      expect(report.map((line) => JSON.parse(line))).toEqual([
        { jsonrpc: '2.0', id: 'sampling-1', error: { code: -32602, message: 'too many tools (10000; at most 1000)' } },
      ]);
      expect(asked).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('2026-07-28: its input_required sampling question is declined before the hook, with or without sampleWithTools', async () => {
    for (const sampleWithTools of [true, false]) {
      const asked: unknown[] = [];
      const warnings: string[] = [];
      const mcp = McpClient.connectStdio({
        ...hostileServer,
        args: [...hostileServer.args, '--case', 'sampling-10000-tools'],
        onSample: (question) => (asked.push(question), undefined),
        sampleWithTools,
        maxInputRounds: 1,
        onWarn: (w) => warnings.push(w),
      });
      try {
        await expect(firstValueFrom(mcp.callTool('echo'))).rejects.toBeInstanceOf(McpInputLoopExceededError);
        expect(asked).toEqual([]);
        expect(warnings.some((w) => w.includes(sampleWithTools ? 'too many tools' : 'did not declare sampling.tools'))).toBe(true);
      } finally {
        await mcp.close();
      }
    }
  });
});

describe('plain sampling from server-everything (legacy era)', () => {
  it('trigger-sampling-request still reaches onSample with sampleWithTools set, and its answer reaches the server', async () => {
    const asked: CreateMessageParams[] = [];
    const mcp = McpClient.connectStdio({
      ...everythingServer,
      sampleWithTools: true,
      onSample: ({ params }) => {
        asked.push(params as unknown as CreateMessageParams);
        return { role: 'assistant', content: { type: 'text', text: 'roses are red' }, model: 'fake-model', stopReason: 'endTurn' };
      },
    });
    try {
      expect(text(await firstValueFrom(mcp.callTool('trigger-sampling-request', { prompt: 'a poem', maxTokens: 20 })))).toContain('roses are red');
      expect(asked[0]?.tools).toBeUndefined();
      expect(asked[0]?.maxTokens).toBe(20);
    } finally {
      await mcp.close();
    }
  });
});
