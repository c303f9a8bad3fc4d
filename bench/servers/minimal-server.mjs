// A minimal MCP server over stdio for the benchmark: JSON lines in, JSON lines
// out, no validation, so that what is measured is the client. It speaks both
// eras; with BENCH_LEGACY=1 it refuses server/discover (-32601), so a client
// falls back to the initialize handshake.
import { createInterface } from 'node:readline';

const legacy = process.env.BENCH_LEGACY === '1';
const tools = Array.from({ length: 20 }, (_, n) => ({
  name: n === 0 ? 'echo' : `tool_${n}`,
  description: `Tool number ${n}`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  annotations: { readOnlyHint: true, idempotentHint: true },
}));
const cache = legacy ? {} : { resultType: 'complete', ttlMs: 60000, cacheScope: 'public' };
const complete = legacy ? {} : { resultType: 'complete' };

function answer(message) {
  const { id, method, params } = message;
  switch (method) {
    case 'server/discover':
      if (legacy) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
      return { jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ...cache } };
    case 'initialize':
      return { jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'minimal', version: '1' } } };
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools, ...cache } };
    case 'tools/call':
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.arguments?.text ?? '' }], ...complete } };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  process.stdout.write(JSON.stringify(answer(message)) + '\n');
});
process.stdin.on('end', () => process.exit(0));
