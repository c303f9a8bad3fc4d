import { createInterface } from 'node:readline/promises';
import { terminalLine } from './terminal-text.js';

/** How a changed tool's approval may be asked: whether anyone can answer, and whether the answer was given beforehand. */
export interface DriftQuestionIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** False with --no-input or when stdin is not a terminal: the diff is shown and the change declined, unless `yes`. */
  interactive: boolean;
  /** `--yes`: the diff is shown and the change approved without a prompt. */
  yes: boolean;
}

/**
 * Puts a changed tool to the person at the terminal: where its pin is kept,
 * the diff from the pinned definition to the one its server gives now
 * (every line marked `  | ` as the server's words, and made safe for the
 * terminal), then `[y/N]`. Only a yes approves; Enter, anything else, or
 * Ctrl-C declines. Without a terminal to ask at it declines, saying so,
 * unless `--yes` answered beforehand. Everything goes to `output` (stderr).
 * @returns whether the change is approved.
 */
export async function askToApproveDrift(question: { tool: string; diff: string }, pinsFile: string, io: DriftQuestionIo): Promise<boolean> {
  const { output } = io;
  const tool = terminalLine(question.tool);
  // The diff is the server's text: marked line by line, so that it cannot
  // draw a prompt or an "approved" line of its own.
  const lines = question.diff.split('\n').map((line) => `  | ${terminalLine(line)}`);
  output.write(
    `\n${tool} changed since rxmcp serve pinned it in ${terminalLine(pinsFile)}.\n` +
      `What its server gives now, against the pinned definition (- pinned, + now; the server's words):\n${lines.join('\n')}\n`,
  );
  if (io.yes) {
    output.write('  approved (--yes)\n');
    return true;
  }
  if (!io.interactive) {
    output.write('  declined: nobody at a terminal to ask (stdin is not a terminal, or --no-input); give --yes to approve without asking\n');
    return false;
  }
  const terminal = createInterface({ input: io.input, output, terminal: true });
  const interrupted = new AbortController();
  terminal.on('SIGINT', () => interrupted.abort());
  try {
    const answer = (await terminal.question(`Approve the new definition of ${tool}? [y/N] `, { signal: interrupted.signal })).trim();
    const approved = /^(y|yes)$/i.test(answer);
    if (!approved) output.write('  declined\n');
    return approved;
  } catch (error) {
    if (!interrupted.signal.aborted) throw error;
    output.write('\n  declined (interrupted)\n');
    return false;
  } finally {
    terminal.close();
  }
}
