// A tool that stops to ask a question, answered from the terminal through an
// InputBroker; a model question answered by a stand-in model; roots from this
// directory. Runs against the bundled modern-era fixture server.
//
//   npm run demo:input            asks you on the terminal
//   npm run demo:input < /dev/null   answers "yes" by itself
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { firstValueFrom } from 'rxjs';
import { InputBroker, McpClient, McpInputLoopExceededError } from 'rxmcp';

const broker = new InputBroker({ onWarn: (message) => console.warn(`broker: ${message}`) });

// One question at a time, from whoever is at the terminal (or "yes" without one).
broker.questions$.subscribe(async (question) => {
  const message = String(question.params.message ?? 'The server is asking for something.');
  if (!process.stdin.isTTY) {
    console.log(`${message} → yes (no terminal)`);
    question.respond({ action: 'accept', content: { confirm: true, name: 'demo user' } });
    return;
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await terminal.question(`${message} [y/N/name] `)).trim();
  terminal.close();
  if (answer === '' || answer.toLowerCase() === 'n') question.decline();
  else question.respond({ action: 'accept', content: { confirm: answer.toLowerCase() === 'y', name: answer } });
});

const mcp = McpClient.connectStdio({
  command: process.execPath,
  args: [join(__dirname, '..', 'spec/fixtures/modern-server.mjs')],
  onElicit: broker.onElicit,
  onSample: ({ params }) => ({
    role: 'assistant',
    model: 'stand-in-model',
    content: { type: 'text', text: `(a stand-in model read ${JSON.stringify(params.messages).length} characters)` },
  }),
  onListRoots: () => ({ roots: [{ uri: pathToFileURL(process.cwd()).href, name: 'here' }] }),
  maxInputRounds: 3,
});

async function main(): Promise<void> {
  try {
    console.log('declared:', JSON.stringify(mcp.declaredCapabilities));
    const deploy = await firstValueFrom(mcp.callTool('deploy', { env: 'prod' }));
    console.log('deploy →', deploy.content[0]?.text);
    const both = await firstValueFrom(mcp.callTool('two-questions'));
    console.log('two-questions →', JSON.stringify(both.structuredContent));
    const roots = await firstValueFrom(mcp.callTool('roots'));
    console.log('roots →', roots.content[0]?.text);
    await firstValueFrom(mcp.callTool('nag'));
  } catch (error) {
    if (!(error instanceof McpInputLoopExceededError)) throw error;
    console.log(`nag → gave up: ${error.method} still asking after ${error.rounds} rounds`);
  } finally {
    await mcp.close();
  }
}

void main();
