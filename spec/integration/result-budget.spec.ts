import { AIMessage, ToolMessage as LangchainToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  DEFAULT_MAX_RESULT_CHARS,
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  type LlmToolCall,
  McpClient,
  Policy,
  Registry,
  type ToolMessage,
} from 'rxmcp';
import { aiSdkTools } from 'rxmcp/ai-sdk';
import { langchainTools } from 'rxmcp/langchain';
import { everythingServer, fixture } from '../support/servers.js';

// What a model reads of big results: the bridge cuts text to a budget of
// characters (head and tail, with a line saying how much was left out),
// names binary content and lists resource links, through every layer,
// format and adapter. The tools are real: spec/fixtures/big-results-server.mjs
// (the official server SDK) and server-everything.

const call = (id: string, name: string, args: object = {}): LlmToolCall => ({ id, function: { name, arguments: args } });
const NOTE = /\n\[(\d+) of (\d+) characters left out\]\n/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks a cut answer: within the budget, its note's count adding up, and returns the head and tail around the note. */
function cutOf(content: string, budget: number): { head: string; tail: string; omitted: number; total: number } {
  expect(content.length).toBeLessThanOrEqual(budget);
  const match = NOTE.exec(content);
  expect(match).not.toBeNull();
  const [note, omitted, total] = match as unknown as [string, string, string];
  const head = content.slice(0, match?.index);
  const tail = content.slice((match?.index ?? 0) + note.length);
  expect(head.length + Number(omitted) + tail.length).toBe(Number(total));
  return { head, tail, omitted: Number(omitted), total: Number(total) };
}

describe('the result budget, against a server with big results', () => {
  const big = McpClient.connectStdio(fixture('big-results-server.mjs'));
  afterAll(() => big.close());

  it('cuts a 2 MB log to its head and tail within 100,000 characters by default, saying how much was left out', async () => {
    const [answer] = await big.executeToolCalls([call('log', 'tail-log')]);
    expect(DEFAULT_MAX_RESULT_CHARS).toBe(100_000);
    expect(answer?.is_error).toBe(false);
    const { head, tail, total } = cutOf(answer?.content ?? '', 100_000);
    expect(total).toBeGreaterThan(2_000_000);
    expect(head).toMatch(/^BOOT first line of the log\n000001 INFO/);
    expect(tail).toMatch(/\nFATAL last line of the log: disk full$/);
    // Head and tail share the room about evenly.
    expect(Math.abs(head.length - tail.length)).toBeLessThan(2);
    expect(head.length + tail.length).toBeGreaterThan(99_900);
  });

  it('keeps a result under the budget whole, and structured_content whole and uncounted', async () => {
    const [answer, log] = await big.executeToolCalls([call('report', 'report'), call('log', 'tail-log')], { maxResultChars: 100 });
    expect(answer).toMatchObject({ content: 'report ready', is_error: false });
    expect(cutOf(log?.content ?? '', 100).tail).toMatch(/disk full$/);
    expect((answer?.structured_content as { rows: unknown[] }).rows).toHaveLength(20_000);
    expect(JSON.stringify(answer?.structured_content).length).toBeGreaterThan(100_000);
  });

  it('lists 20,000 resource links and 50,000 content blocks within the budget, the first and last kept whole', async () => {
    const [links, blocks] = await big.executeToolCalls([call('links', 'links', { count: 20_000 }), call('blocks', 'blocks', { count: 50_000 })], {
      maxResultChars: 2_000,
    });
    const listed = cutOf(links?.content ?? '', 2_000);
    expect(listed.head).toMatch(/^\[resource link: file:\/\/\/data\/0\.csv \(part 0\)\]\n\[resource link: file:\/\/\/data\/1\.csv \(part 1\)\]\n/);
    expect(listed.tail).toMatch(/\n\[resource link: file:\/\/\/data\/19999\.csv \(part 19999\)\]$/);
    const many = cutOf(blocks?.content ?? '', 2_000);
    expect(many.head).toMatch(/^block 0\nblock 1\n/);
    expect(many.tail).toMatch(/\nblock 49999$/);
  });

  it('never splits a surrogate pair, at any budget', async () => {
    for (const budget of [100, 101, 1_000, 1_001, 1_002, 1_003]) {
      const [answer] = await big.executeToolCalls([call('e', 'emoji', { count: 50_000 })], { maxResultChars: budget });
      const { head, tail } = cutOf(answer?.content ?? '', budget);
      expect(LONE_SURROGATE.test(answer?.content ?? '')).toBe(false);
      expect(head).toMatch(/^(😀)+$/u);
      expect(tail).toMatch(/^(😀)+$/u);
    }
  });

  it('takes Infinity for no cut, and answers every call with why when the budget is no whole number of at least 100', async () => {
    const [whole] = await big.executeToolCalls([call('log', 'tail-log')], { maxResultChars: Infinity });
    expect(whole?.content).toMatch(/^BOOT first line[^]*disk full$/);
    expect(whole?.content.length).toBeGreaterThan(2_000_000);
    for (const wrong of [99, 1_000.5, '5000', -1]) {
      const answers = await big.executeToolCalls([call('a', 'report'), call('b', 'tail-log')], { maxResultChars: wrong as number });
      const reason = `option maxResultChars must be a whole number of characters, 100 or more, or Infinity; got ${typeof wrong === 'string' ? JSON.stringify(wrong) : wrong}`;
      expect(answers).toEqual([
        { role: 'tool', tool_call_id: 'a', content: reason, is_error: true },
        { role: 'tool', tool_call_id: 'b', content: reason, is_error: true },
      ]);
    }
  });
});

