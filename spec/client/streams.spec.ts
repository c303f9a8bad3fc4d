import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { McpClient, type ToolProgress } from '../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';

const modern = () =>
  new FakeTransport().on('server/discover', {
    result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {}, resources: { subscribe: true }, completions: {}, logging: {} } },
  });

const progress = (progressToken: unknown, value: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { progressToken, progress: value },
});

describe('progress tokens minted for onProgress', () => {
  it('attributes only live tokens it minted: late and foreign reports are dropped', async () => {
    const reports: ToolProgress[] = [];
    let token: unknown;
    const transport = modern().on('tools/call', (request) => {
      token = (request.params?._meta as Record<string, unknown>).progressToken;
      transport.push(progress(token, 1));
      transport.push(progress('someone-else', 1));
      return { result: { content: [] } };
    });
    const mcp = new McpClient({ transport, onProgress: (p) => reports.push(p) });
    await firstValueFrom(mcp.callTool('t', {}, { toolCallId: 'call_9' }));
    transport.push(progress(token, 2));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(reports).toEqual([{ toolCallId: 'call_9', progress: 1 }]);
  });

  it('attributes nothing to a token minted only to restart a timeout', async () => {
    const reports: ToolProgress[] = [];
    const transport = modern().on('tools/call', (request) => {
      transport.push(progress((request.params?._meta as Record<string, unknown>).progressToken, 1));
      return { result: { content: [] } };
    });
    const mcp = new McpClient({ transport, onProgress: (p) => reports.push(p) });
    await firstValueFrom(mcp.callTool('t', {}, { resetTimeoutOnProgress: true }));
    expect(transport.requests('tools/call')[0]?.params?._meta).toHaveProperty('progressToken');
    expect(reports).toEqual([]);
  });

  it('mints no token without onProgress, and keeps the caller\'s own token', async () => {
    const transport = modern().on('tools/call', { result: { content: [] } });
    const mcp = new McpClient({ transport });
    await firstValueFrom(mcp.callTool('t', {}, { toolCallId: 'call_1' }));
    await firstValueFrom(mcp.callTool('t', {}, { progressToken: 42 }));
    const metas = transport.requests('tools/call').map((r) => (r.params?._meta as Record<string, unknown>).progressToken);
    expect(metas).toEqual([undefined, 42]);
  });

  it('reports a throwing onProgress or onLog through onWarn and keeps going', async () => {
    const warnings: string[] = [];
    const transport = modern().on('tools/call', () => {
      transport.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
      return { result: { content: [] } };
    });
    const mcp = new McpClient({
      transport,
      onLog: () => {
        throw new Error('log sink down');
      },
      onWarn: (w) => warnings.push(w),
    });
    await firstValueFrom(mcp.callTool('t'));
    await firstValueFrom(mcp.callTool('t'));
    expect(warnings).toEqual(['onLog threw: log sink down', 'onLog threw: log sink down']);
  });
});

describe('logLevel', () => {
  it('goes in the _meta of every modern request', async () => {
    const transport = modern().on('tools/list', { result: { tools: [] } });
    await firstValueFrom(new McpClient({ transport, logLevel: 'warning' }).listTools());
    for (const request of [...transport.requests('server/discover'), ...transport.requests('tools/list')]) {
      expect((request.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/logLevel']).toBe('warning');
    }
  });

  it('is refused when it is not a level', () => {
    expect(() => new McpClient({ transport: new FakeTransport(), logLevel: 'loud' as never })).toThrow(/logLevel must be one of/);
  });

  it('is not sent to a legacy server that does not offer logging', async () => {
    const transport = new FakeTransport().on('initialize', {
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    });
    await firstValueFrom(new McpClient({ transport, logLevel: 'info', probeTimeoutMs: 50 }).describe());
    expect(transport.requests('logging/setLevel')).toEqual([]);
  });
});

describe('listen on a modern server', () => {
  it('completes when the server ends the subscription, and warns about what it did not grant', async () => {
    const warnings: string[] = [];
    const transport = modern().on('subscriptions/listen', (request) => {
      const meta = { 'io.modelcontextprotocol/subscriptionId': request.id };
      transport.push({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: meta, notifications: { toolsListChanged: true } },
      });
      transport.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta } });
      transport.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 999 } } });
      return { result: { resultType: 'complete', _meta: meta } };
    });
    const mcp = new McpClient({ transport, onWarn: (w) => warnings.push(w) });
    const heard = await lastValueFrom(mcp.listen({ toolsListChanged: true, promptsListChanged: true }).pipe(toArray()));
    expect(heard.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
    expect(warnings).toEqual(['the server will not send everything listen asked for: promptsListChanged']);
  });

  it('refuses an unknown filter field', () => {
    expect(() => new McpClient({ transport: new FakeTransport() }).listen({ toolsChanged: true } as never)).toThrow(
      'unknown option: toolsChanged',
    );
  });
});

describe('the cache', () => {
  it('keys entries by params: another cursor or uri is another entry', async () => {
    const transport = modern().on('tools/list', { result: { resultType: 'complete', tools: [], ttlMs: 60000, cacheScope: 'private' } });
    const mcp = new McpClient({ transport });
    await firstValueFrom(mcp.listTools());
    await firstValueFrom(mcp.listTools());
    expect(transport.requests('tools/list')).toHaveLength(1);
    transport.on('resources/read', (request) => ({
      result: { resultType: 'complete', contents: [{ uri: request.params?.uri }], ttlMs: 60000, cacheScope: 'private' },
    }));
    for (const uri of ['x://1', 'x://2', 'x://1', 'x://2']) {
      expect((await firstValueFrom(mcp.readResource(uri))).contents[0]?.uri).toBe(uri);
    }
    expect(transport.requests('resources/read')).toHaveLength(2);
  });

  it('never keeps the result of a retried round', async () => {
    const transport = modern().on('resources/read', (request) =>
      request.params?.requestState
        ? { result: { resultType: 'complete', contents: [], ttlMs: 60000, cacheScope: 'private' } }
        : { result: { resultType: 'input_required', requestState: 'again' } },
    );
    const mcp = new McpClient({ transport });
    await firstValueFrom(mcp.readResource('x://1'));
    await firstValueFrom(mcp.readResource('x://1'));
    expect(transport.requests('resources/read')).toHaveLength(4);
  });
});
