import { firstValueFrom, Observable, of, throwError } from 'rxjs';
import {
  type InputHooks,
  McpCancelledError,
  McpClient,
  McpInputLoopExceededError,
  McpProtocolError,
  McpTimeoutError,
} from '../../../src/index.js';
import { type FakeReply as Reply, FakeTransport } from 'rxmcp/testing';

const modern = () =>
  new FakeTransport().on('server/discover', {
    result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {}, resources: {} } },
  });

const elicit = (message = 'Sure?') => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
});
/** A form whose fields mostly have defaults (SEP-1034). */
const formWithDefaults = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'About you?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
        verified: { type: 'boolean', default: false },
        nickname: { type: 'string' },
      },
    },
  },
};
const sample = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
const roots = { method: 'roots/list', params: {} };

const inputRequired = (extra: Record<string, unknown>): Reply => ({ result: { resultType: 'input_required', ...extra } });
const done: Reply = { result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } };

/** A tool that asks `questions` on the first round and finishes on the retry. */
function askOnce(questions: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return (request: { params?: Record<string, unknown> }): Reply =>
    request.params?.inputResponses === undefined && request.params?.requestState === undefined
      ? inputRequired({ inputRequests: questions, ...extra })
      : done;
}

function connect(transport: FakeTransport, options: Record<string, unknown> = {}): McpClient {
  return new McpClient({ transport, probeTimeoutMs: 200, requestTimeoutMs: 2000, ...options });
}

const accept = { action: 'accept', content: { ok: true } };
const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model' };
const listed = { roots: [{ uri: 'file:///srv', name: 'srv' }] };