describe('the result budget, against texts of 60 MiB and 100 MiB', () => {
  it('cuts a 60 MiB text to the budget, and answers a 100 MiB one (past the 64 MiB message limit) with a short error', async () => {
    const mcp = McpClient.connectStdio(fixture('big-results-server.mjs'));
    try {
      const [under] = await mcp.executeToolCalls([call('under', 'flood', { mib: 60 })]);
      const cut = cutOf(under?.content ?? '', DEFAULT_MAX_RESULT_CHARS);
      expect(cut.total).toBe(60 * 1024 * 1024 + 8);
      expect(cut.head.startsWith('HEADxxx')).toBe(true);
      expect(cut.tail.endsWith('xxxTAIL')).toBe(true);
      const [over] = await mcp.executeToolCalls([call('over', 'flood', { mib: 100 })]);
      expect(over?.is_error).toBe(true);
      expect(over?.content).toMatch(/longer than maxMessageBytes/);
      expect(over?.content.length).toBeLessThan(1_000);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});

describe('the result budget, set once at the top of a Registry + Policy stack over real servers', () => {
  const big = McpClient.connectStdio(fixture('big-results-server.mjs'));
  const everything = McpClient.connectStdio(everythingServer);
  const stack = new Policy({
    provider: new Registry().add(big, { prefix: 'big' }).add(everything, { prefix: 'ev' }),
    rules: [{ tool: '*', decision: 'allow' }],
  });
  afterAll(() => Promise.all([big.close(), everything.close()]));

  const turn = [
    call('log', 'big_tail-log'),
    call('shot', 'big_screenshot'),
    call('links', 'ev_get-resource-links', { count: 10 }),
    call('image', 'ev_get-tiny-image'),
    call('echo', 'ev_echo', { message: 'x'.repeat(5_000) }),
  ];

  function expectBudgeted(answers: readonly ToolMessage[], budget: number): void {
    const [log, shot, links, image, echo] = answers;
    const cut = cutOf(log?.content ?? '', budget);
    expect(cut.head.startsWith('BOOT first line')).toBe(true);
    expect(cut.tail.endsWith('disk full')).toBe(true);
    // A 3 MB screenshot is named, never inlined.
    expect(shot?.content).toBe('the login page\n[image: image/png, 3000000 bytes]');
    const listed = cutOf(links?.content ?? '', budget);
    expect(listed.head).toMatch(/^Here are 10 resource links to resources available in this server:\n\[resource link: demo:\/\/resource\/dynamic\/\w+\/1 /);
    expect(listed.tail).toMatch(/\[resource link: demo:\/\/resource\/dynamic\/\w+\/10 \(\w+ Resource 10, text\/plain\)\]$/);
    expect(image?.content).toMatch(/^Here's the image you requested:\n\[image: image\/png, \d+ bytes\]\nThe image above is the MCP logo\.$/);
    const echoed = cutOf(echo?.content ?? '', budget);
    expect(echoed.head).toMatch(/^Echo: x+$/);
    expect(echoed.total).toBe(5_006);
  }

  it('bounds every result of a turn through executeToolCalls', async () => {
    expectBudgeted(await stack.executeToolCalls(turn, { maxResultChars: 300 }), 300);
  });

  it('bounds them through the Anthropic and Gemini formats', async () => {
    const blocks = await executeAnthropicToolCalls(
      stack,
      turn.map(({ id, function: fn }) => ({ type: 'tool_use', id, name: fn.name, input: fn.arguments })),
      // Media stays text here: spec/integration/media.spec.ts covers it inline.
      { maxResultChars: 300, media: 'text' },
    );
    expectBudgeted(
      blocks.map((block) => ({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content as string, is_error: block.is_error === true })),
      300,
    );
    const parts = await executeGeminiToolCalls(stack, [{ functionCall: { id: 'log', name: 'big_tail-log', args: {} } }], { maxResultChars: 500 });
    const response = parts[0]?.functionResponse.response as { output: string };
    expect(cutOf(response.output, 500).tail.endsWith('disk full')).toBe(true);
  });

  it('bounds them through the AI SDK adapter, set once in aiSdkTools', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
        if (options.prompt.some((message) => message.role === 'tool')) {
          return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        }
        const content = turn.map(({ id, function: fn }) => ({ type: 'tool-call' as const, toolCallId: id, toolName: fn.name, input: JSON.stringify(fn.arguments) }));
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      },
    });
    await generateText({ model, prompt: 'look', tools: await aiSdkTools(stack, { maxResultChars: 300, media: 'text' }), stopWhen: stepCountIs(3) });
    const shown = (model.doGenerateCalls[1]?.prompt ?? []).flatMap((message) =>
      message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ id: part.toolCallId, output: part.output as { value: string } }] : [])) : [],
    );
    expectBudgeted(
      turn.map(({ id }) => ({ role: 'tool', tool_call_id: id, content: shown.find((result) => result.id === id)?.output.value ?? '', is_error: false })),
      300,
    );
  });

  it('bounds them through the LangChain adapter, set once in langchainTools', async () => {
    const node = new ToolNode(await langchainTools(stack, { maxResultChars: 300, media: 'text' }));
    const { messages } = (await node.invoke({
      messages: [new AIMessage({ content: '', tool_calls: turn.map(({ id, function: fn }) => ({ id, name: fn.name, args: fn.arguments as Record<string, unknown> })) })],
    })) as { messages: LangchainToolMessage[] };
    expectBudgeted(
      turn.map(({ id }) => ({ role: 'tool', tool_call_id: id, content: String(messages.find((message) => message.tool_call_id === id)?.content ?? ''), is_error: false })),
      300,
    );
  });

  it('refuses a budget that is no whole number of at least 100 in the adapters', async () => {
    await expect(aiSdkTools(stack, { maxResultChars: 50 })).rejects.toThrow('option maxResultChars must be a whole number of characters, 100 or more, or Infinity; got 50');
    await expect(langchainTools(stack, { maxResultChars: Number.NaN })).rejects.toThrow('got NaN');
  });
});
