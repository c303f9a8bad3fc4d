import { classify, decodeLine } from '../../src/index.js';

describe('classify', () => {
  it.each([
    ['a result response', { jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    ['an error response', { jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'no' } }, 'response'],
    ['an error response without id', { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } }, 'response'],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } }, 'notification'],
    ['a server request', { jsonrpc: '2.0', id: 7, method: 'roots/list' }, 'request'],
  ])('recognises %s', (_name, message, kind) => {
    expect(classify(message).kind).toBe(kind);
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'hello'],
    ['null', null],
    ['the wrong jsonrpc version', { jsonrpc: '1.0', id: 1, result: {} }],
    ['a result that is not an object', { jsonrpc: '2.0', id: 1, result: 5 }],
    ['an error without a code', { jsonrpc: '2.0', id: 1, error: { message: 'x' } }],
    ['a fractional error code', { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }],
    ['a null id on a result', { jsonrpc: '2.0', id: null, result: {} }],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'x' }],
    ['an empty object', {}],
  ])('refuses %s, saying why', (_name, value) => {
    const classified = classify(value);
    expect(classified.kind).toBe('invalid');
    expect(classified).toHaveProperty('reason', expect.any(String));
  });

  // MCP, basic/index "Requests": an id MUST be a string or an integer; "Responses": the
  // answer MUST carry the same id. An id the answer cannot write back unchanged is refused.
  it.each([
    ['1e400 (Infinity, which JSON writes as null)', '1e400'],
    ['-1e400', '-1e400'],
    ['2^53 + 1 (parsed as its neighbour)', '9007199254740993'],
    ['-(2^53 + 1)', '-9007199254740993'],
    ['a fraction', '1.5'],
    ['1.5e300', '1.5e300'],
    ['-0 (written back as 0)', '-0'],
    ['a string of 1,025 characters', `"${'x'.repeat(1025)}"`],
  ])('Requests: refuses a server request whose id is %s, which its answer could not echo exactly', (_name, id) => {
    const classified = decodeLine(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    expect(classified).toEqual({ kind: 'invalid', reason: expect.stringContaining('its id cannot be echoed exactly') });
  });

  it.each([
    ['0', 0],
    ['2^53 - 1', Number.MAX_SAFE_INTEGER],
    ['-(2^53 - 1)', -Number.MAX_SAFE_INTEGER],
    ['1e2 (the integer 100)', 100],
    ['the empty string', ''],
    ['a string of 1,024 characters', 'y'.repeat(1024)],
  ])('Requests: takes a server request whose id is %s', (name, id) => {
    const text = name.startsWith('1e2') ? '1e2' : JSON.stringify(id);
    expect(decodeLine(`{"jsonrpc":"2.0","id":${text},"method":"ping"}`)).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id, method: 'ping' } });
  });

  it('decodes a line, and calls text that is not JSON invalid', () => {
    expect(decodeLine('{"jsonrpc":"2.0","id":3,"result":{"ok":true}}')).toEqual({
      kind: 'response',
      message: { jsonrpc: '2.0', id: 3, result: { ok: true } },
    });
    expect(decodeLine('{"jsonrpc":')).toEqual({ kind: 'invalid', reason: 'not JSON' });
  });
});
