import { jsonSyntaxError } from '../../src/cli/json-syntax.js';

describe('jsonSyntaxError: where a text stops being JSON', () => {
  it.each([
    ['{"a":', 'at line 1, column 6 (character 6): expected a value, found the end of the text'],
    ['{"a" 1}', 'at line 1, column 6 (character 6): expected ":", found "1"'],
    ['{"a":1,}', 'at line 1, column 8 (character 8): expected a key in double quotes, found "}"'],
    ["{'a':1}", 'at line 1, column 2 (character 2): expected a key in double quotes or "}", found "\'"'],
    ['[1 2]', 'at line 1, column 4 (character 4): expected "," or "]", found "2"'],
    ['{"a":1}}', 'at line 1, column 8 (character 8): expected the end of the JSON, found "}"'],
    ['{\n  "a": tru\n}', 'at line 2, column 11 (character 13): expected "true", found "\\n"'],
    ['{"a":"x\ty"}', 'at line 1, column 8 (character 8): expected a character that is not a control character (a newline or tab in a string is written \\n or \\t), found "\\t"'],
    ['{"a":"\\q"}', 'at line 1, column 8 (character 8): expected an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u), found "q"'],
    ['{"a":"\\u12"}', 'at line 1, column 9 (character 9): expected four hexadecimal digits after \\u, found "1"'],
    ['{"a":"open', 'at line 1, column 11 (character 11): expected a closing \'"\', found the end of the text'],
    ['{"a":-}', 'at line 1, column 7 (character 7): expected a digit, found "}"'],
    ['{"a":1.}', 'at line 1, column 8 (character 8): expected a digit, found "}"'],
    ['{"a":1e+}', 'at line 1, column 9 (character 9): expected a digit, found "}"'],
    ['', 'at line 1, column 1 (character 1): expected a value, found the end of the text'],
    ['[]]', 'at line 1, column 3 (character 3): expected the end of the JSON, found "]"'],
  ])('finds the break in %j', (text, where) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonSyntaxError(text)).toBe(where);
  });

  it.each(['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"], "b": {}} ', '"x"', '0'])('finds none in JSON: %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonSyntaxError(text)).toBeUndefined();
  });

  it('walks a text nested 100,000 levels deep without recursion', () => {
    expect(jsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(99_999)}`)).toBe('at line 1, column 200000 (character 200000): expected "," or "]", found the end of the text');
  });
});
