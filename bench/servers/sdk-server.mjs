// The official SDK server (v2) with one echo tool, for the benchmark: over
// stdio (both eras) or, with --http, over node:http on 127.0.0.1 (it prints
// {"port": N} once listening); --http --legacy serves only 2025-11-25, with
// sessions, as most deployed HTTP servers do. tools/list carries a ttlMs so
// clients may cache.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createMcpHandler, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { toRequest, writeResponse } from '../../spec/fixtures/node-fetch-adapter.mjs';

function build() {
  const server = new McpServer(
    { name: 'bench-sdk', version: '1.0.0' },
    { cacheHints: { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } } },
  );
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

// One transport (and server) per session; only initialize opens one.
function legacyHandler() {
  const sessions = new Map();
  return async (request) => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) return sessions.get(id)?.handleRequest(request) ?? new Response(null, { status: 404 });
    const body = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
    if (body?.method !== 'initialize') return new Response('Bad Request: no session', { status: 400 });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      onsessionclosed: (sessionId) => sessions.delete(sessionId),
      keepAliveMs: 0,
    });
    await build().connect(transport);
    return transport.handleRequest(request);
  };
}

if (process.argv.includes('--http')) {
  const modern = createMcpHandler(build, { keepAliveMs: 0 });
  const handle = process.argv.includes('--legacy') ? legacyHandler() : (request) => modern.fetch(request);
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    await writeResponse(res, await handle(toRequest(req, Buffer.concat(chunks))));
    res.end();
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  serveStdio(build);
}
