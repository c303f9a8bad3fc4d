import { firstValueFrom } from 'rxjs';
import { McpClient, McpProtocolError, McpServerGoneError } from '../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';

const legacy = () =>
  new FakeTransport().on('initialize', {
    result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, prompts: {}, resources: { subscribe: true }, completions: {}, logging: {} }, serverInfo: { name: 's', version: '1' } },
  });

function connect(transport: FakeTransport, warnings: string[] = []): McpClient {
  return new McpClient({ transport, probeTimeoutMs: 100, requestTimeoutMs: 2000, onWarn: (w) => warnings.push(w) });
}

const text = (value: string) => ({ result: { content: [{ type: 'text', text: value }] } });

describe('request correlation', () => {
  it('gives every request a fresh id, and answers each call with its own answer', async () => {
    const transport = legacy().on('tools/call', (request) => text(String((request.params?.arguments as { n: number }).n)));
    const mcp = connect(transport);
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => firstValueFrom(mcp.callTool('t', { n }))));
    expect(results.map((r) => r.content[0]?.text)).toEqual(['1', '2', '3', '4', '5']);
    const ids = transport.sent.filter((m) => 'id' in m).map((m) => (m as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('drops and reports answers to ids nobody is waiting for, losing no real answer', async () => {
    const warnings: string[] = [];
    const transport = legacy().on('tools/call', (request) => {
      for (let i = 0; i < 200; i++) transport.push({ jsonrpc: '2.0', id: 5000 + i, result: {} });
      transport.push({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
      return text(`answer to ${request.id}`);
    });
    const mcp = connect(transport, warnings);
    const result = await firstValueFrom(mcp.callTool('t'));
    expect(result.content[0]?.text).toMatch(/^answer to \d+$/);
    expect(warnings.filter((w) => w.includes('not pending'))).toHaveLength(200);
    expect(warnings).toContain('dropped an error answer that names no request: "Parse error"');
  });

  it('cancels through the transport when the caller unsubscribes before the answer, not after', async () => {
    const transport = legacy().on('tools/call', 'silence');
    const mcp = connect(transport);
    await firstValueFrom(mcp.describe());
    const subscription = mcp.callTool('slow').subscribe({ error: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    subscription.unsubscribe();
    expect(transport.cancelled).toEqual([transport.requests('tools/call')[0]?.id]);

    transport.on('tools/call', text('fast'));
    await firstValueFrom(mcp.callTool('fast'));
    expect(transport.cancelled).toHaveLength(1);
  });

  it('never cancels initialize', async () => {
    const transport = new FakeTransport().on('initialize', 'silence');
    const mcp = new McpClient({ transport, probeTimeoutMs: 10, requestTimeoutMs: 50 });
    await expect(firstValueFrom(mcp.describe({ timeoutMs: 0 }))).rejects.toThrow(/initialize got no answer within 50 ms/);
    const initializeId = transport.requests('initialize')[0]?.id;
    expect(transport.cancelled).not.toContain(initializeId);
  });

  it('fails every pending call when the wire dies, and sends nothing afterwards', async () => {
    const transport = legacy().on('tools/call', 'silence');
    const mcp = connect(transport);
    await firstValueFrom(mcp.describe());
    const calls = [firstValueFrom(mcp.callTool('a')), firstValueFrom(mcp.callTool('b'))];
    await new Promise((resolve) => setTimeout(resolve, 5));
    transport.die(new McpServerGoneError(1, null, 'bye'));
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(McpServerGoneError);
    const sentBefore = transport.sent.length;
    await expect(firstValueFrom(mcp.callTool('c'))).rejects.toBeInstanceOf(McpServerGoneError);
    expect(transport.sent).toHaveLength(sentBefore);
  });
});

describe('result checking', () => {
  it('raises a malformed result as McpProtocolError without a code', async () => {
    const mcp = connect(legacy().on('tools/call', { result: { content: 'not a list' } }));
    const failure = firstValueFrom(mcp.callTool('t'));
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toMatchObject({ code: undefined, method: 'tools/call' });
    await expect(failure).rejects.toThrow(/malformed tools\/call result: content/);
  });

  it('treats an unknown resultType as invalid', async () => {
    const mcp = connect(legacy().on('tools/call', { result: { resultType: 'teapot', content: [] } }));
    await expect(firstValueFrom(mcp.callTool('t'))).rejects.toThrow(/unknown resultType "teapot"/);
  });

  it('stops a list whose server repeats a cursor', async () => {
    const mcp = connect(legacy().on('prompts/list', { result: { prompts: [{ name: 'p' }], nextCursor: 'again' } }));
    await expect(firstValueFrom(mcp.listPrompts())).rejects.toThrow(/repeated the cursor "again"/);
  });
});

describe('requests from a legacy server', () => {
  it('answers ping, and refuses what it does not serve with -32601', async () => {
    const warnings: string[] = [];
    const transport = legacy();
    const mcp = connect(transport, warnings);
    await firstValueFrom(mcp.describe());
    transport.push({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    transport.push({ jsonrpc: '2.0', id: 'srv-2', method: 'tasks/list', params: {} });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answers = transport.sent.filter((m) => 'id' in m && String(m.id).startsWith('srv-'));
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'Method not found: tasks/list' } },
    ]);
    expect(warnings).toEqual(['the server asked for "tasks/list", which this client does not serve']);
  });
});
