import { promptPage, resourcePage, resourceTemplatePage, toolPage } from '../../src/protocol/page-shapes.js';

// The page checks are compiled once into small functions (PERFORMANCE.md):
// these pin what they accept and what they say about what they refuse.
const tool = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };

describe('list page shapes', () => {
  it('accept well-formed pages, extra members and all', () => {
    expect(toolPage({ tools: [tool, { ...tool, name: 'b', outputSchema: { type: 'object' }, x: 1 }], nextCursor: 'c' })).toBeUndefined();
    expect(toolPage({ tools: [] })).toBeUndefined();
    expect(resourcePage({ resources: [{ uri: 'file:///a', name: 'a', mimeType: 'text/plain' }] })).toBeUndefined();
    expect(resourceTemplatePage({ resourceTemplates: [{ uriTemplate: 'file:///{n}', name: 'n' }] })).toBeUndefined();
    expect(promptPage({ prompts: [{ name: 'p', arguments: [{ name: 'who', required: true }] }] })).toBeUndefined();
  });

  it.each([
    ['a page without its list', {}, 'tools: expected an array'],
    ['a list that is not an array', { tools: { 0: tool } }, 'tools: expected an array'],
    ['an item that is not an object', { tools: [tool, 'echo'] }, 'tools.1: expected an object'],
    ['an item that is an array', { tools: [[]] }, 'tools.0: expected an object'],
    ['a name that is not a string', { tools: [{ ...tool, name: 5 }] }, 'tools.0.name: expected a string'],
    ['a missing inputSchema', { tools: [tool, { name: 'x' }] }, 'tools.1.inputSchema: expected an object'],
    ['a null outputSchema', { tools: [{ ...tool, outputSchema: null }] }, 'tools.0.outputSchema: expected an object'],
    ['an annotation of the wrong kind', { tools: [{ ...tool, annotations: { readOnlyHint: 'yes' } }] }, 'tools.0.annotations.readOnlyHint: expected a boolean'],
    ['a cursor that is not a string', { tools: [], nextCursor: 7 }, 'nextCursor: expected a string'],
  ])('refuse %s, naming where and what', (_name, page, said) => {
    expect(toolPage(page as Record<string, unknown>)).toBe(said);
  });

  it('name the path into nested lists', () => {
    expect(promptPage({ prompts: [{ name: 'p' }, { name: 'q', arguments: [{ name: 'a' }, { name: 'b', required: 'no' }] }] })).toBe(
      'prompts.1.arguments.1.required: expected a boolean',
    );
    expect(resourcePage({ resources: [{ uri: 'u' }] })).toBe('resources.0.name: expected a string');
    expect(resourceTemplatePage({ resourceTemplates: [{ name: 'n' }] })).toBe('resourceTemplates.0.uriTemplate: expected a string');
  });

  it('read an own __proto__ member as data, not as a prototype', () => {
    const page = JSON.parse('{"tools":[{"name":"echo","inputSchema":{"type":"object"},"__proto__":{"name":5}}]}') as Record<string, unknown>;
    expect(toolPage(page)).toBeUndefined();
    const bad = JSON.parse('{"tools":[{"__proto__":{"name":"echo","inputSchema":{}}}]}') as Record<string, unknown>;
    expect(toolPage(bad)).toBe('tools.0.name: expected a string');
  });
});
