import { buildRequest, type Stamp } from '../../src/protocol/request';

const stamp: Stamp = { era: 'modern', protocolVersion: '2026-07-28', clientInfo: { name: 'spec', version: '1' }, clientCapabilities: {} };

describe('buildRequest', () => {
  it('keeps the caller\'s keys in order, with the protocol _meta last, and leaves the params untouched', () => {
    const params = { name: 'echo', arguments: { text: 'hi' } };
    const request = buildRequest(7, 'tools/call', params, stamp);
    expect(JSON.stringify(request)).toBe(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"spec","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}',
    );
    expect(params).toEqual({ name: 'echo', arguments: { text: 'hi' } });
  });

  it('keeps an own __proto__ key of parsed params as a property, never as the prototype', () => {
    const params = JSON.parse('{"name":"echo","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const body = buildRequest(1, 'tools/call', params, stamp).params as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(body)).__proto__).toEqual({ polluted: true });
  });

  it('replaces a _meta in the params with the merged one, the protocol keys winning over the caller\'s', () => {
    const params = { _meta: { stale: true }, name: 'echo' };
    const body = buildRequest(1, 'tools/call', params, stamp, { trace: 'x', 'io.modelcontextprotocol/protocolVersion': 'forged' }).params as Record<string, Record<string, unknown>>;
    expect(Object.keys(body)).toEqual(['_meta', 'name']);
    expect(body._meta).toEqual({ trace: 'x', 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} });
  });

  it('sends a legacy request\'s params as they are when it carries no _meta', () => {
    const params = { name: 'echo' };
    expect(buildRequest(1, 'tools/call', params, { ...stamp, era: 'legacy' }).params).toBe(params);
  });
});
