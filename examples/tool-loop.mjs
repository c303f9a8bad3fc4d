// An LLM tool loop over one MCP server and local tools, with a permission
// layer in front. The model here is scripted (it asks for tools by name and
// reads their answers, as a model would), so the loop runs with no API key;
// swap `model` for your LLM's chat call, which takes the same OpenAI-style
// messages and tool declarations.
//
// Needs: npm install rxmcp rxjs zod @modelcontextprotocol/server-everything
// Run:   node tool-loop.mjs
import { z } from 'zod';
import { Policy, Registry, Toolkit } from 'rxmcp';

// Tools of your own, beside the server's, under the prefix `local`.
const localTools = new Toolkit({ name: 'local' }).tool(
  'multiply',
  { description: 'Multiplies two numbers', input: z.object({ a: z.number(), b: z.number() }), annotations: { readOnlyHint: true } },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }),
);

// A config as Claude Desktop, Cursor or VS Code write it (or a file: readServerConfig from rxmcp/node).
const config = { mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } };

// Each server under its name: everything_get-sum, everything_echo, …
const servers = Registry.fromConfig(config, { onWarn: console.warn });
const tools = new Policy({
  provider: servers.add(localTools, { prefix: 'local' }),
  rules: [
    ...Policy.defaultRules(), // a Toolkit's read-only tools pass; dangerous commands are asked every time
    { tool: 'everything_get-sum', decision: 'allow' },
    { tool: 'everything_get-env', decision: 'deny', note: 'the environment holds secrets' },
  ],
  // A call no rule settles is a question for a person; this one says yes, once.
  onAsk: (question) => {
    console.log(`  ? may the model call ${question.tool}? (allowed once)`);
    return { action: 'allow-once' };
  },
});

/** Stands in for an LLM: the sum, then the product and two more calls, then the answer. */
async function model(messages) {
  const answers = messages.filter((message) => message.role === 'tool');
  const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  if (answers.length === 0) return { role: 'assistant', content: 'First the sum.', tool_calls: [call('call_1', 'everything_get-sum', { a: 2, b: 3 })] };
  if (answers.length === 1) {
    const sum = Number(/(\d+)\D*$/.exec(answers[0].content)?.[1]);
    return {
      role: 'assistant',
      content: 'Now the product, a note, and a look at the environment.',
      tool_calls: [call('call_2', 'local_multiply', { a: sum, b: 4 }), call('call_3', 'everything_echo', { message: `sum was ${sum}` }), call('call_4', 'everything_get-env', {})],
    };
  }
  return { role: 'assistant', content: `(2 + 3) × 4 = ${answers[1].content}.` };
}

try {
  const declarations = await tools.toolsForLlm(); // OpenAI-style declarations
  console.log(`${declarations.length} tools for the model, e.g. ${declarations.slice(0, 3).map((tool) => tool.function.name).join(', ')}`);
  const messages = [{ role: 'user', content: 'What is (2 + 3) × 4?' }];
  for (let turn = 0; turn < 5; turn++) {
    const reply = await model(messages, declarations);
    messages.push(reply);
    console.log(`assistant: ${reply.content}`);
    if (!reply.tool_calls) break;
    const results = await tools.executeToolCalls(reply.tool_calls);
    for (const result of results) console.log(`  ${result.tool_call_id}: ${result.content}${result.is_error ? ' (refused)' : ''}`);
    messages.push(...results);
  }
} finally {
  await servers.close(); // every server it started
}
