import { z } from 'zod';
import { type LlmToolCall, REASON_PARAM, Reasons, Toolkit, type ToolProvider, UnknownKeys, type UnknownKeysWarning } from '../../src/index.js';

const call = (id: string, name: string, args: unknown): LlmToolCall => ({ id, function: { name, arguments: args as object } });

/** Records the calls it is given and answers each with its arguments. */
class Recorder implements ToolProvider {
  readonly seen: LlmToolCall[][] = [];
  constructor(private readonly kit: Toolkit) {}
  toolsForLlm() {
    return this.kit.toolsForLlm();
  }
  executeToolCalls(calls: LlmToolCall[]) {
    this.seen.push(calls);
    return this.kit.executeToolCalls(calls);
  }
}

const kit = () =>
  new Toolkit({ name: 'k' })
    .tool('write', { input: z.looseObject({ path: z.string(), content: z.string() }) }, (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
    .tool('explain', { input: z.object({ reason: z.string() }) }, ({ reason }) => ({ content: [{ type: 'text', text: `own reason: ${reason}` }] }))
    .tool('bare', { input: z.object({}) }, () => ({ content: [{ type: 'text', text: 'ok' }] }));

describe('Reasons', () => {
  it('declares an optional reason on every tool but those that have their own', async () => {
    const tools = await new Reasons({ provider: kit() }).toolsForLlm();
    const write = tools[0]?.function.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(write.properties)).toEqual(['path', 'content', REASON_PARAM]);
    expect(write.required).toEqual(['path', 'content']);
    expect(tools[1]).toEqual((await kit().toolsForLlm())[1]);
  });

  it('strips the reason from calls before they go on, leaving a tool\'s own reason alone', async () => {
    const inner = new Recorder(kit());
    const reasons = new Reasons({ provider: inner });
    await reasons.toolsForLlm();
    const answers = await reasons.executeToolCalls([
      call('1', 'write', { path: 'a', content: 'b', reason: 'asked to' }),
      call('2', 'write', JSON.stringify({ path: 'a', content: 'b', reason: 'as a string' })),
      call('3', 'explain', { reason: 'mine' }),
      call('4', 'write', '{not json'),
    ]);
    expect(answers.map((a) => a.content)).toEqual([
      '{"path":"a","content":"b"}',
      '{"path":"a","content":"b"}',
      'own reason: mine',
      'Invalid arguments for write: not valid JSON',
    ]);
  });

  it('strips nothing for a tool it never augmented: when in doubt, do not strip', async () => {
    const inner = new Recorder(kit());
    await new Reasons({ provider: inner }).executeToolCalls([call('1', 'write', { path: 'a', content: 'b', reason: 'kept' })]);
    expect(inner.seen[0]?.[0]?.function.arguments).toEqual({ path: 'a', content: 'b', reason: 'kept' });
  });
});

describe('UnknownKeys', () => {
  it('reports each undeclared key once per tool, and passes calls on untouched', async () => {
    const warnings: UnknownKeysWarning[] = [];
    const inner = new Recorder(kit());
    const audit = new UnknownKeys({ provider: inner, onWarn: (w) => warnings.push(w) });
    await audit.toolsForLlm();
    const calls = [
      call('1', 'write', { path: 'a', content: 'b', recursive: true, reason: 'tolerated' }),
      call('2', 'write', { path: 'a', content: 'b', recursive: true }),
      call('3', 'write', JSON.stringify({ path: 'a', content: 'b', force: 1 })),
    ];
    await audit.executeToolCalls(calls);
    expect(inner.seen[0]).toBe(calls);
    expect(warnings).toEqual([
      { tool: 'write', id: '1', unknownKeys: ['recursive'], declaredKeys: ['path', 'content'] },
      { tool: 'write', id: '3', unknownKeys: ['force'], declaredKeys: ['path', 'content'] },
    ]);
  });

  it('stays quiet where it has nothing to say', async () => {
    const warnings: UnknownKeysWarning[] = [];
    const audit = new UnknownKeys({ provider: kit(), onWarn: (w) => warnings.push(w) });
    await audit.executeToolCalls([call('0', 'write', { surprise: 1 })]);
    await audit.toolsForLlm();
    await audit.executeToolCalls([
      call('1', 'bare', { anything: 1 }),
      call('2', 'write', '{not json'),
      call('3', 'write', '[1,2]'),
      call('4', 'write', ''),
      call('5', 'unlisted', { x: 1 }),
    ]);
    expect(warnings).toEqual([]);
  });

  it('lets what the provider below throws go straight through', async () => {
    const broken: ToolProvider = {
      toolsForLlm: async () => [],
      executeToolCalls: () => Promise.reject(new Error('down')),
    };
    await expect(new UnknownKeys({ provider: broken }).executeToolCalls([])).rejects.toThrow('down');
  });
});
