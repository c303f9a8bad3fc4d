import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import { McpConfigError } from '../errors/config-errors.js';
import type { CliIo } from './connect.js';
import { terminalLine, terminalText } from './terminal-text.js';

/**
 * Asks the person at the terminal for a VS Code `${input:ID}` answer (an API
 * key, most often) of the config file `source`, on stderr, without showing what they type. Ctrl-C or
 * the end of input leaves the input unanswered, which fails the file it is
 * in (an McpConfigError).
 */
export async function askConfigInput(id: string, description: string, source: string, io: CliIo): Promise<string> {
  // readline echoes what is typed to its output: here, nowhere.
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  const terminal = createInterface({ input: io.stdin, output: nowhere, terminal: true });
  const interrupted = new AbortController();
  terminal.on('SIGINT', () => interrupted.abort());
  terminal.on('close', () => interrupted.abort());
  io.stderr.write(`${terminalText(description || 'The config asks')} (input ${terminalLine(JSON.stringify(id))}, not shown): `);
  try {
    return await terminal.question('', { signal: interrupted.signal });
  } catch {
    throw new McpConfigError({ source }, `input ${JSON.stringify(id)} was not answered`);
  } finally {
    io.stderr.write('\n');
    terminal.close();
  }
}
