import { generateText, simulateReadableStream, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { McpClient, Policy, type PolicyQuestion, type ToolProgress } from 'rxmcp';
import { aiSdkTools } from 'rxmcp/ai-sdk';
import { BatchRecorder } from '../support/batch-recorder.js';
import { eventually, modernServer } from '../support/servers.js';

// The model interface's own types, as the mock model takes them (the provider package is ai's, not ours).
type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'][number];
type StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const toolCall = (toolCallId: string, toolName: string, input: object) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) });
const calling = (...content: Content[]): GenerateResult => ({ content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] });
const saying = (text: string): GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** The tool results a model was shown, as the AI SDK put them in its prompt. */
function toolResultsIn(options: CallOptions): Array<{ toolCallId: string; output: unknown }> {
  return options.prompt.flatMap((message) => (message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolCallId: part.toolCallId, output: part.output }] : [])) : []));
}

describe('aiSdkTools: an AI SDK generateText loop over a real MCP server behind a Policy', () => {
  const stderr: string[] = [];
  const progress: ToolProgress[] = [];
  // Trusted, so the default rules let its read-only tools through unasked.
  const server = McpClient.connectStdio({ ...modernServer, trustAnnotations: true, onStderr: (line) => stderr.push(line), onProgress: (report) => progress.push(report) });
  const questions: PolicyQuestion[] = [];
  const policy = new Policy({
    provider: server,
    rules: Policy.defaultRules(),
    onAsk: (question) => {
      questions.push(question);
      return { action: question.kind === 'permission' && ['sleep', 'count'].includes(question.tool) ? 'allow-once' : 'deny-once' };
    },
  });
  afterAll(() => server.close());
  beforeEach(() => {
    questions.length = 0;
  });

  it('runs a multi-step loop: reads pass, the refused call comes back to the model as a tool error, and the loop goes on', async () => {
    const recorder = new BatchRecorder(policy);
    // A model that adds, tries to echo, reads both answers, then adds again with what it read.
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const results = toolResultsIn(options);
        if (results.length === 0) return calling(toolCall('call-1', 'add', { a: 2, b: 3 }), toolCall('call-2', 'echo', { text: 'hello' }));
        if (results.length === 2) {
          const sum = (results[0]?.output as { value: string }).value;
          return calling(toolCall('call-3', 'add', { a: Number(sum), b: 4 }));
        }
        const total = (results[2]?.output as { value: string }).value;
        return saying(`(2 + 3) + 4 = ${total}; the echo was refused: ${(results[1]?.output as { value: string }).value}`);
      },
    });

    const result = await generateText({ model, prompt: 'Add 2 and 3, echo hello, then add 4.', tools: await aiSdkTools(recorder), stopWhen: stepCountIs(5) });

    expect(result.text).toBe('(2 + 3) + 4 = 9; the echo was refused: Denied by the user');
    expect(result.steps).toHaveLength(3);
    expect(toolResultsIn(model.doGenerateCalls[1]!)).toEqual([
      { toolCallId: 'call-1', output: { type: 'text', value: '5' } },
      { toolCallId: 'call-2', output: { type: 'error-text', value: 'Denied by the user' } },
    ]);
    expect(result.steps[0]?.toolResults.map(({ toolName, output }) => ({ toolName, output }))).toEqual([
      { toolName: 'add', output: { text: '5', isError: false, structuredContent: { sum: 5 } } },
      { toolName: 'echo', output: { text: 'Denied by the user', isError: true } },
    ]);
    expect(questions).toEqual([expect.objectContaining({ kind: 'permission', tool: 'echo', arguments: { text: 'hello' } })]);
    // The two calls of the first turn reached the provider as one batch, as the model made them.
    expect(recorder.batches).toEqual([['call-1', 'call-2'], ['call-3']]);
  });

  it('gives the model the same text executeToolCalls gives, a tool\'s own failure included', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => (toolResultsIn(options).length === 0 ? calling(toolCall('c1', 'image', {}), toolCall('c2', 'fail', {})) : saying('done')),
    });
    await generateText({ model, prompt: 'go', tools: await aiSdkTools(policy), stopWhen: stepCountIs(3) });
    const direct = await policy.executeToolCalls([
      { id: 'c1', function: { name: 'image', arguments: {} } },
      { id: 'c2', function: { name: 'fail', arguments: {} } },
    ]);
    expect(toolResultsIn(model.doGenerateCalls[1]!)).toEqual(
      direct.map((answer) => ({ toolCallId: answer.tool_call_id, output: { type: answer.is_error ? 'error-text' : 'text', value: answer.content } })),
    );
  });

  it('serves streamText the same way, the streamed calls of a turn still one batch', async () => {
    const recorder = new BatchRecorder(policy);
    const finish = (unified: 'tool-calls' | 'stop'): StreamPart => ({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
    const start: StreamPart = { type: 'stream-start', warnings: [] };
    const turn = (...parts: StreamPart[]) => ({ stream: simulateReadableStream({ chunks: [start, ...parts] }) });
    const model = new MockLanguageModelV3({
      doStream: async (options) =>
        toolResultsIn(options).length === 0
          ? turn(toolCall('s1', 'add', { a: 1, b: 1 }), toolCall('s2', 'echo', { text: 'hi' }), finish('tool-calls'))
          : turn({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'ok' }, { type: 'text-end', id: 't' }, finish('stop')),
    });
    const result = streamText({ model, prompt: 'go', tools: await aiSdkTools(recorder), stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('ok');
    expect(toolResultsIn(model.doStreamCalls[1]!)).toEqual([
      { toolCallId: 's1', output: { type: 'text', value: '2' } },
      { toolCallId: 's2', output: { type: 'error-text', value: 'Denied by the user' } },
    ]);
    expect(recorder.batches).toEqual([['s1', 's2']]);
  });

  it('reports a tool\'s progress under the AI SDK\'s call id', async () => {
    const model = new MockLanguageModelV3({ doGenerate: async (options) => (toolResultsIn(options).length === 0 ? calling(toolCall('call-count', 'count', { steps: 3 })) : saying('counted')) });
    await generateText({ model, prompt: 'count', tools: await aiSdkTools(policy), stopWhen: stepCountIs(3) });
    expect(progress.filter((report) => report.toolCallId === 'call-count').map((report) => report.progress)).toEqual([1, 2, 3]);
  });

  it('cancels the call on the server when the AI SDK\'s abort signal fires', async () => {
    const model = new MockLanguageModelV3({ doGenerate: async () => calling(toolCall('call-slow', 'sleep', { ms: 30000 })) });
    const controller = new AbortController();
    const loop = generateText({ model, prompt: 'wait', tools: await aiSdkTools(policy), stopWhen: stepCountIs(2), abortSignal: controller.signal });
    await eventually(() => stderr.some((line) => line.startsWith('started sleep')));
    const started = Date.now();
    controller.abort();
    await expect(loop).rejects.toThrow();
    await eventually(() => stderr.some((line) => line.startsWith('cancelled')));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('hands over only the tools asked for, and refuses a name the provider lacks', async () => {
    expect(Object.keys(await aiSdkTools(policy, { tools: ['add', 'echo'] })).sort()).toEqual(['add', 'echo']);
    await expect(aiSdkTools(policy, { tools: ['add', 'nope'] })).rejects.toThrow('the provider offers no tool "nope"');
  });
});
