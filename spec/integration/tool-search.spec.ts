import { z } from 'zod';
import { type LlmTool, type LlmToolCall, McpClient, Registry, Toolkit, ToolSearch, type ToolMessage, type ToolProvider } from '../../src/index.js';
import { everythingServer } from '../support/servers.js';

// A 1,000-tool catalogue: 99 toolkits of ten tools each, named as real
// services name theirs, and server-everything over stdio, behind ToolSearch.
const SERVICES = ['crm', 'billing', 'calendar', 'chat', 'wiki', 'storage', 'deploy', 'metrics', 'tickets', 'hr', 'lang'];
const OBJECTS = ['contact', 'invoice', 'event', 'message', 'page', 'bucket', 'release', 'dashboard', 'report'];
const ACTIONS = ['create', 'update', 'delete', 'list', 'get', 'archive', 'export', 'import', 'share', 'search'];

function fleet(ran: string[]): Registry {
  const registry = new Registry();
  let made = 0;
  for (const service of SERVICES) {
    for (const object of OBJECTS) {
      if (made === 99) break;
      const kit = new Toolkit({ name: `${service}-${object}` });
      for (const action of ACTIONS) {
        const name = `${action}_${object}`;
        kit.tool(
          name,
          { description: `${action[0]?.toUpperCase()}${action.slice(1)} a ${object} in ${service}.`, input: z.object({ id: z.string().optional().describe(`The ${object} id`) }) },
          () => {
            ran.push(`${service}${made}_${name}`);
            return { content: [{ type: 'text', text: `${name} done` }] };
          },
        );
      }
      registry.add(kit, { prefix: `${service}${made++}` });
    }
  }
  registry.add(
    new Toolkit({ name: 'lang' }).tool(
      'translate_document',
      { description: 'Translate a document into another language, such as French or German.', input: z.object({ text: z.string(), language: z.string() }) },
      ({ text, language }) => {
        ran.push('lang_translate_document');
        return { content: [{ type: 'text', text: `${text} (in ${language})` }] };
      },
    ),
    { prefix: 'lang' },
  );
  return registry;
}

/**
 * Plays the model: given the declarations and the answers so far, makes the
 * next calls. It knows only what it was shown: first it searches for its
 * task; then it calls the best tool the search named, once that tool is
 * declared to it, with the arguments it was told to use.
 */
function scriptedModel(task: string, args: Record<string, unknown>) {
  return (declared: readonly LlmTool[], answers: readonly ToolMessage[]): LlmToolCall[] => {
    const names = declared.map((tool) => tool.function.name);
    const last = answers[answers.length - 1];
    if (!last) return names.includes('tool_search') ? [{ id: 'search', function: { name: 'tool_search', arguments: JSON.stringify({ query: task }) } }] : [];
    if (last.tool_call_id !== 'search') return [];
    const best = /^- ([^(]+)\(/m.exec(last.content)?.[1];
    return best && names.includes(best) ? [{ id: 'call', function: { name: best, arguments: args } }] : [];
  };
}

/** Runs turns until the model makes no more calls; every batch through executeToolCalls. */
async function converse(provider: ToolProvider, model: ReturnType<typeof scriptedModel>): Promise<{ answers: ToolMessage[]; declaredPerTurn: number[] }> {
  const answers: ToolMessage[] = [];
  const declaredPerTurn: number[] = [];
  for (let turn = 0; turn < 4; turn++) {
    const declared = await provider.toolsForLlm();
    declaredPerTurn.push(declared.length);
    const calls = model(declared, answers);
    if (calls.length === 0) break;
    answers.push(...(await provider.executeToolCalls(calls)));
  }
  return { answers, declaredPerTurn };
}

describe('ToolSearch over a 1,000-tool Registry of toolkits and a real server', () => {
  const ran: string[] = [];
  let everything: McpClient;
  let registry: Registry;

  beforeAll(() => {
    everything = McpClient.connectStdio(everythingServer);
    registry = fleet(ran).add(everything, { prefix: 'everything' });
  });

  afterAll(async () => {
    await registry.close();
  });

  it('has a thousand tools, of which the model is shown one', async () => {
    expect((await registry.toolsForLlm()).length).toBeGreaterThanOrEqual(1000);
    expect((await new ToolSearch({ provider: registry }).toolsForLlm()).map((tool) => tool.function.name)).toEqual(['tool_search']);
  });

  it('lets a scripted model search, then call the real server\'s tool it found', async () => {
    const { answers, declaredPerTurn } = await converse(new ToolSearch({ provider: registry }), scriptedModel('add two numbers, return the sum', { a: 2, b: 3 }));
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(['search', 'call']);
    expect(answers[0]?.content).toMatch(/^- everything_get-sum\(a: number, b: number\): Returns the sum of two numbers$/m);
    expect(answers[1]).toMatchObject({ is_error: false, content: expect.stringContaining('5') });
    expect(declaredPerTurn[0]).toBe(1);
    expect(declaredPerTurn[1]).toBeGreaterThan(1);
  });

  it('lets a scripted model search, then call a toolkit\'s tool it found, which runs', async () => {
    const { answers } = await converse(new ToolSearch({ provider: registry }), scriptedModel('translate this document into French', { text: 'bonjour', language: 'French' }));
    expect(answers[1]).toMatchObject({ tool_call_id: 'call', is_error: false, content: 'bonjour (in French)' });
    expect(ran).toContain('lang_translate_document');
  });
});
