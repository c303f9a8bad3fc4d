// The official SDK server (v2) with one echo tool, for the benchmark: over
// stdio (both eras) or, with --http, over node:http on 127.0.0.1 (it prints
// {"port": N} once listening). tools/list carries a ttlMs so clients may cache.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

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

if (process.argv.includes('--http')) {
  const handler = createMcpHandler(build, { keepAliveMs: 0 });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  serveStdio(build);
}
