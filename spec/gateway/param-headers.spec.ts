import { z } from 'zod';
import { Gateway } from '../../src/gateway/index.js';
import { declaresParamHeaders, paramHeaderMismatch } from '../../src/gateway/param-headers.js';
import { Toolkit, ToolSearch } from '../../src/index.js';

const SCHEMA = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, options: { type: 'object', properties: { count: { type: 'integer', 'x-mcp-header': 'Count' } } } },
};

describe('paramHeaderMismatch', () => {
  it('accepts headers that match the arguments, plain or Base64, and a missing header for a missing value', () => {
    expect(paramHeaderMismatch(SCHEMA, { region: 'eu', options: { count: 3 } }, new Headers({ 'mcp-param-region': 'eu', 'mcp-param-count': '3' }))).toBeUndefined();
    expect(paramHeaderMismatch(SCHEMA, { region: 'zürich' }, new Headers({ 'mcp-param-region': `=?base64?${Buffer.from('zürich').toString('base64')}?=` }))).toBeUndefined();
    expect(paramHeaderMismatch(SCHEMA, {}, new Headers())).toBeUndefined();
  });

  it('finds a missing, different or badly encoded header', () => {
    expect(paramHeaderMismatch(SCHEMA, { region: 'eu' }, new Headers())).toContain('Mcp-Param-Region header is missing');
    expect(paramHeaderMismatch(SCHEMA, { region: 'eu' }, new Headers({ 'mcp-param-region': 'us' }))).toContain('does not match');
    expect(paramHeaderMismatch(SCHEMA, { options: { count: 3 } }, new Headers({ 'mcp-param-count': '4' }))).toContain('Mcp-Param-Count');
    expect(paramHeaderMismatch(SCHEMA, { region: 'eu' }, new Headers({ 'mcp-param-region': '=?base64?abc?=' }))).toContain('not valid Base64');
  });
});

describe('paramHeaderMismatch on a hostile schema', () => {
  it('walks a schema nested 100,000 levels deep without overflowing, looking no deeper than it bounds', () => {
    const levels = 100_000;
    const deep = JSON.parse('{"type":"object","properties":{"p":'.repeat(levels) + '{"type":"string","x-mcp-header":"Deep"}' + '}}'.repeat(levels));
    expect(paramHeaderMismatch(deep, {}, new Headers())).toBeUndefined();
    expect(declaresParamHeaders(deep)).toBe(false);
  });
});

describe('declaresParamHeaders', () => {
  it('tells a schema with a header-marked property from one without', () => {
    expect(declaresParamHeaders(SCHEMA)).toBe(true);
    expect(declaresParamHeaders({ type: 'object', properties: { region: { type: 'string' } } })).toBe(false);
    expect(declaresParamHeaders({ type: 'object', 'x-mcp-header': 'Root' })).toBe(false);
    expect(declaresParamHeaders(undefined)).toBe(false);
  });
});

// A 2026-07-28 tools/call over HTTP with the standard headers and one Mcp-Param-Region header.
function postCall(handle: (request: Request) => Promise<Response>, name: string, region: string): Promise<Response> {
  return handle(
    new Request('http://gateway.invalid/mcp', {
      method: 'POST',
      headers: {
        host: 'localhost:1',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
        'mcp-param-region': region,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name,
          arguments: { region: 'eu' },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    }),
  );
}

describe('the gateway over HTTP, 2026-07-28', () => {
  let gateway: Gateway;
  afterEach(async () => gateway?.close());

  it('answers a tools/call whose Mcp-Param header disagrees with its arguments 400, -32020, and serves one that agrees', async () => {
    const input = z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) });
    const tools = new Toolkit({ name: 'kit' }).tool('kit_where', { input }, ({ region }) => ({ content: [{ type: 'text', text: `in ${region}` }] }));
    gateway = new Gateway({ provider: tools });
    const handle = gateway.fetchHandler();
    const call = (region: string) =>
      handle(
        new Request('http://gateway.invalid/mcp', {
          method: 'POST',
          headers: {
            host: 'localhost:1',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'kit_where',
            'mcp-param-region': region,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: {
              name: 'kit_where',
              arguments: { region: 'eu' },
              _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
            },
          }),
        }),
      );
    const refused = await call('us');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    const served = await call('eu');
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('in eu');
  });

  it('takes nothing from a second argument a runtime hands a fetch handler (Next.js params, Deno info, a parsed-looking body)', async () => {
    const input = z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) });
    const tools = new Toolkit({ name: 'kit' }).tool('kit_where', { input }, ({ region }) => ({ content: [{ type: 'text', text: `in ${region}` }] }));
    gateway = new Gateway({ provider: tools });
    const handle = gateway.fetchHandler() as (request: Request, extra: unknown) => Promise<Response>;
    const forged = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'kit_where', arguments: { region: 'us' } } };
    for (const extra of [{ params: { slug: 'mcp' } }, { remoteAddr: { hostname: '127.0.0.1' } }, { json: forged }]) {
      const answer = await postCall((request) => handle(request, extra), 'kit_where', 'us');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    }
  });

  it('checks the headers of a tool added after calls were served (a name it has not kept is listed again)', async () => {
    const input = z.object({ region: z.string() });
    const tools = new Toolkit({ name: 'kit' }).tool('kit_plain', { input }, ({ region }) => ({ content: [{ type: 'text', text: `plain ${region}` }] }));
    gateway = new Gateway({ provider: tools });
    const handle = gateway.fetchHandler();
    const plain = await postCall(handle, 'kit_plain', 'us');
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('plain eu');
    tools.tool('kit_where', { input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }) }, ({ region }) => ({ content: [{ type: 'text', text: `in ${region}` }] }));
    const refused = await postCall(handle, 'kit_where', 'us');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    const served = await postCall(handle, 'kit_where', 'eu');
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('in eu');
  });

  it('behind a ToolSearch, checks the headers of a tool no search has loaded, which a host may still call', async () => {
    const tools = new Toolkit({ name: 'kit' }).tool('kit_where', { input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }) }, ({ region }) => ({ content: [{ type: 'text', text: `in ${region}` }] }));
    gateway = new Gateway({ provider: new ToolSearch({ provider: tools }) });
    const handle = gateway.fetchHandler();
    const refused = await postCall(handle, 'kit_where', 'us');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    const served = await postCall(handle, 'kit_where', 'eu');
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('in eu');
  });
});
