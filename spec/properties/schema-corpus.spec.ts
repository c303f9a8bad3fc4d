import type Anthropic from '@anthropic-ai/sdk';
import { Validator, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import type { Tool as GeminiTool } from '@google/genai';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type OpenAI from 'openai';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIChatToolCalls,
  executeOpenAIResponsesToolCalls,
  McpClient,
  toolsForAnthropic,
  toolsForGemini,
  toolsForOpenAIChat,
  toolsForOpenAIResponses,
  type ToolMessage,
  type ToolProvider,
} from '../../src/index.js';
import { dropAbsentNulls } from '../../src/tools/absent-nulls.js';
import { schemaValues } from '../support/schema-values.js';
import { fixture } from '../support/servers.js';
import {
  anthropicToolProblems,
  bedrockNameProblems,
  geminiDeclarationProblems,
  openAIFunctionProblems,
  portableNameProblems,
  strictCanExpress,
  type Problem,
} from '../support/vendor-rules.js';

// The catalogues of real servers (dumped by scripts/dump-schema-corpus.mjs)
// and a hand-written one of hard cases, each served verbatim by the official
// server SDK (catalogue-server.mjs, which echoes every call it receives) and
// read through an McpClient. Every declaration each format function makes
// is checked against the vendor's documented rules (support/vendor-rules.ts),
// and arguments a model could write under the declared schema are sent back
// through the format's way back: what the server receives must name the
// real tool and be valid under the tool's original schema, and a call the
// client answers itself must be one whose arguments that schema refuses.

jest.setTimeout(120_000);

interface Dump {
  server: string;
  tools: Array<{ name: string; inputSchema: Record<string, unknown> }>;
}

const corpusDir = join(__dirname, '..', 'fixtures', 'schema-corpus');
const corpus = readdirSync(corpusDir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file: join(corpusDir, file), dump: JSON.parse(readFileSync(join(corpusDir, file), 'utf8')) as Dump }));

/** How many argument sets each tool is tried with, per format. */
const SAMPLES = 4;

/** One declaration a format made, read back to a name and a schema. */
interface Declared {
  name: string;
  schema: unknown;
  strict: boolean;
}

/** A format under test: how it declares the tools, the rules it must meet, and its way back. */
interface Format {
  label: string;
  declare(provider: ToolProvider): Promise<Declared[]>;
  problems(provider: ToolProvider): Promise<Problem[][]>;
  /** Runs calls the model made with the shown names; answers in order, as the echoed text. */
  back(provider: ToolProvider, calls: Array<{ id: string; name: string; args: Record<string, unknown> }>): Promise<string[]>;
  /** Whether this format promises strict schemas (so every real server's tool must come out strict). */
  strict: boolean;
}

function responsesFormat(strict: boolean): Format {
  const declare = async (provider: ToolProvider): Promise<OpenAI.Responses.FunctionTool[]> => toolsForOpenAIResponses(provider, { strict });
  return {
    label: `toolsForOpenAIResponses${strict ? ' with strict' : ''}`,
    strict,
    declare: async (provider) => (await declare(provider)).map((tool) => ({ name: tool.name, schema: tool.parameters, strict: tool.strict === true })),
    problems: async (provider) => (await declare(provider)).map((tool) => openAIFunctionProblems(tool)),
    back: async (provider, calls) => {
      const output: OpenAI.Responses.ResponseFunctionToolCall[] = calls.map((call) => ({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.args) }));
      return (await executeOpenAIResponsesToolCalls(provider, output)).map((item) => item.output as string);
    },
  };
}

function chatFormat(strict: boolean): Format {
  const chatTools = async (provider: ToolProvider): Promise<OpenAI.Chat.ChatCompletionFunctionTool[]> => toolsForOpenAIChat(provider, { strict });
  return {
    label: `the chat-completions shape${strict ? ' with strict' : ''}`,
    strict,
    declare: async (provider) => (await chatTools(provider)).map(({ function: fn }) => ({ name: fn.name, schema: fn.parameters, strict: fn.strict === true })),
    problems: async (provider) => (await chatTools(provider)).map(({ function: fn }) => openAIFunctionProblems(fn)),
    back: async (provider, calls) => {
      const toolCalls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }));
      return (await executeOpenAIChatToolCalls(provider, toolCalls)).map((message: ToolMessage) => message.content);
    },
  };
}

