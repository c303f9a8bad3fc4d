import { checkSamplingRequest, checkSamplingResult, declaresSamplingTools, SAMPLING_LIMITS } from '../../src/protocol/sampling-checks';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const uses = (...ids: string[]) => ({ role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'get_weather', input: {} })) });
const results = (...ids: string[]) => ({ role: 'user', content: ids.map((id) => ({ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: 'sunny' }] })) });
const request = (extra: Record<string, unknown> = {}) => ({ messages: [user('hi')], maxTokens: 10, ...extra });
const reason = (params: unknown, declared = true) => {
  const checked = checkSamplingRequest(params, declared);
  return checked.ok ? undefined : checked.reason;
};

describe('the checks a sampling request passes before the hook', () => {
  it('2025-11-25 client/sampling, Tools in Sampling: tools, toolChoice and tool content need sampling.tools declared', () => {
    expect(reason(request({ tools: [tool('a')] }), false)).toContain('did not declare sampling.tools');
    expect(reason(request({ toolChoice: { mode: 'auto' } }), false)).toContain('did not declare sampling.tools');
    expect(reason({ messages: [user('hi'), uses('1'), results('1')], maxTokens: 5 }, false)).toContain('did not declare sampling.tools');
    expect(reason(request(), false)).toBeUndefined();
    expect(reason(request({ tools: [tool('a')], toolChoice: { mode: 'required' } }))).toBeUndefined();
  });

  it('2025-11-25 client/sampling, Error Handling: tool results mixed with other content, or missing, are refused', () => {
    const mixed = { role: 'user', content: [...results('1').content, { type: 'text', text: 'and also' }] };
    expect(reason({ messages: [user('hi'), uses('1'), mixed], maxTokens: 5 })).toBe('Tool results mixed with other content (messages[2])');
    expect(reason({ messages: [user('hi'), uses('1', '2'), results('1')], maxTokens: 5 })).toBe('Tool result missing in request (after messages[1])');
    expect(reason({ messages: [user('hi'), uses('1')], maxTokens: 5 })).toBe('Tool result missing in request (after messages[1])');
    expect(reason({ messages: [user('hi'), results('9')], maxTokens: 5 })).toContain('did not make');
    expect(reason({ messages: [user('hi'), uses('1', '2'), results('2', '1'), user('thanks')], maxTokens: 5 })).toBeUndefined();
  });

  it('bounds tools: at most 1,000, names of 1 to 128 characters and unique, texts and schemas bounded, toolChoice modes known', () => {
    const many = Array.from({ length: SAMPLING_LIMITS.maxTools + 1 }, (_, n) => tool(`t${n}`));
    expect(reason(request({ tools: many }))).toBe('too many tools (1001; at most 1000)');
    expect(reason(request({ tools: many.slice(0, SAMPLING_LIMITS.maxTools) }))).toBeUndefined();
    expect(reason(request({ tools: [tool('x'.repeat(129))] }))).toContain('name must be a string of 1 to 128');
    expect(reason(request({ tools: [tool('a'), tool('a')] }))).toContain('twice');
    expect(reason(request({ tools: [{ ...tool('a'), description: 'd'.repeat(SAMPLING_LIMITS.maxToolTextChars + 1) }] }))).toContain('description');
    expect(reason(request({ tools: [{ name: 'a', inputSchema: { type: 'object', description: 'x'.repeat(SAMPLING_LIMITS.maxSchemaChars) } }] }))).toContain('inputSchema');
    expect(reason(request({ tools: [{ name: 'a' }] }))).toContain('inputSchema must be an object');
    expect(reason(request({ tools: [tool('a')], toolChoice: { mode: 'always' } }))).toContain('toolChoice.mode');
  });

  it('refuses what is not a sampling request: no messages, no maxTokens, unknown content, a role nobody plays', () => {
    expect(reason({ maxTokens: 5 })).toBe('messages must be an array');
    expect(reason({ messages: [] })).toContain('maxTokens must be a positive number');
    expect(reason({ messages: [{ role: 'user', content: { type: 'video', url: 'x' } }], maxTokens: 5 })).toContain('unknown type "video"');
    expect(reason({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 5 })).toContain('role must be user or assistant');
    expect(reason({ messages: [{ role: 'user', content: Array.from({ length: 1_001 }, () => ({ type: 'text', text: '' })) }], maxTokens: 5 })).toContain('too many content blocks');
  });

  it('reads own keys only: tools inherited through "__proto__" are not there', () => {
    const params = JSON.parse('{"messages":[],"maxTokens":5,"__proto__":{"tools":[1]}}') as Record<string, unknown>;
    expect(reason(params, false)).toBeUndefined();
  });

  it('declaresSamplingTools reads sampling.tools of the declared capabilities', () => {
    expect(declaresSamplingTools({ sampling: { tools: {} } })).toBe(true);
    expect(declaresSamplingTools({ sampling: {} })).toBe(false);
    expect(declaresSamplingTools(undefined)).toBe(false);
  });
});

describe('the checks a hook answer passes before the server sees it', () => {
  const offered = { messages: [user('hi')], maxTokens: 5, tools: [tool('get_weather')] };
  const useOf = (name: string) => ({ role: 'assistant', model: 'm', stopReason: 'toolUse', content: [{ type: 'tool_use', id: 'u', name, input: {} }] });

  it('allows a tool use of an offered tool only, never with toolChoice none or without tools', () => {
    expect(checkSamplingResult(useOf('get_weather'), offered)).toBeUndefined();
    expect(checkSamplingResult(useOf('rm'), offered)).toContain('did not offer');
    expect(checkSamplingResult(useOf('get_weather'), { ...offered, toolChoice: { mode: 'none' } })).toContain('toolChoice is none');
    expect(checkSamplingResult(useOf('get_weather'), { messages: [], maxTokens: 5 })).toContain('offered none');
  });

  it('refuses tool results, stopReason toolUse without a tool use, and content that is not content', () => {
    expect(checkSamplingResult({ role: 'assistant', model: 'm', content: results('u').content }, offered)).toContain('tool_result');
    expect(checkSamplingResult({ role: 'assistant', model: 'm', stopReason: 'toolUse', content: { type: 'text', text: 'x' } }, offered)).toContain('uses no tool');
    expect(checkSamplingResult({ role: 'assistant', model: 'm', content: { type: 'text' } }, offered)).toContain('needs text');
    expect(checkSamplingResult({ role: 'assistant', model: 'm', content: [] }, offered)).toContain('1 to 1000 blocks');
    expect(checkSamplingResult({ role: 'assistant', model: 'm', content: { type: 'text', text: 'fine' }, stopReason: 'endTurn' }, offered)).toBeUndefined();
  });
});
