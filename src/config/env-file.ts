import { readFile, stat } from 'node:fs/promises';
import { McpConfigError, quoteName, type ConfigPlace } from '../errors/config-errors.js';

/** The largest env file read, in bytes (1 MiB): a real one is a few lines. */
export const MAX_ENV_FILE_BYTES = 1024 * 1024;
/** The most variables one env file may set. */
const MAX_VARIABLES = 10_000;
const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/**
 * Reads an env file (`envFile` of VS Code, Cursor, Claude Code): one
 * `KEY=VALUE` per line, `#` comments, blank lines, an optional `export `,
 * values in single quotes kept as they are, in double quotes with `\n`
 * read as a line break. Nothing is expanded: `$HOME` and `${X}` stay text,
 * and no shell is run. The map has no prototype, so `__proto__` is an
 * ordinary name.
 *
 * @throws McpConfigError at `place` for a file that cannot be read, is past
 *   1 MiB, holds a NUL byte, or a line that is not `KEY=VALUE` (named by its
 *   number, never its text: the line may be a secret).
 */
export async function readEnvFile(path: string, place: ConfigPlace): Promise<Record<string, string>> {
  const fail = (reason: string): never => {
    throw new McpConfigError(place, `the env file ${quoteName(path)} ${reason}`);
  };
  let text = '';
  try {
    const info = await stat(path);
    if (!info.isFile()) fail('is not a file');
    if (info.size > MAX_ENV_FILE_BYTES) fail(`is larger than ${MAX_ENV_FILE_BYTES} bytes`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof McpConfigError) throw error;
    fail(`cannot be read: ${(error as { code?: string }).code ?? 'unknown error'}`);
  }
  // The size is checked again: the file may have grown between stat and read.
  if (text.length > MAX_ENV_FILE_BYTES) fail(`is larger than ${MAX_ENV_FILE_BYTES} bytes`);
  if (text.includes('\0')) fail('holds a NUL byte, which no environment variable can');
  const variables = Object.create(null) as Record<string, string>;
  let count = 0;
  for (const [n, raw] of text.replace(/^\uFEFF/, '').split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) fail(`line ${n + 1} is not KEY=VALUE (the line is not shown)`);
    if (++count > MAX_VARIABLES) fail(`sets more than ${MAX_VARIABLES} variables`);
    variables[(match as RegExpExecArray)[1] as string] = valueOf((match as RegExpExecArray)[2] as string);
  }
  return variables;
}

function valueOf(text: string): string {
  const quote = text[0];
  if ((quote === '"' || quote === "'") && text.length >= 2) {
    const end = text.lastIndexOf(quote);
    if (end > 0) {
      const inner = text.slice(1, end);
      return quote === "'" ? inner : inner.replace(/\\(["\\n])/g, (_, character: string) => (character === 'n' ? '\n' : character));
    }
  }
  // Unquoted: a ` #` starts a comment.
  const comment = text.search(/\s#/);
  return (comment === -1 ? text : text.slice(0, comment)).trim();
}
