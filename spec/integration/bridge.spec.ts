import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { type LlmToolCall, McpClient, Registry, Toolkit, type ToolProgress } from '../../src/index.js';
import { parityServer, parityToolkit } from '../support/parity.js';
import { eventually, everythingServer, modernServer } from '../support/servers.js';

const shapes: LlmToolCall[] = [
  { id: 'object', function: { name: 'echo', arguments: { text: 'hi' } } },
  { id: 'json-string', function: { name: 'echo', arguments: '{"text":"from a string"}' } },
  { id: 'empty-string', function: { name: 'ping', arguments: '' } },
  { id: 'invalid-json', function: { name: 'echo', arguments: '{"text":' } },
  { id: 'non-object-json', function: { name: 'echo', arguments: '["text"]' } },
  { id: 'unknown-tool', function: { name: 'no_such_tool', arguments: {} } },
  { id: 'is-error', function: { name: 'fails', arguments: { why: 'on purpose' } } },
  { id: 'structured', function: { name: 'measure', arguments: { text: 'hello' } } },
  { id: 'image', function: { name: 'picture', arguments: '{}' } },
  { id: 'bad-argument', function: { name: 'echo', arguments: { text: 5 } } },
  { id: 'malformed' } as unknown as LlmToolCall,
];

const expected = [
  { role: 'tool', tool_call_id: 'object', content: 'hi', is_error: false },
  { role: 'tool', tool_call_id: 'json-string', content: 'from a string', is_error: false },
  { role: 'tool', tool_call_id: 'empty-string', content: 'pong', is_error: false },
  { role: 'tool', tool_call_id: 'invalid-json', content: 'Invalid arguments for echo: not valid JSON', is_error: true },
  { role: 'tool', tool_call_id: 'non-object-json', content: 'Invalid arguments for echo: expected a JSON object', is_error: true },
  { role: 'tool', tool_call_id: 'unknown-tool', content: 'Unknown tool: no_such_tool', is_error: true },
  { role: 'tool', tool_call_id: 'is-error', content: 'failed: on purpose', is_error: true },
  { role: 'tool', tool_call_id: 'structured', content: '5 characters', is_error: false, structured_content: { length: 5 } },
  { role: 'tool', tool_call_id: 'image', content: '[image: image/png, 8 bytes]\na picture', is_error: false },
  {
    role: 'tool',
    tool_call_id: 'bad-argument',
    content: 'Input validation error: Invalid arguments for tool echo: text: Invalid input: expected string, received number',
    is_error: true,
  },
  { role: 'tool', tool_call_id: 'malformed', content: 'Malformed tool call: it needs an id and a function name', is_error: true },
];

describe.each([
  ['modern', false],
  ['legacy', true],
])('golden parity: a Toolkit and the same tools on an SDK server (%s era)', (era, legacy) => {
  const local = parityToolkit();
  let remote: McpClient;
  beforeAll(() => {
    remote = McpClient.connectStdio(parityServer(legacy));
  });
  afterAll(() => remote.close());

  it(`talks to the server in the ${era} era`, async () => {
    expect((await firstValueFrom(remote.describe())).era).toBe(era);
  });

  it('declares the same tools, byte for byte', async () => {
    const [mine, theirs] = await Promise.all([local.toolsForLlm(), remote.toolsForLlm()]);
    expect(JSON.stringify(theirs)).toBe(JSON.stringify(mine));
    expect(mine[0]).toEqual({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echoes its text',
        parameters: {
          type: 'object',
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          properties: { text: { type: 'string', description: 'What to echo' } },
          required: ['text'],
        },
      },
    });
  });

  it('answers every argument shape identically, as expected', async () => {
    const [mine, theirs] = await Promise.all([local.executeToolCalls(shapes), remote.executeToolCalls(shapes)]);
    expect(JSON.stringify(theirs)).toBe(JSON.stringify(mine));
    expect(mine).toEqual(expected);
  });
});

