import fc from 'fast-check';
import { McpClientError, portableToolNames, PORTABLE_TOOL_NAMES, toolNames, Toolkit, type ToolNameRule } from 'rxmcp';
import { z } from 'zod';

const PORTABLE = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

// Names as servers write them: mostly ASCII with dots, slashes and spaces, some
// long, some with control characters or characters outside ASCII.
const serverName = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcxyzABZ019_-. /:'.split('')), minLength: 0, maxLength: 140 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
);
const fittingName = fc.stringMatching(PORTABLE);

const shownFor = (names: string[], rule?: ToolNameRule): string[] => [...portableToolNames(names, rule).keys()];

describe('portableToolNames: the names a model is shown', () => {
  it('leaves a list whose names all fit exactly as it is', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fittingName, { maxLength: 30 }), (names) => {
        expect(shownFor(names)).toEqual(names);
      }),
    );
  });

  it('shows only names every major model API accepts, one for each real name, each read back to its own', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(serverName, fittingName), { maxLength: 30 }), (names) => {
        const map = portableToolNames(names);
        expect(map.size).toBe(names.length);
        for (const shown of map.keys()) expect(shown).toMatch(PORTABLE);
        expect(new Set(map.values())).toEqual(new Set(names));
        // A name that fits keeps it.
        for (const name of names) if (PORTABLE.test(name)) expect(map.get(name)).toBe(name);
      }),
    );
  });

  it('gives a name the same shown name whatever else is listed, in every process', () => {
    fc.assert(
      fc.property(serverName, fc.uniqueArray(fittingName, { maxLength: 10 }), (name, others) => {
        fc.pre(!others.includes(name));
        const alone = shownFor([name])[0];
        const among = [...portableToolNames([...others, name])].find(([, real]) => real === name)?.[0];
        expect(among).toBe(alone);
      }),
    );
    // Fixed values: a saved transcript made by another process, or another version, replays.
    expect(portableToolNames(['get weather', 'github.create_issue', '9lives', ''])).toEqual(
      new Map([
        ['get_weather_ufgpcjui', 'get weather'],
        ['github_create_issue_u0et6nmv', 'github.create_issue'],
        ['_9lives_eafjd32n', '9lives'],
        ['tool_peljsv0b', ''],
      ]),
    );
  });

  it('keeps apart two long names sharing their first 60 characters, and names that read the same once cut', () => {
    const head = 'x'.repeat(60);
    const shown = shownFor([`${head}.first`, `${head}.second`, 'get weather', 'get.weather', 'get/weather']);
    expect(new Set(shown).size).toBe(5);
    expect(shown[0]).toMatch(/^x{55}_[0-9a-v]{8}$/);
    expect(shown.slice(2).every((name) => /^get_weather_[0-9a-v]{8}$/.test(name))).toBe(true);
  });

  it('never shows a mapped name that is the real name of another tool', () => {
    const [clash] = shownFor(['get weather']);
    // A server that names a tool after the mapped name of another: the real name wins, the other is salted.
    const map = portableToolNames([clash as string, 'get weather']);
    expect(map.get(clash as string)).toBe(clash);
    const other = [...map].find(([, real]) => real === 'get weather')?.[0];
    expect(other).toMatch(/^get_weather_[0-9a-v]{8}$/);
    expect(other).not.toBe(clash);
  });

  it('maps hostile names safely: huge, control characters, prototype keys', () => {
    const huge = `a.${'b'.repeat(200_000)}`;
    const map = portableToolNames([huge, 'bell\u0007\u001b[31m', '__proto__', 'constructor', 'toString.x', '\u{1F600}']);
    expect(map.get(`a_${'b'.repeat(53)}_${/_([0-9a-v]{8})$/.exec([...map.keys()][0] as string)?.[1]}`)).toBe(huge);
    for (const shown of map.keys()) expect(shown).toMatch(PORTABLE);
    expect(map.get('__proto__')).toBe('__proto__');
    expect([...map.keys()].find((shown) => map.get(shown) === 'bell\u0007\u001b[31m')).toMatch(/^bell_31m_[0-9a-v]{8}$/);
    expect(Object.prototype).not.toHaveProperty('toString_x');
  });

  it('follows a looser or a stricter rule, and refuses a rule it cannot keep', () => {
    const loose = { maxLength: 128, punctuation: '-.', letterFirst: false };
    expect(shownFor(['get.weather', '9lives', 'a'.repeat(128)], loose)).toEqual(['get.weather', '9lives', 'a'.repeat(128)]);
    const strict = { maxLength: 16, punctuation: '' };
    const shown = shownFor(['get-weather', 'read_file', 'a_rather_long_tool_name'], strict);
    expect(shown[1]).toBe('read_file');
    for (const name of shown) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]{0,15}$/);
    expect(PORTABLE_TOOL_NAMES).toEqual({ maxLength: 64, punctuation: '-', letterFirst: true });
    expect(() => portableToolNames(['a'], { maxLength: 8 })).toThrow(McpClientError);
    expect(() => portableToolNames(['a'], { punctuation: ' ' })).toThrow('punctuation must be a string of ASCII punctuation characters');
  });
});

