// A reactive UI in a terminal: a tool list that stays current, a progress bar
// bound to a long call (Ctrl-C cancels it on the server), and a question from
// the server answered on the terminal.
//
// Needs: npm install rxmcp rxjs @modelcontextprotocol/server-everything
// Run:   node terminal-ui.mjs     (type your name when asked; the other fields keep their defaults)
import { createInterface } from 'node:readline';
import { distinctUntilChanged, filter, firstValueFrom, map, startWith, switchMap } from 'rxjs';
import { McpClient } from 'rxmcp';

// What a server sends is not yours: keep its control characters (colours,
// cursor moves, a line rewritten in place) off the terminal; keep its line breaks.
const printable = (text) => String(text).replace(/(?![\n\t])[\p{Cc}\p{Cf}\u2028\u2029]/gu, '?');

const terminal = createInterface({ input: process.stdin, output: process.stdout });
const lines = terminal[Symbol.asyncIterator]();
async function ask(prompt) {
  process.stdout.write(prompt);
  const { value, done } = await lines.next();
  return done ? undefined : value.trim();
}

// The server's question as a form on the terminal: each field it requires;
// rxmcp sends the schema's default for every field the answer leaves out.
async function answerOnTheTerminal({ params }) {
  console.log(`\nThe server asks: ${printable(params.message)}`);
  const schema = params.requestedSchema ?? { properties: {} };
  const content = {};
  for (const name of schema.required ?? []) {
    const field = schema.properties?.[name] ?? {};
    const text = await ask(`  ${printable(field.description ?? name)}: `);
    if (text === undefined) return { action: 'cancel' }; // the input ended: no answer
    content[name] = field.type === 'number' || field.type === 'integer' ? Number(text) : field.type === 'boolean' ? /^y/i.test(text) : text;
  }
  return { action: 'accept', content };
}

const mcp = McpClient.connectStdio({
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  onElicit: answerOnTheTerminal, // declares elicitation, so the server adds a tool that asks
});

function drawBar({ progress, total }) {
  const width = 20;
  const done = total ? Math.round((progress / total) * width) : 0;
  process.stdout.write(`\r[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${progress}/${total ?? '?'}`);
}

try {
  // A catalogue that stays current: read again whenever the server says it changed.
  const tools$ = mcp.listen({ toolsListChanged: true }).pipe(
    startWith(undefined),
    switchMap(() => mcp.listTools({ refresh: true })),
  );
  const shown = tools$.pipe(map((tools) => tools.length), distinctUntilChanged()).subscribe((count) => console.log(`the server offers ${count} tools`));
  await firstValueFrom(tools$.pipe(filter((tools) => tools.some((tool) => tool.name === 'trigger-elicitation-request'))));

  // Bind progress to a bar; unsubscribing from the call cancels it on the server.
  const bar = mcp.progress$.pipe(filter((report) => report.progressToken === 'long-1')).subscribe(drawBar);
  const result = await new Promise((resolve, reject) => {
    const call = mcp.callTool('trigger-long-running-operation', { duration: 2, steps: 5 }, { progressToken: 'long-1' }).subscribe({ next: resolve, error: reject });
    process.once('SIGINT', () => {
      call.unsubscribe();
      reject(new Error('cancelled'));
    });
  });
  bar.unsubscribe();
  console.log(`\n${printable(result.content.map((block) => block.text ?? '').join(''))}`);

  const answered = await firstValueFrom(mcp.callTool('trigger-elicitation-request', {}));
  console.log(`\n${printable(answered.content.map((block) => block.text ?? '').join('\n'))}`);
  shown.unsubscribe();
} finally {
  terminal.close();
  await mcp.close();
}
