import { z } from 'zod';
import { type LlmToolCall, Toolkit, ToolSearch } from '../../src/index.js';
import { HostSearches, MAX_HOST_SEARCHES } from '../../src/gateway/host-searches.js';

// The gateway's per-host conversations behind a ToolSearch, as machinery:
// what is kept for hosts that come and go, and when a host is told its list
// changed. (spec/cli/serve-tool-search.spec.ts drives the same through
// `rxmcp serve --tool-search` with real servers and hosts.)

const call = (id: string, name: string, args: unknown = {}): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });

function kit(): Toolkit {
  const tools = new Toolkit({ name: 'kit' });
  for (const [name, description] of [
    ['send_email', 'Send an email message.'],
    ['get_weather', 'Current weather for a city.'],
    ['take_screenshot', 'Take a screenshot of the page.'],
  ]) {
    tools.tool(name as string, { description: description as string, input: z.object({}) }, () => ({ content: [{ type: 'text', text: `${name} ran` }] }));
  }
  return tools;
}

describe('HostSearches', () => {
  it('tells a host when a tool joins or leaves its list, and not when a call only moves one to the front', async () => {
    const told: string[] = [];
    const searches = new HostSearches(new ToolSearch({ provider: kit(), maxLoaded: 1 }), (principal) => told.push(principal));
    const mine = searches.of('host-a');
    await mine.executeToolCalls([call('1', 'tool_search', { query: 'weather', limit: 1 })]);
    expect(told).toEqual(['host-a']);
    await mine.executeToolCalls([call('2', 'get_weather')]);
    expect(told).toEqual(['host-a']);
    // One tool at most: email in, weather out.
    await mine.executeToolCalls([call('3', 'send_email')]);
    expect(told).toEqual(['host-a', 'host-a']);
    expect((await searches.of('host-b').toolsForLlm()).map((tool) => tool.function.name)).toEqual(['tool_search']);
  });

  it('forgets a host that went away, with what it loaded, and tells it nothing more', async () => {
    const told: string[] = [];
    const searches = new HostSearches(new ToolSearch({ provider: kit() }), (principal) => told.push(principal));
    const gone = searches.of('host-a');
    await gone.executeToolCalls([call('1', 'tool_search', { query: 'email', limit: 1 })]);
    searches.forget('host-a');
    await gone.executeToolCalls([call('2', 'take_screenshot')]);
    expect(told).toEqual(['host-a']);
    expect(searches.size).toBe(0);
    expect((await searches.of('host-a').toolsForLlm()).map((tool) => tool.function.name)).toEqual(['tool_search']);
  });

  it(`keeps at most ${MAX_HOST_SEARCHES} hosts when 10,000 come and never go, the least recently heard from forgotten first`, async () => {
    const searches = new HostSearches(new ToolSearch({ provider: kit() }), () => undefined);
    await searches.of('regular').executeToolCalls([call('1', 'tool_search', { query: 'weather', limit: 1 })]);
    for (let n = 0; n < 10_000; n++) {
      searches.of(`passer-by-${n}`);
      if (n % 500 === 0) searches.of('regular');
    }
    expect(searches.size).toBe(MAX_HOST_SEARCHES);
    expect((await searches.of('regular').toolsForLlm()).map((tool) => tool.function.name)).toEqual(['tool_search', 'get_weather']);
    expect((await searches.of('passer-by-0').toolsForLlm()).map((tool) => tool.function.name)).toEqual(['tool_search']);
  });
});
