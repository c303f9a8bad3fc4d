import { firstValueFrom } from 'rxjs';
import type { McpClient } from '../index.js';
import { type CliRequest, UsageError } from './args.js';
import type { CliIo } from './connect.js';
import { jsonSyntaxError } from './json-syntax.js';
import { jsonText } from './json-text.js';
import { checkArguments, checkPromptArguments, typedArguments } from './typed-arguments.js';

/**
 * The arguments of `rxmcp call`: the JSON object (or stdin's), then the
 * key=value pairs typed by the tool's input schema, then `--arg`; checked
 * against that schema before anything is sent (unless `--no-check`), so a
 * missing or mistyped argument is a usage error that names it rather than
 * whatever the server makes of it. Reading the schema costs a tools/list
 * (from the client's cache when it has one).
 *
 * @throws UsageError for JSON that does not parse (saying where), a pair
 *   that fits no type of its property, a missing required argument or a
 *   value of a type the schema does not allow.
 */
export async function toolArguments(mcp: McpClient, request: CliRequest, io: CliIo, options: { signal: AbortSignal }): Promise<Record<string, unknown>> {
  const tool = request.operands[0] as string;
  const json = await argumentsFrom(request.argumentsJson, io);
  if (request.pairs.length === 0 && request.noCheck) return { ...json, ...request.args };
  const found = (await firstValueFrom(mcp.listTools(options))).find((candidate) => candidate.name === tool);
  if (found === undefined) {
    if (request.pairs.length > 0) throw new UsageError(`the server has no tool ${JSON.stringify(tool)} to type key=value arguments by`);
    // Not listed: the server's own answer says what it makes of the call.
    return { ...json, ...request.args };
  }
  const args = { ...json, ...typedArguments(tool, found.inputSchema, request.pairs), ...request.args };
  if (!request.noCheck) checkArguments(tool, found.inputSchema, args);
  return args;
}

/**
 * The arguments of `rxmcp prompt`: JSON, key=value (a prompt's arguments
 * are strings: the value as written) and `--arg`, checked against the
 * arguments the prompt's listing declares unless `--no-check` (a prompt the
 * server does not list is left to the server).
 *
 * @throws UsageError for JSON that does not parse, a required argument not
 *   given, a name the prompt does not declare or a value that is not a string.
 */
export async function promptArguments(mcp: McpClient, request: CliRequest, io: CliIo, options: { signal: AbortSignal }): Promise<Record<string, string>> {
  const name = request.operands[0] as string;
  // --arg reads its value as JSON when it parses; a prompt takes text, so 5 goes back to "5".
  const texts = Object.entries(request.args).map(([key, value]) => [key, typeof value === 'string' ? value : jsonText(value, 0)] as const);
  const args = { ...(await argumentsFrom(request.argumentsJson, io)), ...Object.fromEntries(request.pairs), ...Object.fromEntries(texts) };
  if (!request.noCheck) {
    const found = (await firstValueFrom(mcp.listPrompts(options))).find((candidate) => candidate.name === name);
    if (found !== undefined) checkPromptArguments(name, found.arguments, args);
  }
  return args as Record<string, string>;
}

async function argumentsFrom(raw: string | undefined, io: CliIo): Promise<Record<string, unknown>> {
  if (raw === undefined) return {};
  let text = raw;
  if (raw === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
    text = Buffer.concat(chunks).toString('utf8');
  }
  const where = raw === '-' ? 'the arguments on stdin' : 'the arguments';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const found = jsonSyntaxError(text);
    throw new UsageError(`${where} are not valid JSON${found === undefined ? '' : `: ${found}`}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${where} must be a JSON object`);
  return value as Record<string, unknown>;
}
