import { z } from 'zod';
import {
  type LlmToolCall,
  Registry,
  Toolkit,
  ToolSearch,
  toolsForAnthropic,
  toolsForOpenAIChat,
  toolsForOpenAIResponses,
  type ToolMessage,
  type ToolProvider,
} from '../../src/index.js';

const call = (id: string, name: string, args: unknown = {}): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });
const shownNames = async (provider: ToolProvider) => (await provider.toolsForLlm()).map((tool) => tool.function.name);

/** A toolkit whose every tool answers with its own name, and records that it ran. */
function office(ran: string[] = []): Toolkit {
  const kit = new Toolkit({ name: 'office' });
  const tools: Array<[string, string]> = [
    ['read_file', 'Read the complete contents of a file.'],
    ['write_file', 'Create or overwrite a file with new content.'],
    ['send_email', 'Send an email message to a recipient.'],
    ['create_issue', 'Open a new issue in a GitHub repository.'],
    ['take_screenshot', 'Take a screenshot of the current browser page.'],
    ['get_weather', 'Current weather for a city.'],
    ['add_numbers', 'Adds two numbers.'],
  ];
  for (const [name, description] of tools) {
    kit.tool(name, { description, input: z.object({ note: z.string().optional() }) }, () => {
      ran.push(name);
      return { content: [{ type: 'text', text: `${name} ran` }] };
    });
  }
  return kit;
}

