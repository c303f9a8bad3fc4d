// A minimal MCP server over stdio for the benchmark: JSON lines in, JSON lines
// out, no validation, so that what is measured is the client. It speaks both
// eras; with BENCH_LEGACY=1 it refuses server/discover (-32601), so a client
// falls back to the initialize handshake.
//
// BENCH_TOOLS=N (for the curves) lists N tools instead of the usual twenty:
// echo, blob (answers `bytes` characters of text) and N - 2 tools with
// schemas the size and shape of a real server's (several typed properties
// with descriptions, enums, bounds, a nested object, required fields);
// BENCH_TOOLS=1 lists `echo` alone.
import { createInterface } from 'node:readline';

const legacy = process.env.BENCH_LEGACY === '1';
const count = process.env.BENCH_TOOLS === undefined ? undefined : Number(process.env.BENCH_TOOLS);
const echoSchema = { type: 'object', properties: { text: { type: 'string' } } };
const tools =
  count === undefined
    ? Array.from({ length: 20 }, (_, n) => ({
        name: n === 0 ? 'echo' : `tool_${n}`,
        description: `Tool number ${n}`,
        inputSchema: echoSchema,
        annotations: { readOnlyHint: true, idempotentHint: true },
      }))
    : [
        { name: 'echo', description: 'Answers the text it is given.', inputSchema: echoSchema, annotations: { readOnlyHint: true, idempotentHint: true } },
        {
          name: 'blob',
          description: 'Answers as many characters of text as asked for.',
          inputSchema: { type: 'object', properties: { bytes: { type: 'integer', minimum: 0 } }, required: ['bytes'] },
          annotations: { readOnlyHint: true, idempotentHint: true },
        },
        ...Array.from({ length: Math.max(0, count - 2) }, (_, n) => realisticTool(n)),
      ].slice(0, count);

function realisticTool(n) {
  const area = ['files', 'issues', 'calendar', 'search', 'billing', 'deploys'][n % 6];
  return {
    name: `${area}_action_${n}`,
    title: `${area[0].toUpperCase()}${area.slice(1)} action ${n}`,
    description: `Runs action ${n} on the ${area} service: reads or changes the records named by the query, at most \`limit\` of them, and answers what it did as text.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: `Which ${area} records to act on, in the service's query syntax.`, minLength: 1, maxLength: 2000 },
        limit: { type: 'integer', description: 'How many records at most.', minimum: 1, maximum: 500, default: 50 },
        order: { type: 'string', enum: ['newest', 'oldest', 'relevance'], description: 'The order records are taken in.' },
        includeArchived: { type: 'boolean', description: 'Whether archived records count too.', default: false },
        labels: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, description: 'Only records with all of these labels.' },
        window: {
          type: 'object',
          description: 'Only records changed within this window.',
          properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
          additionalProperties: false,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: n % 3 !== 0, idempotentHint: n % 2 === 0, openWorldHint: true },
  };
}

const blobs = new Map();
const blob = (bytes) => {
  if (!blobs.has(bytes)) blobs.set(bytes, 'x'.repeat(bytes));
  return blobs.get(bytes);
};
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
      if (params.name === 'blob') return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: blob(params.arguments.bytes) }], ...complete } };
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: params.arguments?.text ?? '' }], ...complete } };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}

// Under BENCH_TOOLS (the curves) the big answers, a catalogue of thousands of
// tools or megabytes of text, are serialised once and only their id spliced
// in: stringifying 12 MB per request would put the server's time, not the
// client's, into every point, on a machine whose two cores the client shares.
const serialised = new Map();
function cached(message) {
  const key = message.method === 'tools/list' ? 'list' : message.method === 'tools/call' && message.params.name === 'blob' ? message.params.arguments.bytes : undefined;
  if (count === undefined || key === undefined) return undefined;
  if (!serialised.has(key)) serialised.set(key, JSON.stringify(answer({ ...message, id: 0 }).result));
  return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${serialised.get(key)}}\n`;
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  process.stdout.write(cached(message) ?? JSON.stringify(answer(message)) + '\n');
});
process.stdin.on('end', () => process.exit(0));
