import { firstValueFrom } from 'rxjs';
import { McpClient, McpHttpError, McpProtocolError } from '../../src/index.js';
import type { FetchLike, FetchResponse } from '../../src/http/fetch-like.js';

// The legacy binding's corners, with a scripted fetch standing in for a server.

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** A fetch that answers each POST by its JSON-RPC method, and records what it was sent. */
function scripted(answer: (method: string, id: unknown, headers: Record<string, string>) => Reply) {
  const sent: Array<{ method: string; headers: Record<string, string> }> = [];
  const fetch: FetchLike = async (_url, init) => {
    const headers = init.headers as Record<string, string>;
    const message = init.body ? (JSON.parse(init.body as string) as { method?: string; id?: unknown }) : {};
    const method = message.method ?? String(init.method);
    sent.push({ method, headers });
    const reply = init.method === 'POST' ? answer(method, message.id, headers) : { status: 405 };
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const all: Record<string, string> = { 'content-type': 'application/json', ...reply.headers };
    const response: FetchResponse = {
      status: reply.status,
      ok: reply.status < 300,
      headers: { get: (name) => all[name.toLowerCase()] ?? null },
      body: null,
      text: async () => text,
    };
    return response;
  };
  return { fetch, sent };
}

const initialized = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '0' } },
});

describe('the legacy HTTP binding', () => {
  it('refuses a session id that is not visible ASCII', async () => {
    const { fetch } = scripted((method, id) => {
      if (method === 'server/discover') return { status: 400, body: 'Bad Request' };
      return { status: 200, body: initialized(id), headers: { 'mcp-session-id': 'has spaces' } };
    });
    const mcp = McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', fetch });
    try {
      const failure = firstValueFrom(mcp.describe());
      await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
      await expect(failure).rejects.toThrow(/session id that is not visible ASCII/);
    } finally {
      await mcp.close();
    }
  });

  it('starts one new session after a 404, and fails with McpHttpError when that one is gone at once too', async () => {
    let sessions = 0;
    const { fetch, sent } = scripted((method, id) => {
      if (method === 'server/discover') return { status: 400, body: 'Bad Request' };
      if (method === 'initialize') return { status: 200, body: initialized(id), headers: { 'mcp-session-id': `s${++sessions}` } };
      if (method === 'tools/call') return { status: 404, body: { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } } };
      return { status: 202 };
    });
    const mcp = McpClient.connectHttp({ url: 'http://127.0.0.1:1/mcp', fetch });
    try {
      const failure = firstValueFrom(mcp.callTool('anything'));
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      await expect(failure).rejects.toMatchObject({ status: 404 });
      const calls = sent.filter((request) => request.method === 'tools/call').map((request) => request.headers['Mcp-Session-Id']);
      expect(calls).toEqual(['s1', 's2']);
    } finally {
      await mcp.close();
    }
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'Mcp-Session-Id': 's2', 'MCP-Protocol-Version': '2025-11-25' } });
  });
});
