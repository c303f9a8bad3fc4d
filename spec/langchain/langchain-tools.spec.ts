import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { McpClient, Policy, type PolicyQuestion, type ToolProvider } from 'rxmcp';
import { langchainTools } from 'rxmcp/langchain';
import { BatchRecorder } from '../support/batch-recorder.js';
import { eventually, modernServer } from '../support/servers.js';

/**
 * A fake tool-calling chat model: a LangChain chat model whose replies are
 * scripted from the conversation, and whose `bindTools` converts the tools
 * as real chat models do (to OpenAI function declarations) and keeps them.
 */
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
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }

  override bindTools(tools: BindToolsInput[]): ScriptedChatModel {
    return new ScriptedChatModel(this.script, tools.map((tool) => convertToOpenAITool(tool)));
  }
}

const toolMessages = (messages: BaseMessage[]): ToolMessage[] => messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args, type: 'tool_call' as const });

/** The usual agent graph: the model, then its tools while it calls any. */
async function agentGraph(provider: ToolProvider, script: (messages: BaseMessage[]) => AIMessage) {
  const tools = await langchainTools(provider);
  const model = new ScriptedChatModel(script).bindTools(tools);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state: typeof MessagesAnnotation.State) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
  return { graph, model };
}

describe('langchainTools: a LangGraph ToolNode loop over a real MCP server behind a Policy', () => {
  const stderr: string[] = [];
  // Trusted, so the default rules let its read-only tools through unasked.
  const server = McpClient.connectStdio({ ...modernServer, trustAnnotations: true, onStderr: (line) => stderr.push(line) });
  const questions: PolicyQuestion[] = [];
  const policy = new Policy({
    provider: server,
    rules: Policy.defaultRules(),
    onAsk: (question) => {
      questions.push(question);
      return { action: question.kind === 'permission' && question.tool === 'sleep' ? 'allow-once' : 'deny-once' };
    },
  });
  afterAll(() => server.close());
  beforeEach(() => {
    questions.length = 0;
  });

  it('runs the graph to the end: reads pass, the refused call is an error ToolMessage, and the model reads both', async () => {
    const recorder = new BatchRecorder(policy);
    const { graph, model } = await agentGraph(recorder, (messages) => {
      const answers = toolMessages(messages);
      if (answers.length === 0) return new AIMessage({ content: '', tool_calls: [call('call-1', 'add', { a: 2, b: 3 }), call('call-2', 'echo', { text: 'hello' })] });
      if (answers.length === 2) return new AIMessage({ content: '', tool_calls: [call('call-3', 'add', { a: Number(answers[0]?.content), b: 4 })] });
      return new AIMessage(`(2 + 3) + 4 = ${String(answers[2]?.content)}; the echo was refused: ${String(answers[1]?.content)}`);
    });

    const { messages } = await graph.invoke({ messages: [new HumanMessage('Add 2 and 3, echo hello, then add 4.')] });

    expect(messages.at(-1)?.content).toBe('(2 + 3) + 4 = 9; the echo was refused: Denied by the user');
    expect(toolMessages(messages).map(({ tool_call_id, name, content, status, artifact }) => ({ tool_call_id, name, content, status, artifact }))).toEqual([
      { tool_call_id: 'call-1', name: 'add', content: '5', status: 'success', artifact: { sum: 5 } },
      { tool_call_id: 'call-2', name: 'echo', content: 'Denied by the user', status: 'error', artifact: undefined },
      { tool_call_id: 'call-3', name: 'add', content: '9', status: 'success', artifact: { sum: 9 } },
    ]);
    expect(questions).toEqual([expect.objectContaining({ kind: 'permission', tool: 'echo', arguments: { text: 'hello' } })]);
    // The ToolNode runs each call on its own; the provider still got the model's turns whole.
    expect(recorder.batches).toEqual([['call-1', 'call-2'], ['call-3']]);
    // bindTools turned them into exactly the declarations the provider publishes.
    expect(model.boundTools).toEqual(await policy.toolsForLlm());
  });

  it('returns the bare text when invoked with arguments rather than a tool call', async () => {
    const [add] = await langchainTools(policy, { tools: ['add'] });
    expect(await add?.invoke({ a: 20, b: 22 })).toBe('42');
  });

  it('cancels the call on the server when the run\'s signal aborts', async () => {
    const { graph } = await agentGraph(policy, () => new AIMessage({ content: '', tool_calls: [call('call-slow', 'sleep', { ms: 30000 })] }));
    const controller = new AbortController();
    const run = graph.invoke({ messages: [new HumanMessage('wait')] }, { signal: controller.signal });
    await eventually(() => stderr.some((line) => line.startsWith('started sleep')));
    controller.abort();
    await expect(run).rejects.toThrow();
    await eventually(() => stderr.some((line) => line.startsWith('cancelled')));
  });

  it('hands over only the tools asked for, and refuses a name the provider lacks', async () => {
    expect((await langchainTools(policy, { tools: ['echo', 'add'] })).map((tool) => tool.name).sort()).toEqual(['add', 'echo']);
    await expect(langchainTools(policy, { tools: ['nope'] })).rejects.toThrow('the provider offers no tool "nope"');
  });
});
