import fc from 'fast-check';
import { encodeHeaderValue, paramHeaders, paramValue } from '../../src/transport/header-encoding.js';

const decode = (value: string): string => {
  const match = /^=\?base64\?(.*)\?=$/s.exec(value);
  return match ? new TextDecoder().decode(Uint8Array.from(atob(match[1] as string), (c) => c.charCodeAt(0))) : value;
};

describe('header value encoding', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('encodes %j as the spec shows', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it('always yields a legal header value that decodes back to the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const encoded = encodeHeaderValue(value);
        expect(encoded).toMatch(/^[\x20-\x7e\t]*$/);
        expect(decode(encoded)).toBe(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('x-mcp-header annotations', () => {
  const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

  it('finds annotated parameters through nested properties', () => {
    expect(
      paramHeaders(schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, opts: schema({ n: { type: 'integer', 'x-mcp-header': 'N' } }) })),
    ).toEqual([
      { name: 'Region', path: ['region'] },
      { name: 'N', path: ['opts', 'n'] },
    ]);
  });

  it.each([
    ['a number parameter', schema({ r: { type: 'number', 'x-mcp-header': 'R' } }), /type "number"/],
    ['a name that is not a token', schema({ r: { type: 'string', 'x-mcp-header': 'Bad Name' } }), /not a header name token/],
    ['an empty name', schema({ r: { type: 'string', 'x-mcp-header': '' } }), /not a header name token/],
    ['a duplicate ignoring case', schema({ a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'zone' } }), /not unique/],
    ['a parameter under items', schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), /not reachable/],
    ['a parameter under anyOf', schema({}, { anyOf: [schema({ a: { type: 'string', 'x-mcp-header': 'A' } })] }), /not reachable/],
  ])('rejects %s', (_case, inputSchema, reason) => {
    expect(paramHeaders(inputSchema)).toMatch(reason);
  });

  it('converts values and leaves out absent or null ones', () => {
    expect(paramValue({ a: 42 }, ['a'])).toBe('42');
    expect(paramValue({ a: false }, ['a'])).toBe('false');
    expect(paramValue({ a: { b: 'x y' } }, ['a', 'b'])).toBe('x y');
    expect(paramValue({ a: null }, ['a'])).toBeUndefined();
    expect(paramValue({}, ['a'])).toBeUndefined();
    expect(paramValue({ a: 2 ** 60 }, ['a'])).toBeUndefined();
  });
});
