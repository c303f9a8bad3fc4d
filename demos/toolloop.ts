// A tool loop with a scripted model: no network, no API key, the same
// transcript every run. The model sees one namespace over two tool sources,
// a remote MCP server (the bundled server-everything, over stdio) and a
// Toolkit in this process, and cannot tell them apart.
//
//   npm run demo
import { join } from 'node:path';
import { z } from 'zod';
import { type LlmTool, type LlmToolCall, McpClient, Registry, Toolkit, type ToolMessage } from 'rxmcp';

type Message =
  | { role: 'user' | 'assistant'; content: string; tool_calls?: LlmToolCall[] }
  | ToolMessage;

// Stands in for an LLM: it asks for tools by name, reads their answers from
// the conversation, and decides what to do next, exactly as a model would.
function scriptedModel(conversation: Message[], tools: LlmTool[]): Message {
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
}

async function main(): Promise<void> {
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
    for (let turn = 0; turn < 5; turn++) {
      const reply = scriptedModel(conversation, declarations);
      conversation.push(reply);
      console.log(`assistant: ${reply.content}`);
      if (!('tool_calls' in reply) || !reply.tool_calls) break;
      for (const call of reply.tool_calls) console.log(`  → ${call.function.name}(${String(call.function.arguments)})`);
      const results = await tools.executeToolCalls(reply.tool_calls);
      for (const result of results) console.log(`  ← ${result.tool_call_id}: ${result.content}${result.is_error ? ' (error)' : ''}`);
      conversation.push(...results);
    }
  } finally {
    await remote.close();
  }
}

void main();