describe('batches against a real server whose annotations are trusted', () => {
  const lines: string[] = [];
  let mcp: McpClient;
  beforeAll(() => {
    mcp = McpClient.connectStdio({ ...parityServer(), trustAnnotations: true, onStderr: (line) => lines.push(line) });
  });
  afterAll(() => mcp.close());
  const read = (id: string, tag: string, ms = 150): LlmToolCall => ({ id, function: { name: 'slow_read', arguments: { tag, ms } } });

  it('overlaps read-only, idempotent calls, answering in the model\'s order', async () => {
    lines.length = 0;
    const answers = await mcp.executeToolCalls([read('1', 'a'), read('2', 'b', 50), read('3', 'c')]);
    expect(answers.map((a) => a.content)).toEqual(['read a', 'read b', 'read c']);
    expect(lines.slice(0, 3).every((line) => line.startsWith('begin'))).toBe(true);
    // stderr may trail stdout: the next test must not see this batch's last lines.
    await eventually(() => ['end a', 'end b', 'end c'].every((line) => lines.includes(line)));
  });

  it('runs a batch with one write serially, in order', async () => {
    lines.length = 0;
    const write: LlmToolCall = { id: 'w', function: { name: 'slow_write', arguments: { tag: 'w', ms: 50 } } };
    await mcp.executeToolCalls([read('1', 'a', 50), write, read('2', 'b', 50)]);
    expect(lines).toEqual(['begin a', 'end a', 'begin w', 'end w', 'begin b', 'end b']);
  });

  it('sends identical calls once and copies the answer to each', async () => {
    lines.length = 0;
    const answers = await mcp.executeToolCalls([read('1', 'same', 50), read('2', 'same', 50), read('3', 'other', 50)]);
    expect(answers.map((a) => [a.tool_call_id, a.content])).toEqual([
      ['1', 'read same'],
      ['2', 'read same'],
      ['3', 'read other'],
    ]);
    expect(lines.filter((line) => line === 'begin same')).toHaveLength(1);
  });

  it('stays serial with toolConcurrency 1', async () => {
    const own: string[] = [];
    const serial = McpClient.connectStdio({ ...parityServer(), trustAnnotations: true, toolConcurrency: 1, onStderr: (line) => own.push(line) });
    try {
      await serial.executeToolCalls([read('1', 'a', 30), read('2', 'b', 30)]);
      expect(own).toEqual(['begin a', 'end a', 'begin b', 'end b']);
    } finally {
      await serial.close();
    }
  });

  it('reports what the server said about a tool', async () => {
    expect(await firstValueFrom(mcp.toolAnnotations('slow_read'))).toEqual({ readOnlyHint: true, idempotentHint: true });
    expect(await firstValueFrom(mcp.toolAnnotations('nothing'))).toBeUndefined();
  });

  it('turns a dead connection into error messages, never a rejection', async () => {
    const dead = McpClient.connectStdio({ command: 'rxmcp-no-such-server' });
    const answers = await dead.executeToolCalls([read('1', 'a')]);
    expect(answers).toEqual([{ role: 'tool', tool_call_id: '1', content: expect.stringContaining('rxmcp-no-such-server'), is_error: true }]);
    await dead.close();
  });
});

describe('progress for the bridge', () => {
  it('reports each bridged call\'s progress under the model\'s call id', async () => {
    const reports: ToolProgress[] = [];
    const mcp = McpClient.connectStdio({ ...modernServer, onProgress: (p) => reports.push(p) });
    try {
      await mcp.executeToolCalls([{ id: 'call_7', function: { name: 'count', arguments: '{"steps":2}' } }]);
      expect(reports).toEqual([
        { toolCallId: 'call_7', progress: 1, total: 2, message: 'step 1' },
        { toolCallId: 'call_7', progress: 2, total: 2, message: 'step 2' },
      ]);
    } finally {
      await mcp.close();
    }
  });
});

describe('a Registry over server-everything, an SDK server and a Toolkit', () => {
  const everything = McpClient.connectStdio(everythingServer);
  const parity = McpClient.connectStdio(parityServer());
  const local = new Toolkit({ name: 'local' }).tool(
    'shout',
    { description: 'Upper-cases', input: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  const registry = new Registry().add(everything, { prefix: 'ev' }).add(parity, { prefix: 'par' }).add(local, { prefix: 'loc' });
  afterAll(() => Promise.all([everything.close(), parity.close()]));

  it('publishes every tool under its prefix', async () => {
    const names = (await registry.toolsForLlm()).map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(['ev_echo', 'ev_get-sum', 'par_echo', 'par_measure', 'loc_shout']));
  });

  it('routes interleaved calls to their owners and answers in the model\'s order', async () => {
    const answers = await registry.executeToolCalls([
      { id: '1', function: { name: 'par_echo', arguments: { text: 'parity' } } },
      { id: '2', function: { name: 'ev_echo', arguments: { message: 'everything' } } },
      { id: '3', function: { name: 'loc_shout', arguments: { text: 'local' } } },
      { id: '4', function: { name: 'ev_get-sum', arguments: { a: 2, b: 3 } } },
      { id: '5', function: { name: 'zz_nothing', arguments: {} } },
    ]);
    expect(answers.map((a) => [a.tool_call_id, a.is_error])).toEqual([
      ['1', false],
      ['2', false],
      ['3', false],
      ['4', false],
      ['5', true],
    ]);
    expect(answers[0]?.content).toBe('parity');
    expect(answers[1]?.content).toContain('everything');
    expect(answers[2]?.content).toBe('LOCAL');
    expect(answers[3]?.content).toContain('5');
    expect(answers[4]?.content).toBe('Unknown tool: zz_nothing');
  });
});
