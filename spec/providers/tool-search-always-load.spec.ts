import { Leases, LeaseTable, type LlmToolCall, Policy, Reasons, Registry, ToolSearch, toolsForAnthropic, type ToolProvider } from '../../src/index.js';
import { everythingServer, modernServer } from '../support/servers.js';

// A config's `alwaysLoad` reaches a ToolSearch over Registry.fromConfig,
// through the layers between them, with the SDK fixture and
// server-everything as the config's servers.

jest.setTimeout(30_000);

const call = (id: string, name: string, args: unknown = {}): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });
const shownNames = async (provider: ToolProvider) => (await provider.toolsForLlm()).map((tool) => tool.function.name);

describe('ToolSearch over Registry.fromConfig with alwaysLoad', () => {
  const config = {
    mcpServers: {
      fx: { ...modernServer, alwaysLoad: true, disabledTools: ['environment'] },
      everything: everythingServer,
    },
  };
  let registry: Registry;
  let fxTools: string[];
  beforeAll(async () => {
    registry = Registry.fromConfig(config);
    fxTools = (await registry.toolsForLlm()).map((tool) => tool.function.name).filter((name) => name.startsWith('fx_'));
  });
  afterAll(() => registry.close());

  it('shows the alwaysLoad server’s tools (less those the file switches off) and tool_search, nothing of the other server', async () => {
    const search = new ToolSearch({ provider: registry });
    const names = await shownNames(search);
    expect(fxTools).toEqual(expect.arrayContaining(['fx_echo', 'fx_add']));
    expect(names).toEqual([...fxTools, 'tool_search']);
    expect(names).not.toContain('fx_environment');
  });

  it('hears alwaysLoad through Policy, Reasons and Leases, beside the user’s own alwaysInclude', async () => {
    const stack = new Policy({ provider: new Reasons({ provider: new Leases({ inner: registry, table: new LeaseTable(), agentId: 'spec' }) }), rules: [{ tool: '*', decision: 'allow' }] });
    const search = new ToolSearch({ provider: stack, alwaysInclude: ['everything_echo'] });
    const names = await shownNames(search);
    expect(names).toEqual(expect.arrayContaining([...fxTools, 'everything_echo', 'tool_search']));
    expect(names.filter((name) => !name.startsWith('fx_'))).toEqual(['everything_echo', 'tool_search']);
  });

  it('declares the alwaysLoad server’s tools loaded and the rest deferred to a vendor’s own search', async () => {
    const declared = (await toolsForAnthropic(new ToolSearch({ provider: registry }), { deferLoading: true })) as Array<{ name: string; defer_loading?: boolean }>;
    const loaded = declared.filter((tool) => tool.name.startsWith('fx_'));
    const deferred = declared.filter((tool) => tool.name.startsWith('everything_'));
    expect(loaded.map((tool) => tool.name)).toEqual(fxTools);
    expect(loaded.every((tool) => tool.defer_loading !== true)).toBe(true);
    expect(deferred.length).toBeGreaterThan(5);
    expect(deferred.every((tool) => tool.defer_loading === true)).toBe(true);
  });

  it('forks a conversation that shares the catalogue but not what the first one loaded', async () => {
    const first = new ToolSearch({ provider: registry });
    const second = first.fork();
    const [found] = await first.executeToolCalls([call('1', 'tool_search', { query: 'sum of two numbers', limit: 1 })]);
    expect(found?.content).toContain('everything_get-sum');
    expect(await shownNames(first)).toContain('everything_get-sum');
    expect(await shownNames(second)).toEqual([...fxTools, 'tool_search']);
    // Each runs calls on the one registry: the fork runs a tool it never showed, and loads it for itself alone.
    const [sum] = await second.executeToolCalls([call('2', 'everything_get-sum', { a: 20, b: 22 })]);
    expect(sum?.content).toContain('42');
    expect(await shownNames(second)).toEqual([...fxTools, 'tool_search', 'everything_get-sum']);
    first.reset();
    expect(await shownNames(first)).toEqual([...fxTools, 'tool_search']);
    expect(await shownNames(second)).toContain('everything_get-sum');
  });
});