describe('ToolSearch', () => {
  it('shows the always-included tools and tool_search, and nothing else, at first', async () => {
    const search = new ToolSearch({ provider: office(), alwaysInclude: ['read_file'] });
    expect(await shownNames(search)).toEqual(['read_file', 'tool_search']);
    const declaration = (await search.toolsForLlm())[1]?.function;
    expect(declaration?.parameters).toMatchObject({ required: ['query'], properties: { query: { type: 'string' }, limit: { type: 'integer' } } });
  });

  it('keeps tools always loaded by a test of their name, as a prefix does', async () => {
    const registry = new Registry().add(office(), { prefix: 'work' }).add(new Toolkit({ name: 'x' }).tool('ping', { input: z.object({}) }, () => ({ content: [] })), { prefix: 'net' });
    const search = new ToolSearch({ provider: registry, alwaysIncludeIf: (name) => name.startsWith('net_') });
    expect(await shownNames(search)).toEqual(['net_ping', 'tool_search']);
  });

  it('answers a search with the tools it found, and shows them from the next listing on', async () => {
    const search = new ToolSearch({ provider: office() });
    const [answer] = await search.executeToolCalls([call('1', 'tool_search', { query: 'send an email', limit: 2 })]);
    expect(answer?.is_error).toBe(false);
    expect(answer?.content.split('\n')[1]).toBe('- send_email(note?: string): Send an email message to a recipient.');
    expect(await shownNames(search)).toEqual(['tool_search', ...answer!.content.split('\n').slice(1).map((line) => line.slice(2, line.indexOf('('))).reverse()]);
    expect(await shownNames(search)).toContain('send_email');
  });

  it('runs a found tool called in the next turn', async () => {
    const ran: string[] = [];
    const search = new ToolSearch({ provider: office(ran) });
    await search.executeToolCalls([call('1', 'tool_search', { query: 'weather' })]);
    const [answer] = await search.executeToolCalls([call('2', 'get_weather', { note: 'Paris' })]);
    expect(answer).toEqual({ role: 'tool', tool_call_id: '2', content: 'get_weather ran', is_error: false });
    expect(ran).toEqual(['get_weather']);
  });

  it('runs a tool it has not shown yet, and shows it from then on', async () => {
    const ran: string[] = [];
    const search = new ToolSearch({ provider: office(ran) });
    const [answer] = await search.executeToolCalls([call('1', 'add_numbers')]);
    expect(answer?.content).toBe('add_numbers ran');
    expect(await shownNames(search)).toEqual(['tool_search', 'add_numbers']);
  });

  it('answers a batch that mixes a search with other calls in the model\'s order', async () => {
    const ran: string[] = [];
    const search = new ToolSearch({ provider: office(ran) });
    const answers = await search.executeToolCalls([call('a', 'read_file'), call('b', 'tool_search', { query: 'screenshot' }), call('c', 'nope'), call('d', 'write_file')]);
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(answers[0]?.content).toBe('read_file ran');
    expect(answers[1]?.content).toContain('take_screenshot(');
    expect(answers[2]).toMatchObject({ is_error: true, content: 'Unknown tool: nope' });
    expect(answers[3]?.content).toBe('write_file ran');
    expect(ran).toEqual(['read_file', 'write_file']);
  });

  it('keeps at most maxLoaded found tools, the least recently found or called dropped first', async () => {
    const search = new ToolSearch({ provider: office(), maxLoaded: 2 });
    await search.executeToolCalls([call('1', 'tool_search', { query: 'email', limit: 1 })]);
    await search.executeToolCalls([call('2', 'tool_search', { query: 'weather', limit: 1 })]);
    await search.executeToolCalls([call('3', 'send_email')]);
    await search.executeToolCalls([call('4', 'tool_search', { query: 'screenshot', limit: 1 })]);
    expect(await shownNames(search)).toEqual(['tool_search', 'send_email', 'take_screenshot']);
    search.reset();
    expect(await shownNames(search)).toEqual(['tool_search']);
  });

  it('tells the model how to search again when nothing matched, and what a search needs', async () => {
    const search = new ToolSearch({ provider: office() });
    const [none, empty, broken] = await search.executeToolCalls([
      call('1', 'tool_search', { query: 'zebra xylophone' }),
      call('2', 'tool_search', { limit: 3 }),
      { id: '3', function: { name: 'tool_search', arguments: '{not json' } },
    ]);
    expect(none).toMatchObject({ is_error: false, content: expect.stringMatching(/^No tool matched "zebra xylophone"\. Try other words/) });
    expect(empty).toMatchObject({ is_error: true, content: expect.stringContaining('tool_search needs a query') });
    expect(broken).toMatchObject({ is_error: true, content: 'Invalid arguments for tool_search: not valid JSON' });
    expect(await shownNames(search)).toEqual(['tool_search']);
  });

  it('refuses a provider that has a tool_search of its own, clearly, unless the search tool is renamed', async () => {
    const own = new Toolkit({ name: 'own' }).tool('tool_search', { input: z.object({}) }, () => ({ content: [{ type: 'text', text: 'theirs' }] }));
    const clash = new ToolSearch({ provider: own });
    await expect(clash.toolsForLlm()).rejects.toThrow('the provider already offers a tool named "tool_search"');
    const [answer] = await clash.executeToolCalls([call('1', 'tool_search', { query: 'x' })]);
    expect(answer).toMatchObject({ is_error: true, content: expect.stringContaining('give ToolSearch another searchToolName') });
    const renamed = new ToolSearch({ provider: own, searchToolName: 'find_tools' });
    expect(await shownNames(renamed)).toEqual(['find_tools']);
    const [theirs] = await renamed.executeToolCalls([call('1', 'tool_search')]);
    expect(theirs?.content).toBe('theirs');
  });

  it('searches under the names toolsForLlm shows, a name too long for a model mapped as it would be', async () => {
    const long = `fetch_${'x'.repeat(80)}`;
    const kit = new Toolkit({ name: 'long' }).tool(long, { description: 'Fetches the quarterly report', input: z.object({}) }, () => ({ content: [{ type: 'text', text: 'report' }] }));
    const search = new ToolSearch({ provider: kit });
    const [hit] = await search.search('quarterly report');
    expect(hit?.name).not.toBe(long);
    expect(hit?.name.length).toBeLessThanOrEqual(64);
    expect(hit).toMatchObject({ description: 'Fetches the quarterly report', score: expect.any(Number) });
    const [answer] = await search.executeToolCalls([call('1', hit!.name)]);
    expect(answer?.content).toBe('report');
    expect(await shownNames(search)).toEqual(['tool_search', hit!.name]);
  });

  it('follows a catalogue that changes: a tool added later is found', async () => {
    const kit = office();
    const search = new ToolSearch({ provider: kit });
    expect(await search.search('translate text')).toEqual([]);
    kit.tool('translate_text', { description: 'Translate text into another language.', input: z.object({}) }, () => ({ content: [] }));
    expect((await search.search('translate text'))[0]?.name).toBe('translate_text');
  });

  it('fuses a ranker of your own with the lexical one, and falls back when it fails', async () => {
    const warnings: string[] = [];
    // A "semantic" ranker that knows a forecast is about the weather, which no word says.
    const rank = async (query: string, tools: readonly { name: string }[]) => tools.map((tool) => (query.includes('forecast') && tool.name === 'get_weather' ? 1 : 0));
    const search = new ToolSearch({ provider: office(), rank, onWarn: (message) => warnings.push(message) });
    expect((await search.search('forecast for tomorrow', { limit: 1 }))[0]?.name).toBe('get_weather');
    const failing = new ToolSearch({ provider: office(), rank: () => [1], onWarn: (message) => warnings.push(message) });
    expect((await failing.search('send email'))[0]?.name).toBe('send_email');
    expect(warnings).toEqual([expect.stringContaining('the rank option failed, so the lexical ranking stands: it answered 1 scores for 7 tools')]);
  });

  it('warns once about an alwaysInclude name the catalogue lacks', async () => {
    const warnings: string[] = [];
    const search = new ToolSearch({ provider: office(), alwaysInclude: ['read_file', 'raed_file'], onWarn: (message) => warnings.push(message) });
    expect(await shownNames(search)).toEqual(['read_file', 'tool_search']);
    await search.toolsForLlm();
    expect(warnings).toEqual(['alwaysInclude names "raed_file", which the provider does not offer']);
  });

  it('says the search tool only reads, and passes other annotations on', async () => {
    const search = new ToolSearch({ provider: office() });
    expect(await search.toolAnnotations('tool_search')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(await search.toolAnnotations('read_file')).toBeUndefined();
  });

  it('refuses options of the wrong kind', () => {
    expect(() => new ToolSearch({ provider: {} as ToolProvider })).toThrow('option provider must be a tool provider');
    expect(() => new ToolSearch({ provider: office(), maxLoaded: 0 })).toThrow('option maxLoaded');
    expect(() => new ToolSearch({ provider: office(), searchToolName: 'tool search' })).toThrow('option searchToolName');
  });

  it('reports the loaded tools as they change', async () => {
    const search = new ToolSearch({ provider: office() });
    const seen: Array<readonly string[]> = [];
    const subscription = search.loaded$.subscribe((names) => seen.push(names));
    await search.executeToolCalls([call('1', 'tool_search', { query: 'email', limit: 1 })]);
    subscription.unsubscribe();
    expect(seen).toEqual([[], ['send_email']]);
  });
});

describe('vendor-native tool search', () => {
  it('declares every tool deferred but the always-included, behind Anthropic\'s BM25 search tool', async () => {
    const search = new ToolSearch({ provider: office(), alwaysInclude: ['read_file'] });
    const tools = await toolsForAnthropic(search, { deferLoading: true });
    expect(tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(tools).toHaveLength(8);
    expect(tools.filter((tool) => 'input_schema' in tool && tool.defer_loading !== true).map((tool) => tool.name)).toEqual(['read_file']);
    expect(tools.some((tool) => tool.name === 'tool_search')).toBe(false);
    expect((await toolsForAnthropic(search, { deferLoading: 'regex' }))[0]).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it('declares OpenAI Responses function tools deferred behind its hosted tool_search', async () => {
    const tools = await toolsForOpenAIResponses(new ToolSearch({ provider: office(), alwaysInclude: ['send_email'] }), { deferLoading: true, strict: true });
    expect(tools[0]).toEqual({ type: 'tool_search' });
    const functions = tools.slice(1) as Array<{ name: string; defer_loading?: true; strict: boolean }>;
    expect(functions.filter((tool) => !tool.defer_loading).map((tool) => tool.name)).toEqual(['send_email']);
    expect(functions.every((tool) => tool.strict)).toBe(true);
  });

  it('defers every tool of a provider that is not a ToolSearch', async () => {
    const tools = await toolsForAnthropic(office(), { deferLoading: true });
    expect(tools.slice(1).every((tool) => 'defer_loading' in tool && tool.defer_loading === true)).toBe(true);
  });

  it('runs the calls a vendor\'s search made possible, as any other', async () => {
    const ran: string[] = [];
    const answers: ToolMessage[] = await new ToolSearch({ provider: office(ran) }).executeToolCalls([call('toolu_1', 'create_issue')]);
    expect(answers[0]?.content).toBe('create_issue ran');
  });

  it('leaves the declarations as they were without the option', async () => {
    const search = new ToolSearch({ provider: office() });
    expect(await toolsForAnthropic(search)).toEqual([expect.objectContaining({ name: 'tool_search' })]);
    expect((await toolsForOpenAIChat(search)).map((tool) => tool.function.name)).toEqual(['tool_search']);
  });
});