const anthropicFormat: Format = {
  label: 'toolsForAnthropic',
  strict: false,
  declare: async (provider) => (await toolsForAnthropic(provider)).map((tool) => ({ name: tool.name, schema: tool.input_schema, strict: false })),
  problems: async (provider) => {
    const tools: Anthropic.Tool[] = await toolsForAnthropic(provider);
    return tools.map((tool) => anthropicToolProblems(tool));
  },
  back: async (provider, calls) => {
    const content: Anthropic.ToolUseBlock[] = calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args, caller: { type: 'direct' } }));
    return (await executeAnthropicToolCalls(provider, content)).map((block) => block.content as string);
  },
};

const geminiFormat: Format = {
  label: 'toolsForGemini',
  strict: false,
  declare: async (provider) => {
    const tool: GeminiTool = await toolsForGemini(provider);
    return (tool.functionDeclarations ?? []).map((declaration) => ({ name: declaration.name ?? '', schema: declaration.parametersJsonSchema ?? declaration.parameters, strict: false }));
  },
  problems: async (provider) => {
    const tool: GeminiTool = await toolsForGemini(provider);
    return (tool.functionDeclarations ?? []).map((declaration) => geminiDeclarationProblems(declaration));
  },
  back: async (provider, calls) => {
    const parts = calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } }));
    return (await executeGeminiToolCalls(provider, parts)).map(({ functionResponse: { response } }) => ('output' in response ? response.output : response.error));
  },
};

const formats: Format[] = [responsesFormat(false), responsesFormat(true), chatFormat(false), chatFormat(true), anthropicFormat, geminiFormat];

function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-07')) return '7';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

function validator(schema: unknown): Validator {
  const record = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  return new Validator(record as Schema, draftOf(record), false);
}

/** Problems keyed by tool, only for tools that have some: `{}` when all is well. */
function byTool(names: readonly string[], problems: Problem[][]): Record<string, Problem[]> {
  const report: Record<string, Problem[]> = {};
  problems.forEach((list, index) => {
    if (list.length > 0) report[names[index] ?? `#${index}`] = list;
  });
  return report;
}

// The checkers must not pass what a vendor refuses: each is held to an
// example from the vendor's own documentation and to one it documents refusing.
describe('the vendor rules', () => {
  const weather = {
    type: 'object',
    properties: { location: { type: 'string', description: 'City and country' }, units: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] } },
    required: ['location', 'units'],
    additionalProperties: false,
  };

  it("accept OpenAI's strict get_weather example and refuse an optional property, an open object and default", () => {
    expect(openAIFunctionProblems({ name: 'get_weather', parameters: weather, strict: true })).toEqual([]);
    expect(openAIFunctionProblems({ name: 'get_weather', parameters: { ...weather, required: ['location'] }, strict: true })).toEqual(['parameters.required: strict mode needs "units" listed']);
    expect(openAIFunctionProblems({ name: 'get_weather', parameters: { ...weather, additionalProperties: true }, strict: true })).toEqual(['parameters: strict mode needs additionalProperties: false']);
    expect(openAIFunctionProblems({ name: 'get.weather', parameters: { ...weather, properties: { location: { type: 'string', default: 'Paris' } } }, strict: true })).toEqual([
      'name "get.weather": OpenAI needs /^[a-zA-Z0-9_-]{1,64}$/',
      'parameters.properties["location"].default: strict mode refuses this keyword',
    ]);
  });

  it('refuse a top-level anyOf for Anthropic, a name starting with a digit and a required cycle for Gemini', () => {
    expect(anthropicToolProblems({ name: 'lookup', input_schema: { type: 'object', anyOf: [{ required: ['a'] }] } })).toEqual(['input_schema.anyOf: Anthropic refuses it at the top level']);
    const cycle = { type: 'object', $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, required: ['next'] } }, properties: { root: { $ref: '#/$defs/node' } } };
    expect(geminiDeclarationProblems({ name: '3d', parametersJsonSchema: cycle })).toEqual([
      'name "3d": Gemini needs /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/',
      'parametersJsonSchema.$defs["node"]: refers to itself through required properties, which Gemini cannot unroll',
    ]);
  });
});

