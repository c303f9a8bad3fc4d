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

  it('decodes a line, and calls text that is not JSON invalid', () => {
    expect(decodeLine('{"jsonrpc":"2.0","id":3,"result":{"ok":true}}')).toEqual({
      kind: 'response',
      message: { jsonrpc: '2.0', id: 3, result: { ok: true } },
    });
    expect(decodeLine('{"jsonrpc":')).toEqual({ kind: 'invalid', reason: 'not JSON' });
  });
});
