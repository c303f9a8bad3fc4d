// A tool loop. The model sees one namespace over two tool sources, a remote
// MCP server (the bundled server-everything, over stdio) and a Toolkit in
// this process, and cannot tell them apart.
//
//   npm run demo                 a scripted model: no network, no API key, the same transcript every run
//   npm run demo -- --openai     a real model behind any OpenAI-compatible chat completions endpoint:
//                                OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY,
//                                OPENAI_MODEL (default gpt-4.1-mini); e.g. Ollama:
//                                OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 npm run demo -- --openai
import { join } from 'node:path';
import { z } from 'zod';
import { type LlmTool, type LlmToolCall, McpClient, Registry, Toolkit, type ToolMessage } from 'rxmcp';

type Message = { role: 'user' | 'assistant'; content: string | null; tool_calls?: LlmToolCall[] } | ToolMessage;
type Model = (conversation: Message[], tools: LlmTool[]) => Promise<Message>;

// Stands in for an LLM: it asks for tools by name, reads their answers from
// the conversation, and decides what to do next, exactly as a model would.
const scriptedModel: Model = async (conversation, tools) => {
  const available = new Set(tools.map((tool) => tool.function.name));
  const answers = conversation.filter((message): message is ToolMessage => message.role === 'tool');
  const call = (id: string, name: string, args: object): LlmToolCall => {
    if (!available.has(name)) throw new Error(`the scripted model expected a tool ${name}`);
    return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
  };
  if (answers.length === 0) {
    return { role: 'assistant', content: 'First the sum.', tool_calls: [call('call_1', 'everything_get-sum', { a: 2, b: 3 })] };
  }
  if (answers.length === 1) {
    const sum = Number(/(\d+)\D*$/.exec(answers[0]?.content ?? '')?.[1]);
    return {
      role: 'assistant',
      content: 'Now the product, and a note to myself.',
      tool_calls: [call('call_2', 'local_multiply', { a: sum, b: 4 }), call('call_3', 'everything_echo', { message: `sum was ${sum}` })],
    };
  }
  return { role: 'assistant', content: `(2 + 3) × 4 = ${answers[1]?.content}.` };
};

// A real model behind an OpenAI-compatible endpoint, spoken to with fetch:
// the declarations go out as they are, and the answers go back as tool
// messages of the three fields the API takes.
function openAiModel(baseUrl: string, apiKey: string | undefined, model: string): Model {
  // Left alone, a model may well do small sums in its head; the demo is about the tools.
  const system = { role: 'system', content: 'Do arithmetic with the tools, never in your head.' };
  return async (conversation, tools) => {
    const messages = [system, ...conversation.map((message) =>
      message.role === 'tool'
        ? { role: 'tool', tool_call_id: message.tool_call_id, content: message.content }
        : { role: message.role, content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) },
    )];
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({ model, messages, tools }),
    });
    if (!response.ok) throw new Error(`${baseUrl} answered ${response.status}: ${await response.text()}`);
    const reply = ((await response.json()) as { choices: Array<{ message: { content: string | null; tool_calls?: Array<LlmToolCall & { type?: string }> } }> }).choices[0]?.message;
    if (!reply) throw new Error(`${baseUrl} answered without a choice`);
    // Only function calls are rxmcp's to run (the API also knows free-text "custom" tools).
    const calls = (reply.tool_calls ?? []).filter((call) => (call.type ?? 'function') === 'function');
    return { role: 'assistant', content: reply.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  };
}

function chooseModel(): Model {
  if (!process.argv.includes('--openai')) return scriptedModel;
  const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL } = process.env;
  if (!OPENAI_BASE_URL && !OPENAI_API_KEY) {
    console.error('--openai needs an endpoint: set OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL (for any OpenAI-compatible server), and optionally OPENAI_MODEL.');
    process.exit(2);
  }
  return openAiModel(OPENAI_BASE_URL ?? 'https://api.openai.com/v1', OPENAI_API_KEY, OPENAI_MODEL ?? 'gpt-4.1-mini');
}

async function main(): Promise<void> {
  const model = chooseModel();
  const remote = McpClient.connectStdio({
    command: process.execPath,
    args: [join(__dirname, '..', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    clientName: 'rxmcp-toolloop-demo',
  });
  const local = new Toolkit({ name: 'local' }).tool(
    'multiply',
    { description: 'Multiplies two numbers', input: z.object({ a: z.number(), b: z.number() }), annotations: { readOnlyHint: true, idempotentHint: true } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }),
  );
  const tools = new Registry().add(remote, { prefix: 'everything' }).add(local, { prefix: 'local' });

  try {
    const declarations = await tools.toolsForLlm();
    console.log(`${declarations.length} tools, e.g. ${declarations.slice(0, 3).map((tool) => tool.function.name).join(', ')}, …, local_multiply\n`);
    const conversation: Message[] = [{ role: 'user', content: 'What is (2 + 3) × 4?' }];
    console.log(`user: ${conversation[0]?.content}`);
    for (let turn = 0; turn < 8; turn++) {
      const reply = await model(conversation, declarations);
      conversation.push(reply);
      if (reply.content) console.log(`assistant: ${reply.content}`);
      if (!('tool_calls' in reply) || !reply.tool_calls) break;
      for (const call of reply.tool_calls) console.log(`  → ${call.function.name}(${String(call.function.arguments)})`);
      const results = await tools.executeToolCalls(reply.tool_calls);
      for (const result of results) console.log(`  ← ${result.tool_call_id}: ${result.content}${result.is_error ? ' (error)' : ''}`);
      conversation.push(...results);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await remote.close();
  }
}

void main();