describe.each(corpus)('the schema corpus: $dump.server', ({ file, dump }) => {
  let client: McpClient;
  const names = dump.tools.map((tool) => tool.name);

  beforeAll(() => {
    const { command, args } = fixture('catalogue-server.mjs', file);
    // The fixture answers every call with an echo, not with what a tool's outputSchema promises.
    client = McpClient.connectStdio({ command, args, validateStructuredContent: false });
  });
  afterAll(() => client.close());

  it('is served with every input schema as the server wrote it', async () => {
    const tools = await client.toolsForLlm();
    expect(tools.map(({ function: fn }) => fn.parameters)).toEqual(dump.tools.map((tool) => tool.inputSchema));
  });

  describe.each(formats)('$label', (format) => {
    it("declares every tool by a name and schema the vendor's rules accept", async () => {
      expect(byTool(names, await format.problems(client))).toEqual({});
    });

    it('shows names that are portable, accepted by Bedrock and unique, one declaration per tool', async () => {
      const declared = await format.declare(client);
      expect(declared).toHaveLength(names.length);
      expect(byTool(names, declared.map(({ name }) => [...portableNameProblems(name), ...bedrockNameProblems(name)]))).toEqual({});
      expect(new Set(declared.map(({ name }) => name)).size).toBe(declared.length);
    });

    if (format.strict && dump.server !== 'hard-cases') {
      it('declares strict every tool of a real server whose schema strict mode can express', async () => {
        const declared = await format.declare(client);
        const expressible = dump.tools.map((tool) => strictCanExpress(tool.inputSchema));
        expect(declared.flatMap((tool, index) => (tool.strict || !expressible[index] ? [] : [names[index]]))).toEqual([]);
      });
    }

    it('turns arguments valid under the declared schema into arguments valid under the original one for the right tool, or refuses them naming the rule they break', async () => {
      const declared = await format.declare(client);
      const problems: Problem[][] = names.map(() => []);
      const calls: Array<{ id: string; name: string; args: Record<string, unknown>; tool: number }> = [];
      declared.forEach((tool, index) => {
        const original = dump.tools[index]?.inputSchema ?? {};
        // A $ref to another document cannot be followed offline, nor checked against.
        if (JSON.stringify(original).match(/"\$ref":"(?!#)/)) return;
        const check = validator(tool.schema);
        try {
          const samples = fc.sample(
            schemaValues(tool.schema).filter((value) => typeof value === 'object' && value !== null && !Array.isArray(value) && check.validate(value).valid),
            { seed: 28 + index, numRuns: SAMPLES },
          ) as Array<Record<string, unknown>>;
          samples.forEach((args, n) => calls.push({ id: `call_${index}_${n}`, name: tool.name, args, tool: index }));
        } catch {
          problems[index]?.push('no arguments valid under the declared schema could be written');
        }
      });
      const answers = await format.back(client, calls);
      answers.forEach((text, n) => {
        const call = calls[n] as (typeof calls)[number];
        const original = dump.tools[call.tool] as Dump['tools'][number];
        let echoed: { name?: unknown; arguments?: unknown };
        try {
          echoed = JSON.parse(text) as typeof echoed;
        } catch {
          // The client may answer a call itself, and only to say which rule
          // of the original schema the arguments (nulls for "not given" dropped) break.
          const refused = text.startsWith(`Invalid arguments for ${JSON.stringify(original.name)}: at "`);
          if (!refused || validator(original.inputSchema).validate(dropAbsentNulls(call.args, original.inputSchema)).valid) {
            problems[call.tool]?.push(`${JSON.stringify(call.args)} did not reach the server: ${text}`);
          }
          return;
        }
        if (echoed.name !== original.name) problems[call.tool]?.push(`the call reached ${JSON.stringify(echoed.name)}`);
        const judged = asTheClientChecks(original.inputSchema);
        if (judged === undefined) return;
        const result = validator(judged).validate(echoed.arguments);
        if (!result.valid) {
          const first = result.errors.find((error) => error.keyword !== 'properties' && error.keyword !== 'allOf') ?? result.errors[0];
          problems[call.tool]?.push(`sent ${JSON.stringify(call.args)}, server got ${JSON.stringify(echoed.arguments)}: ${first?.instanceLocation} ${first?.error}`);
        }
      });
      expect(byTool(names, problems)).toEqual({});
    });
  });
});

/**
 * A tool's inputSchema as the client checks arguments against it: it never
 * runs a server's regular expression (one could backtrack for ever), so a
 * `pattern` is left to the server, and a schema with `patternProperties` is
 * not checked at all (`undefined`): arguments that break only those reach
 * the server, which is the authority on them.
 */
function asTheClientChecks(schema: object): object | undefined {
  if (JSON.stringify(schema).includes('"patternProperties":')) return undefined;
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'pattern' && typeof value === 'string' ? undefined : value))) as object;
}