describe('names through a Toolkit', () => {
  const kit = new Toolkit({ name: 'kit' })
    .tool('files.read', { input: z.object({ path: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `read ${path}` }] }))
    .tool('files.write', { input: z.object({ path: z.string() }) }, ({ path }) => ({ content: [{ type: 'text', text: `wrote ${path}` }] }))
    .tool('plain', { input: z.object({}) }, () => ({ content: [{ type: 'text', text: 'plain' }] }));

  it('shows portable names, reads them back in calls, and tells which real name each stands for', async () => {
    const shown = (await kit.toolsForLlm()).map((tool) => tool.function.name);
    expect(shown[0]).toMatch(/^files_read_[0-9a-v]{8}$/);
    expect(shown[2]).toBe('plain');
    expect(await toolNames(kit)).toEqual(new Map([[shown[0], 'files.read'], [shown[1], 'files.write'], ['plain', 'plain']]));
    const answers = await kit.executeToolCalls([
      { id: '1', function: { name: shown[1] as string, arguments: { path: '/a' } } },
      { id: '2', function: { name: 'files.read', arguments: { path: '/b' } } },
      { id: '3', function: { name: 'plain', arguments: {} } },
    ]);
    expect(answers.map((answer) => answer.content)).toEqual(['wrote /a', 'read /b', 'plain']);
  });

  it('shows and takes the real names when asked, and a stricter rule when given one', async () => {
    expect((await kit.toolsForLlm({ names: 'real' })).map((tool) => tool.function.name)).toEqual(['files.read', 'files.write', 'plain']);
    const rule = { maxLength: 16 };
    const [strict] = (await kit.toolsForLlm({ names: rule })).map((tool) => tool.function.name);
    expect(strict).toMatch(/^files_r_[0-9a-v]{8}$/);
    const [answer] = await kit.executeToolCalls([{ id: '1', function: { name: strict as string, arguments: { path: '/c' } } }], { names: rule });
    expect(answer?.content).toBe('read /c');
    // Under real names, a shown name is nobody's name.
    const [unknown] = await kit.executeToolCalls([{ id: '2', function: { name: strict as string, arguments: { path: '/c' } } }], { names: 'real' });
    expect(unknown).toMatchObject({ is_error: true, content: `Unknown tool: ${strict}` });
  });

  it('answers every call with why when the names option is not one it can read, and rejects the listing', async () => {
    const answers = await kit.executeToolCalls([{ id: '1', function: { name: 'plain_0000000a', arguments: {} } }], { names: 'fancy' as never });
    expect(answers).toEqual([expect.objectContaining({ tool_call_id: '1', is_error: true, content: expect.stringContaining('option names must be') })]);
    await expect(kit.toolsForLlm({ names: { maxLength: 2000 } })).rejects.toThrow(McpClientError);
  });
});
