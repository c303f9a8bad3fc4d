import { createInterface } from 'node:readline/promises';
import { checkElicitationUrl } from '../client/questions/elicitation-url.js';
import { terminalLine, terminalText } from './terminal-text.js';

type Answer = { action: 'accept' } | { action: 'decline' } | { action: 'cancel' };

/** The longest refused URL echoed back: enough to recognise it, not a screenful. */
const MAX_REFUSED_CHARS = 200;

/** How a URL question may be put: whether anyone can answer, and how a page is opened. */
export interface UrlQuestionIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** False with --no-input or when stdin is not a terminal: the question is shown and declined. */
  interactive: boolean;
  /** Opens the page (the system browser); `undefined` with --no-browser, when the URL is printed for the person to open. */
  open: ((url: string) => void) | undefined;
}

/**
 * Puts a server's URL-mode elicitation to the person at the terminal: the
 * server's message, the full URL and, on its own line, the host it leads to
 * (2025-11-25 client/elicitation, Safe URL Handling: show the target host,
 * ask before navigating, never open on the server's word alone). Only a yes
 * opens the page; Enter, anything else, or a question nobody can answer
 * declines, Ctrl-C cancels. A URL `checkElicitationUrl` refuses (not https,
 * a user name in it, control characters…) is shown as refused and declined
 * without a prompt. Everything the server wrote goes through the terminal
 * sanitiser; prompts go to `output` (stderr), never stdout.
 */
export async function askToOpenUrl(params: Record<string, unknown>, io: UrlQuestionIo): Promise<Answer> {
  const { output } = io;
  // Every line of the server's message is marked as its own, so a message
  // cannot draw a URL: and Host: pair of its own above the real one.
  const said = terminalText(String(params.message ?? 'The server asks you to open a page.')).split('\n');
  output.write(`\nThe server says:\n${said.map((line) => `  | ${line}`).join('\n')}\nIt asks you to open this page:\n`);
  const checked = checkElicitationUrl(params.url);
  if (!checked.ok) {
    const raw = typeof params.url === 'string' ? params.url.slice(0, MAX_REFUSED_CHARS) : '';
    output.write(`  refused: ${checked.reason}\n  (${terminalLine(raw)})\n  declined: the page will not be opened\n`);
    return { action: 'decline' };
  }
  output.write(`  URL:  ${terminalLine(checked.url)}\n  Host: ${terminalLine(checked.host)}\n`);
  if (!io.interactive) {
    output.write('  declined: nobody at a terminal to ask (stdin is not a terminal, or --no-input)\n');
    return { action: 'decline' };
  }
  const terminal = createInterface({ input: io.input, output, terminal: true });
  const interrupted = new AbortController();
  terminal.on('SIGINT', () => interrupted.abort());
  try {
    const answer = (await terminal.question(`Open this page on ${terminalLine(checked.host)}? [y/N] `, { signal: interrupted.signal })).trim();
    if (!/^(y|yes)$/i.test(answer)) {
      output.write('  declined\n');
      return { action: 'decline' };
    }
  } catch (error) {
    if (interrupted.signal.aborted) {
      output.write('\n(cancelled)\n');
      return { action: 'cancel' };
    }
    throw error;
  } finally {
    terminal.close();
  }
  if (io.open) {
    output.write(`  Opening a browser. If none opens, visit ${terminalLine(checked.url)}\n`);
    io.open(checked.url);
  } else {
    output.write(`  Open it yourself: ${terminalLine(checked.url)}\n`);
  }
  return { action: 'accept' };
}
