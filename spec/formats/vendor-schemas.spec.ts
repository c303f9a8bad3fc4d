import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { Tool as GeminiTool } from '@google/genai';
import type OpenAI from 'openai';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIResponsesToolCalls,
  McpClient,
  Registry,
  type ToolProvider,
  toolsForAnthropic,
  toolsForGemini,
  toolsForOpenAIChat,
  toolsForOpenAIResponses,
} from '../../src/index.js';
import { everythingServer, fixture } from '../support/servers.js';
import { schemaNodes } from '../support/schema-arbitrary.js';

// Real servers' tools through each vendor format: server-filesystem and
// server-everything as published, and spec/fixtures/schema-server.mjs (the
// official SDK) for the shapes they lack: optional members nested in objects
// and arrays, a member that takes null, a recursive type, a map. Its tools
// answer with the arguments exactly as they arrived.

const root = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'rxmcp-schemas-'));
let schemas: McpClient;
let everything: McpClient;
let filesystem: McpClient;

beforeAll(() => {
  schemas = McpClient.connectStdio(fixture('schema-server.mjs'));
  everything = McpClient.connectStdio(everythingServer);
  filesystem = McpClient.connectStdio({ command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), scratch] });
});
afterAll(async () => {
  await Promise.all([schemas.close(), everything.close(), filesystem.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

// What the model sends in strict mode for "file an issue titled Crash, assigned to ada": every member, null where it has nothing to say.
const strictAnswer = { title: 'Crash', body: null, labels: null, assignee: { login: 'ada', team: null }, tasks: [{ text: 'repro', done: null }], milestone: null };
const received = { title: 'Crash', assignee: { login: 'ada' }, tasks: [{ text: 'repro' }], milestone: null };

describe('OpenAI strict mode', () => {
  it('declares every tool of server-filesystem and server-everything strict, as the OpenAI SDK types them', async () => {
    for (const server of [filesystem, everything]) {
      const responses: OpenAI.Responses.FunctionTool[] = await toolsForOpenAIResponses(server, { strict: true });
      const chat: OpenAI.Chat.ChatCompletionFunctionTool[] = await toolsForOpenAIChat(server, { strict: true });
      expect(responses.length).toBeGreaterThan(8);
      expect(responses.filter((tool) => !tool.strict)).toEqual([]);
      expect(chat.map(({ function: fn }) => [fn.name, fn.parameters, fn.strict])).toEqual(responses.map((tool) => [tool.name, tool.parameters, true]));
      for (const tool of responses) {
        for (const node of schemaNodes(tool.parameters)) {
          if (node.properties === undefined) continue;
          expect(node.additionalProperties).toBe(false);
          expect(node.required).toEqual(Object.keys(node.properties as object));
        }
      }
    }
    const editFile = (await toolsForOpenAIResponses(filesystem, { strict: true })).find((tool) => tool.name === 'edit_file');
    expect(editFile?.parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: { oldText: { type: 'string', description: 'Text to search for - must match exactly' }, newText: { type: 'string', description: 'Text to replace with' } },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: { type: ['boolean', 'null'], description: 'Preview changes using git-style diff format (default: false)' },
      },
      required: ['path', 'edits', 'dryRun'],
      additionalProperties: false,
    });
  });

  it('writes a recursive type once, in $defs, and keeps strict: false and the schema as written for a map whose keys are data', async () => {
    const [raw, tools] = await Promise.all([schemas.toolsForLlm(), toolsForOpenAIResponses(schemas, { strict: true })]);
    const outline = tools.find((tool) => tool.name === 'outline');
    const node = {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: ['array', 'null'], items: { $ref: '#/$defs/__schema0' } } },
      required: ['label', 'children'],
      additionalProperties: false,
    };
    expect(outline).toEqual({
      type: 'function',
      name: 'outline',
      description: 'Takes a tree of headings',
      parameters: { type: 'object', properties: { root: node }, required: ['root'], additionalProperties: false, $defs: { __schema0: node } },
      strict: true,
    });
    const setEnv = tools.find((tool) => tool.name === 'set_env');
    expect(setEnv?.strict).toBe(false);
    expect(setEnv?.parameters).toEqual(raw.find((tool) => tool.function.name === 'set_env')?.function.parameters);
  });

  it('without strict, gives the chat shape of toolsForLlm unchanged and Responses tools with strict: false', async () => {
    const raw = await schemas.toolsForLlm();
    expect(await toolsForOpenAIChat(schemas)).toEqual(raw);
    expect(await toolsForOpenAIResponses(schemas)).toEqual(
      raw.map(({ function: fn }) => ({ type: 'function', name: fn.name, description: fn.description, parameters: fn.parameters, strict: false })),
    );
  });
});

