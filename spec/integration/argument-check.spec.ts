import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIChatToolCalls,
  executeOpenAIResponsesToolCalls,
  type LlmToolCall,
  McpClient,
  Policy,
  Registry,
} from 'rxmcp';
import { fixture } from '../support/servers.js';

// The vendor way-back functions check a model's arguments against the tool's
// own inputSchema, which the declaration a vendor saw may have loosened
// (strict mode and Gemini drop `format`, `multipleOf`, …). The server is
// spec/fixtures/catalogue-server.mjs (the official server SDK), serving the
// catalogue below verbatim and echoing every call it receives: a refused call
// is answered by the client, and its answer is no echo.

/** A schema nested `levels` deep, past what the check reads. */
function deep(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

const tools = [
  {
    name: 'fetch_page',
    description: 'Fetches a page',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, zoom: { type: 'number', multipleOf: 0.25, exclusiveMinimum: 0 }, note: { type: 'string' } },
      required: ['url'],
    },
  },
  { name: 'remote_ref', inputSchema: { type: 'object', properties: { spec: { $ref: 'https://example.com/spec.json' } } } },
  { name: 'too_deep', inputSchema: { type: 'object', properties: { tree: deep(100) } } },
];

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const URL_BROKEN = 'Invalid arguments for "fetch_page": at "#/url" ("#/properties/url/format"): "String does not match format \\"uri\\"."';
const ZOOM_BROKEN = /^Invalid arguments for "fetch_page": at "#\/zoom" \("#\/properties\/zoom\/multipleOf"\): "[^"]*"$/;

describe('checking arguments on the way back', () => {
  let dir: string;
  let client: McpClient;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxmcp-argument-check-'));
    const file = join(dir, 'catalogue.json');
    writeFileSync(file, JSON.stringify({ tools }));
    const { command, args } = fixture('catalogue-server.mjs', file);
    client = McpClient.connectStdio({ command, args });
  });
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a call whose arguments break the tool schema with the violation, and sends the rest of the batch', async () => {
    const answers = await executeOpenAIChatToolCalls(client, [
      call('a', 'fetch_page', { url: 'not a uri' }),
      call('b', 'fetch_page', { url: 'https://example.com/', zoom: 1.3 }),
      call('c', 'fetch_page', { url: 'https://example.com/', zoom: 1.5, note: null }),
    ]);
    expect(answers[0]).toMatchObject({ tool_call_id: 'a', is_error: true });
    expect(answers[0]?.content).toBe(URL_BROKEN);
    expect(answers[1]).toMatchObject({ tool_call_id: 'b', is_error: true });
    expect(answers[1]?.content).toMatch(ZOOM_BROKEN);
    // Checked after the null standing for "not given" is dropped, the third reaches the server.
    expect(answers[2]).toMatchObject({ tool_call_id: 'c', is_error: false });
    expect(JSON.parse(answers[2]?.content ?? '')).toEqual({ name: 'fetch_page', arguments: { url: 'https://example.com/', zoom: 1.5 } });
    // Unchecked (the default of executeToolCalls), the server is sent the bad arguments.
    const [unchecked] = await client.executeToolCalls([call('d', 'fetch_page', { url: 'not a uri' })]);
    expect(JSON.parse(unchecked?.content ?? '')).toEqual({ name: 'fetch_page', arguments: { url: 'not a uri' } });
  });

  it('refuses the same way through the Responses, Anthropic and Gemini ways back', async () => {
    const output = [{ type: 'function_call', call_id: 'r', name: 'fetch_page', arguments: '{"url":"nope"}' }];
    const [responses] = await executeOpenAIResponsesToolCalls(client, output);
    expect(responses?.output).toBe(URL_BROKEN);
    const content = [{ type: 'tool_use', id: 'an', name: 'fetch_page', input: { url: 'https://example.com/', zoom: 0.1 } }];
    const [anthropic] = await executeAnthropicToolCalls(client, content);
    expect(anthropic).toMatchObject({ tool_use_id: 'an', is_error: true });
    expect(anthropic?.content).toMatch(ZOOM_BROKEN);
    const [gemini] = await executeGeminiToolCalls(client, [{ functionCall: { id: 'g', name: 'fetch_page', args: { url: 'nope' } } }]);
    expect((gemini?.functionResponse.response as { error?: string }).error).toBe(URL_BROKEN);
  });

  it('checks against the real tool through a layer, and lets the caller turn the check off', async () => {
    const stack = new Policy({ provider: new Registry().add(client, { prefix: 'web' }), rules: [{ tool: '*', decision: 'allow' }] });
    const [layered, sent] = await executeOpenAIChatToolCalls(stack, [call('p', 'web_fetch_page', { url: 'nope' }), call('q', 'web_fetch_page', { url: 'https://example.com/' })]);
    expect(layered?.content).toBe(URL_BROKEN);
    expect(JSON.parse(sent?.content ?? '')).toEqual({ name: 'fetch_page', arguments: { url: 'https://example.com/' } });
    const [off] = await executeOpenAIChatToolCalls(client, [call('o', 'fetch_page', { url: 'nope' })], { checkArguments: false });
    expect(JSON.parse(off?.content ?? '')).toEqual({ name: 'fetch_page', arguments: { url: 'nope' } });
  });

  it('sends a call unchecked when the tool schema cannot be checked (a $ref to another document, nesting too deep)', async () => {
    const [refused, ...answers] = await executeOpenAIChatToolCalls(client, [
      call('f', 'fetch_page', { url: 'nope' }),
      call('r', 'remote_ref', { spec: 42 }),
      call('t', 'too_deep', { tree: 7 }),
    ]);
    // In the same batch, a schema that can be checked still is.
    expect(refused?.content).toBe(URL_BROKEN);
    expect(answers.map((answer) => answer.is_error)).toEqual([false, false]);
    expect(answers.map((answer) => JSON.parse(answer.content))).toEqual([
      { name: 'remote_ref', arguments: { spec: 42 } },
      { name: 'too_deep', arguments: { tree: 7 } },
    ]);
  });
});
