// The official SDK v1 server (@modelcontextprotocol/sdk 1.x) on its HTTP+SSE
// transport (protocol 2024-11-05), with one echo tool, for the benchmark.
// GET /sse opens a session: a stream whose first event names
// /messages?sessionId=…, where the client POSTs; every answer comes on the
// stream. Listens on 127.0.0.1 and prints {"port": N} once listening; stops
// when its stdin ends. Nothing else is served (a POST to /sse answers 404, as
// on every HTTP+SSE server, so a discovering client falls back to the GET).
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

function build() {
  const server = new McpServer({ name: 'bench-sdk-v1-sse', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true, idempotentHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

// One transport (and server) per GET stream, found again by the sessionId
// the endpoint event carried.
const sessions = new Map();

const http = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/messages', res);
    sessions.set(transport.sessionId, transport);
    res.on('close', () => sessions.delete(transport.sessionId));
    await build().connect(transport);
    return;
  }
  if (req.method === 'POST' && url.pathname === '/messages') {
    const transport = sessions.get(url.searchParams.get('sessionId'));
    if (transport) return transport.handlePostMessage(req, res);
  }
  res.writeHead(404).end();
});
http.keepAliveTimeout = 60000;
http.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: http.address().port }) + '\n'));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
