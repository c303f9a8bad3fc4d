import { searchTerms } from '../../src/tools/search-terms.js';
import { type SearchableTool, ToolIndex } from '../../src/tools/tool-index.js';

const tool = (name: string, description?: string, properties: Record<string, { description?: string }> = {}): SearchableTool => ({
  name,
  ...(description === undefined ? {} : { description }),
  parameters: { type: 'object', properties },
});

const names = (index: ToolIndex, tools: SearchableTool[], query: string, limit = 5) => index.search(query, limit).map(({ doc }) => tools[doc]?.name);

describe('search terms', () => {
  it('read camelCase, snake_case, kebab-case and spaced names as the same words', () => {
    const words = ['readFile', 'read_file', 'read-file', 'read file', 'READ_FILE'].map((text) => searchTerms(text, 100, 100));
    expect(new Set(words.map((terms) => terms.join(' ')))).toEqual(new Set([words[0]?.join(' ')]));
    expect(words[0]).toHaveLength(2);
  });

  it('split an acronym from the word after it, and keep digits with their letters', () => {
    expect(searchTerms('HTTPRequest s3Bucket base64', 100, 100)).toEqual(['http', 'request', 's3', 'bucket', 'base64']);
  });

  it('meet the forms of a word: plurals, -ing, -ed, -ation', () => {
    const stems = (text: string) => new Set(searchTerms(text, 100, 100));
    expect(stems('create creates created creating creation')).toEqual(stems('create'));
    expect(stems('files file')).toEqual(stems('file'));
    expect(stems('listing listed lists')).toEqual(stems('list'));
  });

  it('drop words that tell no tool from another', () => {
    expect(searchTerms('I want to read the file, please', 100, 100)).toEqual(searchTerms('read file', 100, 100));
  });

  it('read at most the characters and terms they are given', () => {
    expect(searchTerms('alpha beta gamma delta', 10, 100)).toEqual(['alpha', 'beta']);
    expect(searchTerms('alpha beta gamma delta', 100, 3)).toHaveLength(3);
  });
});

describe('ToolIndex', () => {
  const catalogue = [
    tool('read_file', 'Read the complete contents of a file from the file system.', { path: { description: 'Path of the file to read' } }),
    tool('write_file', 'Create a new file or overwrite an existing one.', { path: {}, content: {} }),
    tool('list_directory', 'List the files and directories at a path.', { path: {} }),
    tool('create_issue', 'Open a new issue in a GitHub repository.', { owner: {}, repo: {}, title: {}, body: {} }),
    tool('browser_take_screenshot', 'Take a screenshot of the current page.', { filename: {} }),
    tool('get_weather', 'Current weather for a city.', { city: { description: 'City name' } }),
  ];
  const index = new ToolIndex(catalogue);

  it('ranks the tool whose name says the thing first', () => {
    expect(names(index, catalogue, 'read a file')[0]).toBe('read_file');
    expect(names(index, catalogue, 'open an issue on github')[0]).toBe('create_issue');
    expect(names(index, catalogue, 'screenshot of the page')[0]).toBe('browser_take_screenshot');
    expect(names(index, catalogue, 'what is the weather in Paris')[0]).toBe('get_weather');
  });

  it('finds a tool by a parameter name alone', () => {
    expect(names(index, catalogue, 'owner repo')[0]).toBe('create_issue');
  });

  it('answers nothing for a query that shares no word with any tool, and for an empty one', () => {
    expect(index.search('zebra xylophone', 5)).toEqual([]);
    expect(index.search('', 5)).toEqual([]);
  });

  it('answers at most the limit, best first, ties in catalogue order', () => {
    const hits = index.search('file path', 2);
    expect(hits).toHaveLength(2);
    expect((hits[0]?.score ?? 0) >= (hits[1]?.score ?? 0)).toBe(true);
    const twins = [tool('alpha_one', 'same words'), tool('alpha_two', 'same words')];
    expect(names(new ToolIndex(twins), twins, 'same words')).toEqual(['alpha_one', 'alpha_two']);
  });

  it('keeps a description stuffed with every word below an honest match', () => {
    const stuffed = tool('helper', 'read file issue github screenshot page weather directory list create write '.repeat(2000));
    const tools = [...catalogue, stuffed];
    const withStuffing = new ToolIndex(tools);
    for (const [query, honest] of [
      ['read a file', 'read_file'],
      ['create a github issue', 'create_issue'],
      ['take a screenshot', 'browser_take_screenshot'],
      ['weather', 'get_weather'],
      ['list directory', 'list_directory'],
    ]) {
      expect(names(withStuffing, tools, query as string)[0]).toBe(honest);
    }
  });

  it('treats names such as __proto__ and constructor as words like any other', () => {
    const tools = [tool('__proto__', 'hasOwnProperty toString'), tool('constructor', 'prototype valueOf'), tool('plain', 'nothing')];
    const proto = new ToolIndex(tools);
    expect(names(proto, tools, 'proto')).toEqual(['__proto__']);
    expect(names(proto, tools, 'constructor')).toEqual(['constructor']);
    expect(names(proto, tools, 'hasOwnProperty')).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).proto).toBeUndefined();
  });
});