describe('the multi round-trip loop', () => {
  it('retries under a new id with the original params, keyed answers and the requestState', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit(), b: sample, c: roots }, { requestState: 'opaque "state" ✓ \\n' }));
    const mcp = connect(transport, { onElicit: () => accept, onSample: () => sampled, onListRoots: () => listed });
    expect(await firstValueFrom(mcp.callTool('deploy', { env: 'prod' }, { meta: { trace: 1 } }))).toEqual({
      content: [{ type: 'text', text: 'done' }],
    });
    const [first, retry] = transport.requests('tools/call');
    expect(retry?.id).not.toBe(first?.id);
    expect(retry?.params).toEqual({
      name: 'deploy',
      arguments: { env: 'prod' },
      inputResponses: { a: accept, b: sampled, c: listed },
      requestState: 'opaque "state" ✓ \\n',
      _meta: first?.params?._meta,
    });
  });

  it('leaves requestState out of the retry when the server sent none', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit() }));
    await firstValueFrom(connect(transport, { onElicit: () => accept }).callTool('t'));
    expect(transport.requests('tools/call')[1]?.params).not.toHaveProperty('requestState');
  });

  it('retries at once, asking nobody, when there are no inputRequests', async () => {
    const transport = modern().on('tools/call', (request) =>
      request.params?.requestState === undefined ? inputRequired({ requestState: 'busy' }) : done,
    );
    const onElicit = jest.fn(() => accept);
    await firstValueFrom(connect(transport, { onElicit }).callTool('t'));
    expect(onElicit).not.toHaveBeenCalled();
    expect(transport.requests('tools/call')[1]?.params).toMatchObject({ requestState: 'busy' });
    expect(transport.requests('tools/call')[1]?.params).not.toHaveProperty('inputResponses');
  });

  it('gives up after maxInputRounds retries', async () => {
    const transport = modern().on('tools/call', inputRequired({ inputRequests: { a: elicit() }, requestState: 's' }));
    const failure = firstValueFrom(connect(transport, { onElicit: () => accept, maxInputRounds: 3 }).callTool('t'));
    await expect(failure).rejects.toBeInstanceOf(McpInputLoopExceededError);
    await expect(failure).rejects.toMatchObject({ method: 'tools/call', rounds: 3 });
    expect(transport.requests('tools/call')).toHaveLength(4);
  });

  it('tolerates exactly one question with maxInputRounds: 1', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit() }));
    const mcp = connect(transport, { onElicit: () => accept, maxInputRounds: 1 });
    await expect(firstValueFrom(mcp.callTool('t'))).resolves.toMatchObject({ content: [{ text: 'done' }] });
  });

  it('serves readResource and getPrompt the same way', async () => {
    const contents = { resultType: 'complete', contents: [{ uri: 'x://1', text: 'one' }] };
    const messages = { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
    const transport = modern()
      .on('resources/read', (r) => (r.params?.inputResponses ? { result: contents } : inputRequired({ inputRequests: { a: elicit() } })))
      .on('prompts/get', (r) => (r.params?.inputResponses ? { result: messages } : inputRequired({ inputRequests: { a: roots } })));
    const mcp = connect(transport, { onElicit: () => accept });
    expect((await firstValueFrom(mcp.readResource('x://1'))).contents[0]?.text).toBe('one');
    expect((await firstValueFrom(mcp.getPrompt('p'))).messages).toHaveLength(1);
    expect(transport.requests('prompts/get')[1]?.params?.inputResponses).toEqual({ a: { roots: [] } });
  });

  it('tells each hook the key the server filed its question under', async () => {
    const transport = modern().on('tools/call', askOnce({ who: elicit(), poem: sample }));
    const keys: unknown[] = [];
    const mcp = connect(transport, { onElicit: ({ key }: { key?: string }) => (keys.push(key), accept), onSample: ({ key }: { key?: string }) => (keys.push(key), sampled) });
    await firstValueFrom(mcp.callTool('t'));
    expect(keys.sort()).toEqual(['poem', 'who']);
  });

  it("answers readResource's and getPrompt's questions with the call's own input hooks, uncached", async () => {
    const contents = { resultType: 'complete', ttlMs: 60_000, contents: [{ uri: 'x://1', text: 'one' }] };
    const messages = { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
    const transport = modern()
      .on('resources/read', (r) => (r.params?.inputResponses ? { result: contents } : inputRequired({ inputRequests: { a: elicit() } })))
      .on('prompts/get', (r) => (r.params?.inputResponses ? { result: messages } : inputRequired({ inputRequests: { a: elicit() } })));
    const own = jest.fn(() => ({ action: 'decline' }));
    const mcp = connect(transport, { onElicit: own });
    const input = { onElicit: () => accept };
    expect((await firstValueFrom(mcp.readResource('x://1', { input }))).contents[0]?.text).toBe('one');
    expect((await firstValueFrom(mcp.readResource('x://1', { input }))).contents[0]?.text).toBe('one');
    expect((await firstValueFrom(mcp.getPrompt('p', {}, { input }))).messages).toHaveLength(1);
    expect(own).not.toHaveBeenCalled();
    expect(transport.requests('resources/read')).toHaveLength(4);
    expect(transport.requests('prompts/get')[1]?.params?.inputResponses).toEqual({ a: accept });
  });

  it('refuses input_required from a method that may not ask', async () => {
    const transport = modern().on('tools/list', inputRequired({ requestState: 'x' }));
    await expect(firstValueFrom(connect(transport).listTools())).rejects.toBeInstanceOf(McpProtocolError);
  });

  it('asks every question of a round at once', async () => {
    const events: string[] = [];
    const slow = (name: string, answer: unknown) => () => {
      events.push(`ask ${name}`);
      return new Promise((resolve) => setTimeout(() => (events.push(`answer ${name}`), resolve(answer)), 30));
    };
    const transport = modern().on('tools/call', askOnce({ a: elicit(), b: sample }));
    const mcp = connect(transport, { onElicit: slow('elicit', accept), onSample: slow('sample', sampled) });
    await firstValueFrom(mcp.callTool('t'));
    // Both questions were out before either was answered.
    expect(events.slice(0, 2).sort()).toEqual(['ask elicit', 'ask sample']);
    expect(events).toHaveLength(4);
  });

  it('bounds the whole loop, hooks included, by the call timeout', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit() }));
    let unsubscribed = false;
    let asked = false;
    const mcp = connect(transport, {
      onElicit: () =>
        new Observable(() => {
          asked = true;
          return () => (unsubscribed = true);
        }),
    });
    // Generous: the timer runs from subscription, and a loaded CI machine must still reach the hook first.
    await expect(firstValueFrom(mcp.callTool('t', {}, { timeoutMs: 300 }))).rejects.toBeInstanceOf(McpTimeoutError);
    expect(asked).toBe(true);
    expect(unsubscribed).toBe(true);
  });

  it('stops a waiting hook when the caller cancels', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit() }));
    let unsubscribed = false;
    const controller = new AbortController();
    // Abort only once the hook is waiting, so the test does not race the first round.
    const mcp = connect(transport, {
      onElicit: () =>
        new Observable(() => {
          setTimeout(() => controller.abort(), 0);
          return () => (unsubscribed = true);
        }),
    });
    const call = firstValueFrom(mcp.callTool('t', {}, { signal: controller.signal }));
    await expect(call).rejects.toBeInstanceOf(McpCancelledError);
    expect(unsubscribed).toBe(true);
    expect(transport.requests('tools/call')).toHaveLength(1);
  });
});

