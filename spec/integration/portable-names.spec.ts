import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIResponsesToolCalls,
  LeaseTable,
  Leases,
  McpClient,
  Policy,
  type PolicyQuestion,
  Reasons,
  Registry,
  toolNames,
  Toolkit,
  toolsForAnthropic,
  toolsForGemini,
  toolsForOpenAIResponses,
  UnknownKeys,
  type UnknownKeysWarning,
} from 'rxmcp';
import { aiSdkTools } from 'rxmcp/ai-sdk';
import { langchainTools } from 'rxmcp/langchain';
import { z } from 'zod';
import { LONG_NAMES } from '../fixtures/long-names.cjs';
import { fixture } from '../support/servers.js';

// What OpenAI, Anthropic, Bedrock and Gemini all accept.
const PORTABLE = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
// A name that fits, pushed past 64 characters by its registry prefix.
const SIXTY = 'summarise_the_latest_quarterly_figures_for_the_finance_team_';

const real = {
  read: `ops_${LONG_NAMES.read}`,
  drop: `ops_${LONG_NAMES.drop}`,
  spaced: `ops_${LONG_NAMES.spaced}`,
  dotted: `ops_${LONG_NAMES.dotted}`,
  ordinary: `ops_${LONG_NAMES.ordinary}`,
  local: `local_${SIXTY}`,
};

