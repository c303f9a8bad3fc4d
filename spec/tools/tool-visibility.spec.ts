import { McpClientError, Policy, type Tool, toolVisibility, Toolkit } from '../../src/index.js';
import { callerOf, hasUnreadableVisibility, visibleTools } from '../../src/tools/tool-visibility.js';
import { runToolCalls } from '../../src/tools/bridge.js';
import { NameMapper } from '../../src/tools/tool-names.js';
import { z } from 'zod';

const tool = (meta?: unknown): Tool => (meta === undefined ? { name: 't', inputSchema: { type: 'object' } } : { name: 't', inputSchema: { type: 'object' }, _meta: meta });
const BOTH = { model: true, app: true };
const NEITHER = { model: false, app: false };

describe('toolVisibility', () => {
  it.each([
    ['no _meta', undefined, BOTH],
    ['a _meta without ui', { other: 1 }, BOTH],
    ['a ui without visibility', { ui: { resourceUri: 'ui://x' } }, BOTH],
    ['["model", "app"]', { ui: { visibility: ['model', 'app'] } }, BOTH],
    ['["app"]', { ui: { visibility: ['app'] } }, { model: false, app: true }],
    ['["model"]', { ui: { visibility: ['model'] } }, { model: true, app: false }],
    ['an empty list', { ui: { visibility: [] } }, NEITHER],
    ['a value nobody knows beside "model"', { ui: { visibility: ['model', 'everyone'] } }, { model: true, app: false }],
    // null is what a serializer writes for a field never set: it declares nothing.
    ['a visibility that is null', { ui: { visibility: null } }, BOTH],
    ['a ui that is null', { ui: null }, BOTH],
    ['a _meta that is null', null, BOTH],
  ])('reads %s', (_what, meta, expected) => {
    expect(toolVisibility(tool(meta))).toEqual(expected);
    expect(hasUnreadableVisibility(tool(meta))).toBe(false);
  });

  it.each([
    ['a string', { ui: { visibility: 'model' } }],
    ['a number', { ui: { visibility: 1 } }],
    ['an object shaped like a list', { ui: { visibility: { 0: 'model', length: 1 } } }],
    ['a list holding a number', { ui: { visibility: ['model', 7] } }],
    ['a list holding a list', { ui: { visibility: [['model']] } }],
    ['a list of 17 entries', { ui: { visibility: Array(17).fill('model') } }],
    ['a list of a million entries', { ui: { visibility: Array(1_000_000).fill('model') } }],
    ['a ui that is a list', { ui: ['model'] }],
    ['a _meta that is a string', 'ui'],
  ])('reads a visibility that is %s as for nobody, and says it could not be read', (_what, meta) => {
    expect(toolVisibility(tool(meta))).toEqual(NEITHER);
    expect(hasUnreadableVisibility(tool(meta))).toBe(true);
  });

  it('reads only own members: nothing on a prototype is a visibility', () => {
    expect(toolVisibility(tool({ ui: Object.create({ visibility: ['app'] }) }))).toEqual(BOTH);
    expect(toolVisibility(tool(Object.create({ ui: { visibility: [] } })))).toEqual(BOTH);
    expect(toolVisibility(tool(JSON.parse('{"ui":{"__proto__":{"visibility":["app"]}}}')))).toEqual(BOTH);
    expect(toolVisibility(tool({ ui: { visibility: ['app', '__proto__', 'constructor'] } }))).toEqual({ model: false, app: true });
    const polluted = Object.prototype as Record<string, unknown>;
    polluted._meta = { ui: { visibility: [] } };
    try {
      expect(toolVisibility(tool())).toEqual(BOTH);
    } finally {
      delete polluted._meta;
    }
  });

  it('reads a visibility once per tool object, however often it is asked', () => {
    let reads = 0;
    const ui = {
      get visibility() {
        reads += 1;
        return ['app'];
      },
    };
    const hidden = tool({ ui });
    for (let i = 0; i < 5; i++) expect(toolVisibility(hidden).model).toBe(false);
    expect(reads).toBe(1);
  });
});

describe('visibleTools', () => {
  it('gives back the same list when nothing is hidden from the caller, and the others in order otherwise', () => {
    const tools = [tool(), tool({ ui: { visibility: ['model'] } })];
    expect(visibleTools(tools, 'model')).toBe(tools);
    const forApps = visibleTools(tools, 'app');
    expect(forApps).toEqual([tools[0]]);
  });
});

describe('the caller option', () => {
  it('is the model unless it says app, and nothing else', () => {
    expect(callerOf({})).toBe('model');
    expect(callerOf({ caller: 'app' })).toBe('app');
    expect(() => callerOf({ caller: 'admin' })).toThrow(new McpClientError(`option caller must be 'model' or 'app', not "admin"`));
  });

  it('refuses a whole batch with a caller nobody knows, in the bridge and in a Policy, running nothing', async () => {
    const ran: string[] = [];
    const toolkit = new Toolkit({ name: 'local' }).tool('note', { input: z.object({}) }, () => {
      ran.push('note');
      return { content: [{ type: 'text', text: 'noted' }] };
    });
    const call = { id: 'c1', function: { name: 'note', arguments: {} } };
    expect(await toolkit.executeToolCalls([call], { caller: 'server' as never })).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: `option caller must be 'model' or 'app', not "server"`, is_error: true },
    ]);
    const asked: unknown[] = [];
    const policy = new Policy({ provider: toolkit, onAsk: (question) => asked.push(question) });
    expect((await policy.executeToolCalls([call], { caller: 'server' as never }))[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^option caller/) });
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    // A toolkit's tools carry no visibility: both callers may run them.
    expect((await toolkit.executeToolCalls([call], { caller: 'app' }))[0]).toMatchObject({ is_error: false, content: 'noted' });
  });

  it('refuses an app every call when the catalogue cannot be listed, and lets the model\'s run unchecked as before', async () => {
    const ran: string[] = [];
    const source = {
      catalogue: () => Promise.reject(new Error('tools/list failed')),
      call: async (name: string) => {
        ran.push(name);
        return { content: [{ type: 'text' as const, text: `${name} ran` }] };
      },
      concurrency: 1,
      names: new NameMapper(),
    };
    const calls = [{ id: 'c1', function: { name: 'refresh', arguments: {} } }];
    expect(await runToolCalls(source, calls, { caller: 'app' })).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'The tools could not be listed, so no call from an app can be checked against their visibility', is_error: true },
    ]);
    expect(ran).toEqual([]);
    expect((await runToolCalls(source, calls))[0]).toMatchObject({ is_error: false, content: 'refresh ran' });
  });
});