describe('defaults in an accepted elicitation (SEP-1034)', () => {
  async function sentFor(answer: unknown): Promise<unknown> {
    const transport = modern().on('tools/call', askOnce({ about: formWithDefaults }));
    await firstValueFrom(connect(transport, { onElicit: () => answer }).callTool('t'));
    return (transport.requests('tools/call')[1]?.params?.inputResponses as Record<string, unknown>).about;
  }

  it('keeps every field the answer gives, an emptied one too, and fills in the defaults of the fields it left out', async () => {
    expect(await sentFor({ action: 'accept', content: { name: '', age: 41 } })).toEqual({
      action: 'accept',
      content: { name: '', age: 41, status: 'active', verified: false },
    });
  });

  it('sends the defaults for an accepted answer with no content', async () => {
    expect(await sentFor({ action: 'accept' })).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, status: 'active', verified: false },
    });
  });

  it.each(['decline', 'cancel'])('leaves a %s answer as it is', async (action) => {
    expect(await sentFor({ action })).toEqual({ action });
  });
});

describe('declining', () => {
  const cases: Array<[string, InputHooks['onElicit'], boolean]> = [
    ['is unset', undefined, false],
    ['throws', () => { throw new Error('dialog crashed'); }, true],
    ['rejects', () => Promise.reject(new Error('no UI')), true],
    ['errors its Observable', () => throwError(() => new Error('stream broke')), true],
    ['completes its Observable empty', () => of(), false],
    ['returns a string', () => 'yes', true],
    ['returns null', () => null, true],
    ['returns an object that is not an answer', () => ({ ok: true }), true],
  ];

  it.each(cases)('declines every kind of question when the hook %s', async (_case, hook, warns) => {
    const warnings: string[] = [];
    const transport = modern().on('tools/call', askOnce({ e: elicit(), s: sample, r: roots }));
    const hooks = hook ? { onElicit: hook, onSample: hook, onListRoots: hook } : {};
    // Declare all three even with no hooks, so the server may ask.
    const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
    const mcp = connect(transport, { ...hooks, clientCapabilities: capabilities, onWarn: (w: string) => warnings.push(w) });
    await firstValueFrom(mcp.callTool('t'));
    expect(transport.requests('tools/call')[1]?.params?.inputResponses).toEqual({ e: { action: 'decline' }, r: { roots: [] } });
    expect(warnings.length > 0).toBe(warns);
  });

  it('declines a malformed entry for its key alone, and reports it', async () => {
    const warnings: string[] = [];
    const transport = modern().on(
      'tools/call',
      askOnce({ weird: { method: 'tasks/get', params: {} }, bare: { method: 'elicitation/create' }, junk: 42, good: elicit() }),
    );
    const mcp = connect(transport, { onElicit: () => accept, onWarn: (w: string) => warnings.push(w) });
    await firstValueFrom(mcp.callTool('t'));
    expect(transport.requests('tools/call')[1]?.params?.inputResponses).toEqual({ bare: { action: 'decline' }, good: accept });
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('input request "weird": unknown input method "tasks/get"'),
        expect.stringContaining('input request "bare": elicitation/create came without params'),
        expect.stringContaining('input request "junk"'),
      ]),
    );
  });

  it('keeps the other answers when one hook fails', async () => {
    const transport = modern().on('tools/call', askOnce({ a: elicit(), b: roots }));
    const mcp = connect(transport, { onElicit: () => { throw new Error('boom'); }, onListRoots: () => listed });
    await firstValueFrom(mcp.callTool('t'));
    expect(transport.requests('tools/call')[1]?.params?.inputResponses).toEqual({ a: { action: 'decline' }, b: listed });
  });
});