describe('portable tool names: a server with names no model API accepts, through Registry, Reasons, UnknownKeys, Leases, Policy, the formats and both adapters', () => {
  const server = McpClient.connectStdio({ ...fixture('long-names-server.mjs'), onStderr: () => undefined });
  const local = new Toolkit({ name: 'local' }).tool(SIXTY, { description: 'Summarises', input: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text: `${SIXTY} got ${text}` }],
  }));
  // The server is trusted: its reads pass the Policy's readOnly rule without a question.
  const registry = new Registry().add(server, { prefix: 'ops', trustAnnotations: true }).add(local, { prefix: 'local' });
  const warnings: UnknownKeysWarning[] = [];
  const questions: PolicyQuestion[] = [];
  const policy = new Policy({
    provider: new Leases({
      inner: new UnknownKeys({ provider: new Reasons({ provider: registry }), onWarn: (warning) => warnings.push(warning) }),
      table: new LeaseTable(),
      agentId: 'agent-1',
    }),
    // Rules written against the real names, dots, spaces and all.
    rules: [
      ...Policy.defaultRules(),
      { tool: real.drop, decision: 'deny', note: 'the archive is never dropped' },
      { tool: real.spaced, decision: 'allow' },
    ],
    onAsk: (question) => {
      questions.push(question);
      return { action: 'allow-once' };
    },
  });
  let shownOf: (realName: string) => string;

  beforeAll(async () => {
    const names = await toolNames(registry);
    const byReal = new Map([...names].map(([shown, name]) => [name, shown]));
    shownOf = (name) => byReal.get(name) ?? name;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    questions.length = 0;
  });

  it('shows every tool under a portable name, keeps the names that fit, and keeps apart the names that read alike', async () => {
    const shown = (await policy.toolsForLlm()).map((tool) => tool.function.name);
    expect(shown.every((name) => PORTABLE.test(name))).toBe(true);
    expect(new Set(shown).size).toBe(shown.length);
    // Fits: unchanged. The dropped tool is denied outright by its real name, so it is not shown.
    expect(shown).toEqual(
      expect.arrayContaining(['lock_acquire', 'lock_release', 'ops_echo', shownOf(real.read), shownOf(real.spaced), shownOf(real.dotted), shownOf(real.local)]),
    );
    expect(shown).toHaveLength(7);
    expect(shown).not.toContain(shownOf(real.drop));
    // Readable stems, each with its own hash: the two long names share 92 characters, the two weather names read the same once cut.
    expect(shownOf(real.read)).toMatch(/^ops_com_example_observability_platform_logs_[a-z_]*_[0-9a-v]{8}$/);
    expect(shownOf(real.read)).not.toBe(shownOf(real.drop));
    expect(shownOf(real.spaced)).toMatch(/^ops_get_weather_[0-9a-v]{8}$/);
    expect(shownOf(real.dotted)).toMatch(/^ops_get_weather_[0-9a-v]{8}$/);
    expect(shownOf(real.spaced)).not.toBe(shownOf(real.dotted));
    expect(shownOf(real.local)).toMatch(/^local_summarise_the_latest_quarterly_figures_for_the_fi_[0-9a-v]{8}$/);
    // The map reads every shown name back, the layers' real names untouched below the boundary.
    expect((await policy.toolsForLlm({ names: 'real' })).map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining([real.read, real.spaced, real.dotted, real.ordinary, real.local]),
    );
  });

  it('runs calls made under the shown names on the right tools, and every layer names the real tool', async () => {
    const answers = await policy.executeToolCalls([
      { id: 'c1', function: { name: shownOf(real.read), arguments: { text: 'a', reason: 'to look', extra: 1 } } },
      { id: 'c2', function: { name: shownOf(real.spaced), arguments: { text: 'b' } } },
      { id: 'c3', function: { name: shownOf(real.dotted), arguments: { text: 'c' } } },
      { id: 'c4', function: { name: 'ops_echo', arguments: { text: 'd' } } },
      { id: 'c5', function: { name: shownOf(real.drop), arguments: { text: 'e' } } },
      { id: 'c6', function: { name: shownOf(real.local), arguments: { text: 'f' } } },
    ]);
    expect(answers.map(({ tool_call_id, content, is_error }) => ({ tool_call_id, content, is_error }))).toEqual([
      { tool_call_id: 'c1', content: `${LONG_NAMES.read} got a`, is_error: false },
      { tool_call_id: 'c2', content: 'get weather got b', is_error: false },
      { tool_call_id: 'c3', content: 'get.weather got c', is_error: false },
      { tool_call_id: 'c4', content: 'echo got d', is_error: false },
      // The shown name of a tool the policy hides still reads back to its real name, which the rule denies.
      { tool_call_id: 'c5', content: 'Denied by policy: the archive is never dropped', is_error: true },
      { tool_call_id: 'c6', content: `${SIXTY} got f`, is_error: false },
    ]);
    // The human is asked about the real tool; UnknownKeys names the real tool; Reasons stripped `reason` by its real name.
    expect(questions).toEqual([expect.objectContaining({ kind: 'permission', tool: real.local, arguments: { text: 'f' } })]);
    expect(warnings).toEqual([expect.objectContaining({ tool: real.read, id: 'c1', unknownKeys: ['extra'] })]);
  });

  it('hands each vendor format portable names and runs the calls each vendor makes with them', async () => {
    const openai = await toolsForOpenAIResponses(policy);
    const anthropic = await toolsForAnthropic(policy);
    const gemini = await toolsForGemini(policy);
    for (const names of [openai.map((tool) => tool.name), anthropic.map((tool) => tool.name), gemini.functionDeclarations.map((tool) => tool.name)]) {
      expect(names.every((name) => PORTABLE.test(name))).toBe(true);
      expect(names).toContain(shownOf(real.read));
    }

    const fromOpenAI = await executeOpenAIResponsesToolCalls(policy, [
      { type: 'function_call', call_id: 'o1', name: shownOf(real.read), arguments: '{"text":"openai"}' } as { type: string },
    ]);
    expect(fromOpenAI).toEqual([{ type: 'function_call_output', call_id: 'o1', output: `${LONG_NAMES.read} got openai` }]);

    const fromAnthropic = await executeAnthropicToolCalls(policy, [
      { type: 'tool_use', id: 'a1', name: shownOf(real.dotted), input: { text: 'anthropic' } } as { type: string },
      { type: 'tool_use', id: 'a2', name: shownOf(real.drop), input: { text: 'anthropic' } } as { type: string },
    ]);
    expect(fromAnthropic).toEqual([
      { type: 'tool_result', tool_use_id: 'a1', content: 'get.weather got anthropic' },
      { type: 'tool_result', tool_use_id: 'a2', content: 'Denied by policy: the archive is never dropped', is_error: true },
    ]);

    const fromGemini = await executeGeminiToolCalls(policy, [{ functionCall: { id: 'g1', name: shownOf(real.spaced), args: { text: 'gemini' } } }]);
    expect(fromGemini).toEqual([{ functionResponse: { id: 'g1', name: shownOf(real.spaced), response: { output: 'get weather got gemini' } } }]);
  });

  it('gives the AI SDK portable tool names, and a model calling them reaches the right tools', async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const offered: string[][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered.push((options.tools ?? []).map((tool) => tool.name));
        if (options.prompt.some((message) => message.role === 'tool')) {
          return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        }
        const call = (toolCallId: string, toolName: string) => ({ type: 'tool-call' as const, toolCallId, toolName, input: '{"text":"ai"}' });
        return {
          content: [call('s1', shownOf(real.read)), call('s2', shownOf(real.dotted)), call('s3', shownOf(real.drop))],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({ model, prompt: 'go', tools: await aiSdkTools(policy), stopWhen: stepCountIs(3) });
    expect(offered[0]!.every((name) => PORTABLE.test(name))).toBe(true);
    expect(offered[0]).toContain(shownOf(real.read));
    expect(result.steps[0]?.toolResults.map(({ toolName, output }) => ({ toolName, output }))).toEqual([
      { toolName: shownOf(real.read), output: { text: `${LONG_NAMES.read} got ai`, isError: false } },
      { toolName: shownOf(real.dotted), output: { text: 'get.weather got ai', isError: false } },
    ]);
    // The hidden tool is no AI SDK tool at all: the SDK answers the call itself.
    expect(result.text).toBe('done');
  });

  it('gives LangChain portable tool names, and a fake chat model calling them through a ToolNode reaches the right tools', async () => {
    const tools = await langchainTools(policy);
    const model = new ScriptedChatModel(
      () =>
        new AIMessage({
          content: '',
          tool_calls: [
            { id: 'l1', name: shownOf(real.spaced), args: { text: 'lc' }, type: 'tool_call' },
            { id: 'l2', name: shownOf(real.local), args: { text: 'lc' }, type: 'tool_call' },
          ],
        }),
    ).bindTools(tools);
    expect(model.boundTools.map((tool) => (tool as { function: { name: string } }).function.name).every((name) => PORTABLE.test(name))).toBe(true);
    const turn = await model.invoke([]);
    const { messages } = (await new ToolNode(tools).invoke({ messages: [turn] })) as { messages: ToolMessage[] };
    expect(messages.map((message) => ({ id: message.tool_call_id, name: message.name, content: message.content, status: message.status }))).toEqual([
      { id: 'l1', name: shownOf(real.spaced), content: 'get weather got lc', status: 'success' },
      { id: 'l2', name: shownOf(real.local), content: `${SIXTY} got lc`, status: 'success' },
    ]);
    expect(questions).toEqual([expect.objectContaining({ tool: real.local })]);
  });

  it('picks adapter tools by their real or their shown names', async () => {
    const tools = await langchainTools(policy, { tools: [real.read, shownOf(real.dotted)] });
    expect(tools.map((tool) => tool.name)).toEqual([shownOf(real.read), shownOf(real.dotted)]);
    await expect(aiSdkTools(policy, { tools: ['ops_nothing'] })).rejects.toThrow('the provider offers no tool "ops_nothing"');
  });
});

/** A fake tool-calling chat model whose reply is scripted and whose `bindTools` converts tools as real chat models do. */
class ScriptedChatModel extends BaseChatModel {
  constructor(
    private readonly script: (messages: BaseMessage[]) => AIMessage,
    readonly boundTools: unknown[] = [],
  ) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  async _generate(messages: BaseMessage[], _options: this['ParsedCallOptions'], _runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const message = this.script(messages);
    return { generations: [{ message, text: '' }] };
  }

  override bindTools(tools: BindToolsInput[]): ScriptedChatModel {
    return new ScriptedChatModel(this.script, tools.map((tool) => convertToOpenAITool(tool)));
  }
}
