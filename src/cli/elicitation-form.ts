import { createInterface } from 'node:readline/promises';
import { jsonText } from './json-text.js';
import { terminalLine, terminalText } from './terminal-text.js';

type Schema = Record<string, unknown>;
type Answer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/**
 * Puts a server's form-mode elicitation to the person at the terminal: one
 * prompt per field of `requestedSchema` (strings, numbers, integers,
 * booleans, single and multiple choices), defaults pre-filled, required
 * fields insisted on, and a last question: send, decline or cancel. Ctrl-C
 * at any prompt cancels. Prompts go to `output` (stderr), never stdout.
 * Every word of the form is the server's, so all of it is shown through the
 * terminal sanitiser, and a default goes into the answer line as visible
 * text: raw, its control characters would act as keys (Enter, Ctrl-U).
 */
export async function askForm(params: Record<string, unknown>, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<Answer> {
  const terminal = createInterface({ input, output, terminal: true });
  const interrupted = new AbortController();
  terminal.on('SIGINT', () => interrupted.abort());
  const ask = async (prompt: string, prefill?: string): Promise<string> => {
    const answer = terminal.question(prompt, { signal: interrupted.signal });
    if (prefill) terminal.write(prefill);
    return (await answer).trim();
  };
  try {
    output.write(`\n${terminalText(String(params.message ?? 'The server asks:'))}\n`);
    const schema = (params.requestedSchema ?? {}) as Schema;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const content: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(properties)) {
      const value = await askField(key, field, required.includes(key), ask, output);
      if (value !== undefined) content[key] = value;
    }
    const choice = (await ask('Send these answers? [Y]es, [d]ecline, [c]ancel: ')).toLowerCase();
    if (choice.startsWith('d')) return { action: 'decline' };
    if (choice.startsWith('c')) return { action: 'cancel' };
    return { action: 'accept', content };
  } catch (error) {
    if (interrupted.signal.aborted) {
      output.write('\n(cancelled)\n');
      return { action: 'cancel' };
    }
    throw error;
  } finally {
    terminal.close();
  }
}

async function askField(
  key: string,
  field: Schema,
  required: boolean,
  ask: (prompt: string, prefill?: string) => Promise<string>,
  output: NodeJS.WritableStream,
): Promise<unknown> {
  const label = `${shown(field.title ?? key)}${required ? ' *' : ''}`;
  if (typeof field.description === 'string') output.write(`  ${terminalText(field.description)}\n`);
  const choices = choicesOf(field);
  const multiple = field.type === 'array';
  if (choices) choices.forEach(([, title], i) => output.write(`  ${i + 1}. ${shown(title)}\n`));
  const prefill = field.default === undefined ? undefined : Array.isArray(field.default) ? field.default.map(shown).join(',') : shown(field.default);
  for (;;) {
    const hint = choices ? (multiple ? ' (numbers, comma-separated)' : ' (number)') : field.type === 'boolean' ? ' (y/n)' : '';
    const text = await ask(`${label}${hint}: `, prefill);
    if (text === '') {
      if (!required) return undefined;
      output.write('  required\n');
      continue;
    }
    const { value, problem } = read(text, field, choices, multiple);
    if (problem === undefined) return value;
    output.write(`  ${problem}\n`);
  }
}

// A word of the schema as one safe line. A schema may put any JSON where a
// string belongs; an object is shown as JSON, which no depth can overflow
// (String() of a deeply nested array recurses).
function shown(value: unknown): string {
  return terminalLine(typeof value === 'object' && value !== null ? jsonText(value, 0) : String(value));
}

// The choices of an enum field, as [value, title] pairs; a title is shown only through shown().
function choicesOf(field: Schema): Array<[unknown, unknown]> | undefined {
  const source = field.type === 'array' ? ((field.items ?? {}) as Schema) : field;
  if (Array.isArray(source.enum)) {
    const names: unknown[] = Array.isArray(source.enumNames) ? source.enumNames : [];
    return (source.enum as unknown[]).map((value, i) => [value, names[i] ?? value]);
  }
  const titled = (source.oneOf ?? source.anyOf) as Schema[] | undefined;
  if (Array.isArray(titled)) return titled.map((option) => [option.const, option.title ?? option.const]);
  return undefined;
}

function read(text: string, field: Schema, choices: Array<[unknown, unknown]> | undefined, multiple: boolean): { value?: unknown; problem?: string } {
  if (choices) {
    const picks = (multiple ? text.split(',') : [text]).map((part) => {
      const trimmed = part.trim();
      const index = Number(trimmed) - 1;
      return Number.isInteger(index) && choices[index] ? choices[index]?.[0] : choices.find(([value]) => value === trimmed)?.[0];
    });
    if (picks.some((pick) => pick === undefined)) return { problem: `choose from 1 to ${choices.length}` };
    return { value: multiple ? picks : picks[0] };
  }
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number))) return { problem: `a ${field.type} please` };
      if (typeof field.minimum === 'number' && number < field.minimum) return { problem: `at least ${field.minimum}` };
      if (typeof field.maximum === 'number' && number > field.maximum) return { problem: `at most ${field.maximum}` };
      return { value: number };
    }
    default:
      if (typeof field.minLength === 'number' && text.length < field.minLength) return { problem: `at least ${field.minLength} characters` };
      if (typeof field.maxLength === 'number' && text.length > field.maxLength) return { problem: `at most ${field.maxLength} characters` };
      if (field.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(text)) return { problem: 'an email address please' };
      return { value: text };
  }
}