describe('declared capabilities', () => {
  const noop = () => undefined;
  it.each([
    [{}, {}],
    [{ onElicit: noop }, { elicitation: { form: {} } }],
    [{ onSample: noop }, { sampling: {} }],
    [{ onListRoots: noop }, { roots: { listChanged: true } }],
    [{ onElicit: noop, onSample: noop }, { elicitation: { form: {} }, sampling: {} }],
    [{ onElicit: noop, onListRoots: noop }, { elicitation: { form: {} }, roots: { listChanged: true } }],
    [{ onSample: noop, onListRoots: noop }, { sampling: {}, roots: { listChanged: true } }],
    [{ onElicit: noop, onSample: noop, onListRoots: noop }, { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } }],
  ])('derives %p from the hooks', (hooks, declared) => {
    expect(connect(new FakeTransport(), hooks).declaredCapabilities).toEqual(declared);
  });

  it('lets clientCapabilities override the derivation', () => {
    const override = { elicitation: { form: {}, url: {} } };
    expect(connect(new FakeTransport(), { onSample: noop, clientCapabilities: override }).declaredCapabilities).toEqual(override);
  });

  it('refuses a hook that is not a function', () => {
    expect(() => connect(new FakeTransport(), { onElicit: 'ask' })).toThrow('option onElicit must be a function');
  });

  it('sends them in _meta on every modern request and in initialize on legacy', async () => {
    const transport = modern().on('tools/list', { result: { tools: [] } });
    await firstValueFrom(connect(transport, { onElicit: noop }).listTools());
    for (const request of [...transport.requests('server/discover'), ...transport.requests('tools/list')]) {
      expect((request.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({
        elicitation: { form: {} },
      });
    }
    const legacy = new FakeTransport().on('initialize', {
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    });
    await firstValueFrom(connect(legacy, { onListRoots: noop }).describe());
    expect(legacy.requests('initialize')[0]?.params?.capabilities).toEqual({ roots: { listChanged: true } });
  });
});

describe('questions from a legacy server', () => {
  const legacy = () =>
    new FakeTransport().on('initialize', {
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    });

  async function ask(options: Record<string, unknown>, ...requests: Array<{ id: string; method: string; params?: object }>) {
    const transport = legacy();
    const mcp = connect(transport, options);
    await firstValueFrom(mcp.describe());
    for (const request of requests) transport.push({ jsonrpc: '2.0', ...request } as never);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answers = transport.sent.filter((m) => 'id' in m && String(m.id).startsWith('q'));
    return { transport, answers: answers.sort((a, b) => String((a as { id: string }).id).localeCompare(String((b as { id: string }).id))) };
  }

  it('answers elicitation, sampling and roots through the hooks', async () => {
    const { answers } = await ask(
      { onElicit: () => accept, onSample: async () => sampled, onListRoots: () => of(listed) },
      { id: 'q1', ...elicit() },
      { id: 'q2', ...sample },
      { id: 'q3', method: 'roots/list' },
    );
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'q1', result: accept },
      { jsonrpc: '2.0', id: 'q2', result: sampled },
      { jsonrpc: '2.0', id: 'q3', result: listed },
    ]);
  });

  it('fills in the schema defaults of the fields an accepted answer left out, as for a modern server', async () => {
    const { answers } = await ask({ onElicit: () => ({ action: 'accept' }) }, { id: 'q1', ...formWithDefaults });
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'q1', result: { action: 'accept', content: { name: 'John Doe', age: 30, status: 'active', verified: false } } },
    ]);
    const { answers: given } = await ask({ onElicit: () => ({ action: 'accept', content: { age: 41 } }) }, { id: 'q2', ...formWithDefaults });
    expect(given).toEqual([{ jsonrpc: '2.0', id: 'q2', result: { action: 'accept', content: { name: 'John Doe', age: 41, status: 'active', verified: false } } }]);
  });

  it('declines with the decline shapes, and a sampling decline with error -1', async () => {
    const nope = () => { throw new Error('no'); };
    const { answers } = await ask(
      { onElicit: nope, onSample: nope, onListRoots: nope },
      { id: 'q1', ...elicit() },
      { id: 'q2', ...sample },
      { id: 'q3', method: 'roots/list' },
    );
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'q1', result: { action: 'decline' } },
      { jsonrpc: '2.0', id: 'q2', error: { code: -1, message: 'User rejected sampling request' } },
      { jsonrpc: '2.0', id: 'q3', result: { roots: [] } },
    ]);
  });

  it('answers a question for an undeclared capability, or an unknown method, with an error', async () => {
    const { answers } = await ask({}, { id: 'q1', ...elicit() }, { id: 'q2', method: 'tasks/list' });
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'q1', error: { code: -32601, message: 'The client did not declare the elicitation capability' } },
      { jsonrpc: '2.0', id: 'q2', error: { code: -32601, message: 'Method not found: tasks/list' } },
    ]);
  });

  it('stops the hook and sends no answer when the server cancels its question', async () => {
    let unsubscribed = false;
    const transport = legacy();
    const mcp = connect(transport, { onElicit: () => new Observable(() => () => (unsubscribed = true)) });
    await firstValueFrom(mcp.describe());
    transport.push({ jsonrpc: '2.0', id: 'q1', ...elicit() });
    transport.push({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'q1' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unsubscribed).toBe(true);
    expect(transport.sent.filter((m) => 'id' in m && m.id === 'q1')).toEqual([]);
  });
});