describe('the way back: nulls that stand for "not given"', () => {
  it('reach the server without the nulls its schema refuses, and with the null it takes', async () => {
    const output = [{ type: 'function_call', call_id: 'call_1', name: 'file_issue', arguments: JSON.stringify(strictAnswer) }];
    const [answer] = await executeOpenAIResponsesToolCalls(schemas, output);
    expect(JSON.parse(answer!.output as string)).toEqual(received);
  });

  it('are dropped inside a recursive type too, following its $refs', async () => {
    const tree = { root: { label: 'Intro', children: [{ label: 'Why', children: null }, { label: 'How', children: [{ label: 'Steps', children: null }] }] } };
    const output = [{ type: 'function_call', call_id: 'call_2', name: 'outline', arguments: JSON.stringify(tree) }];
    const [answer] = await executeOpenAIResponsesToolCalls(schemas, output);
    expect(JSON.parse(answer!.output as string)).toEqual({ root: { label: 'Intro', children: [{ label: 'Why' }, { label: 'How', children: [{ label: 'Steps' }] }] } });
  });

  it('let server-everything fall back to its own default for a count the model left null', async () => {
    const [answer] = await everything.executeToolCalls([{ id: 'call_1', type: 'function', function: { name: 'get-resource-links', arguments: '{"count":null}' } }]);
    expect(answer?.is_error).toBe(false);
    expect(answer?.content.match(/\[resource link: /g)).toHaveLength(3);
  });

  it('are dropped through the chat shape, Anthropic, Gemini and a Registry alike', async () => {
    const registry = new Registry().add(schemas, { prefix: 'gh' });
    const [chat] = await registry.executeToolCalls([{ id: 'c1', type: 'function', function: { name: 'gh_file_issue', arguments: JSON.stringify(strictAnswer) } }]);
    const [anthropic] = await executeAnthropicToolCalls(schemas, [{ type: 'tool_use', id: 'toolu_1', name: 'file_issue', input: strictAnswer } as { type: string }]);
    const [gemini] = await executeGeminiToolCalls(schemas, [{ functionCall: { name: 'file_issue', args: strictAnswer } }]);
    expect(JSON.parse(chat!.content)).toEqual(received);
    expect(JSON.parse(anthropic!.content as string)).toEqual(received);
    expect(JSON.parse((gemini!.functionResponse.response as { output: string }).output)).toEqual(received);
  });
});

describe('Gemini declarations', () => {
  const GEMINI_KEYWORDS = new Set(['$defs', '$ref', 'type', 'properties', 'required', 'items', 'anyOf', 'enum', 'format', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'title', 'description', 'default', 'additionalProperties', 'prefixItems']);

  it('use only the keywords Gemini reads, for every tool of the three servers', async () => {
    for (const server of [schemas, everything, filesystem]) {
      const tool: GeminiTool = await toolsForGemini(server);
      for (const declaration of tool.functionDeclarations ?? []) {
        expect((declaration.parametersJsonSchema as { type: string }).type).toBe('object');
        for (const node of schemaNodes(declaration.parametersJsonSchema)) for (const keyword of Object.keys(node)) expect(GEMINI_KEYWORDS).toContain(keyword);
      }
    }
  });

  it('write a nullable member as anyOf, expand $defs and write a recursive type once in $defs', async () => {
    const { functionDeclarations } = await toolsForGemini(schemas);
    const schemaOf = (name: string) => functionDeclarations.find((declaration) => declaration.name === name)?.parametersJsonSchema as { properties: Record<string, unknown>; $defs?: unknown };
    expect(schemaOf('file_issue').properties.milestone).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }], description: 'null clears the milestone' });
    const node = { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/__schema0' } } }, required: ['label'] };
    expect(schemaOf('outline').properties.root).toEqual(node);
    expect(schemaOf('outline').$defs).toEqual({ __schema0: node });
  });
});

describe('Anthropic declarations', () => {
  it('give every tool an object input_schema, whatever the provider declared', async () => {
    const tools: Anthropic.Tool[] = await toolsForAnthropic(filesystem);
    expect(tools.every((tool) => tool.input_schema.type === 'object')).toBe(true);
    const odd: ToolProvider = {
      toolsForLlm: async () => [
        { type: 'function', function: { name: 'listed', parameters: ['path'] as unknown as Record<string, unknown> } },
        { type: 'function', function: { name: 'untyped', parameters: { properties: { a: { type: 'string' } } } } },
      ],
      executeToolCalls: async () => [],
    };
    expect(await toolsForAnthropic(odd)).toEqual([
      { name: 'listed', input_schema: { type: 'object' } },
      { name: 'untyped', input_schema: { type: 'object', properties: { a: { type: 'string' } } } },
    ]);
  });
});
