// What tool search buys and costs: run by bench/run.mjs as its "tool
// search" scenarios (`npm run bench -- --only 'tool search'`), or alone
// (`npm run build && node bench/tool-search.mjs [--quick]`).
//
//   declarations  the size of what a model is sent for a 1,000-tool
//                 catalogue (the real servers' catalogues of
//                 bench/tool-search/catalogues under numbered prefixes, as
//                 a Registry of many servers publishes them): every tool,
//                 against ToolSearch's tool_search alone and after one
//                 search loaded 5 tools. Tokens are approximated as
//                 characters / 4 of the declarations' JSON (OpenAI's rule of
//                 thumb for English text; JSON tokenises a little worse).
//   recall        recall@1 and recall@5 and the mean reciprocal rank of
//                 `search` on 50 labelled tasks (bench/tool-search/tasks.json)
//                 over the five catalogues together (server-everything,
//                 server-filesystem, server-memory, Playwright MCP as their
//                 servers list them, and a GitHub-like fixture).
//   latency       at 10,000 tools (the real catalogues and synthetic tools):
//                 the first search (which builds the index), then the 50
//                 tasks' searches, p50 and p99.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SERVERS = ['everything', 'filesystem', 'memory', 'playwright', 'github'];
const tokens = (value) => Math.round(JSON.stringify(value).length / 4);
const fmt = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2));
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

function catalogue(server, prefix = server) {
  const tools = JSON.parse(readFileSync(join(here, 'tool-search/catalogues', `${server}.json`), 'utf8'));
  return tools.map(({ name, description, inputSchema }) => ({ type: 'function', function: { name: `${prefix}_${name}`, ...(description ? { description } : {}), parameters: inputSchema } }));
}

const fixed = (tools) => ({ toolsForLlm: async () => tools, executeToolCalls: async (calls) => calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: '', is_error: false })) });

// The five catalogues again and again under numbered prefixes, then synthetic tools, to `size` tools.
function scaled(size) {
  const tools = [];
  for (let copy = 0; tools.length < size && copy < Math.ceil(size / 100); copy++) {
    for (const server of SERVERS) tools.push(...catalogue(server, `${server}${copy}`));
  }
  const verbs = ['fetch', 'store', 'render', 'compile', 'notify', 'export', 'approve', 'schedule'];
  for (let n = 0; tools.length < size; n++) {
    const verb = verbs[n % verbs.length];
    tools.push({ type: 'function', function: { name: `svc${n}_${verb}_item`, description: `${verb} an item of kind ${n % 997} for service ${n}.`, parameters: { type: 'object', properties: { id: { type: 'string' } } } } });
  }
  return tools.slice(0, size);
}

async function declarations() {
  const { ToolSearch } = await import('rxmcp');
  const tools = scaled(1000);
  const search = new ToolSearch({ provider: fixed(tools) });
  const before = await search.toolsForLlm();
  await search.executeToolCalls([{ id: '1', function: { name: 'tool_search', arguments: { query: 'take a screenshot of the page', limit: 5 } } }]);
  const after = await search.toolsForLlm();
  const all = await fixed(tools).toolsForLlm();
  return { tools: all.length, allTokens: tokens(all), searchOnlyTokens: tokens(before), afterSearchTokens: tokens(after), afterSearchTools: after.length };
}

async function recall() {
  const { ToolSearch } = await import('rxmcp');
  const tasks = JSON.parse(readFileSync(join(here, 'tool-search/tasks.json'), 'utf8'));
  const tools = SERVERS.flatMap((server) => catalogue(server));
  const search = new ToolSearch({ provider: fixed(tools) });
  let at1 = 0;
  let at5 = 0;
  let reciprocal = 0;
  const misses = [];
  for (const [query, expected] of tasks) {
    const names = (await search.search(query, { limit: 10 })).map((hit) => hit.name);
    const rank = names.indexOf(expected);
    if (rank === 0) at1++;
    if (rank >= 0 && rank < 5) at5++;
    else misses.push(`${query} → ${expected} (got ${names.slice(0, 2).join(', ') || 'nothing'})`);
    if (rank >= 0) reciprocal += 1 / (rank + 1);
  }
  return { tasks: tasks.length, tools: tools.length, recallAt1: at1 / tasks.length, recallAt5: at5 / tasks.length, mrr: reciprocal / tasks.length, misses };
}

async function latency(quick) {
  const { ToolSearch } = await import('rxmcp');
  const tasks = JSON.parse(readFileSync(join(here, 'tool-search/tasks.json'), 'utf8'));
  const size = 10_000;
  const search = new ToolSearch({ provider: fixed(scaled(size)) });
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  await search.search('warm the index');
  const firstMs = performance.now() - started;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const times = [];
  for (let round = 0; round < (quick ? 3 : 20); round++) {
    for (const [query] of tasks) {
      started = performance.now();
      await search.search(query);
      times.push((performance.now() - started) * 1000);
    }
  }
  return { tools: size, firstMs, heapMiB, p50Us: percentile(times, 0.5), p99Us: percentile(times, 0.99), searches: times.length };
}

function declarationsTable(name, r) {
  return [
    `### ${name}`,
    '',
    `A ${r.tools}-tool catalogue; tokens ≈ characters / 4 of the declarations' JSON.`,
    '',
    '| declared | tools | ≈ tokens |',
    '|---|---:|---:|',
    `| every tool (\`toolsForLlm\`) | ${r.tools} | ${r.allTokens} |`,
    `| ToolSearch, before any search | 1 | ${r.searchOnlyTokens} |`,
    `| ToolSearch, after one search loaded 5 | ${r.afterSearchTools} | ${r.afterSearchTokens} |`,
  ].join('\n');
}

function recallTable(name, r) {
  return [
    `### ${name}`,
    '',
    `${r.tasks} labelled tasks over ${r.tools} tools of five catalogues.`,
    '',
    '| recall@1 | recall@5 | MRR |',
    '|---:|---:|---:|',
    `| ${fmt(r.recallAt1)} | ${fmt(r.recallAt5)} | ${fmt(r.mrr)} |`,
    ...(r.misses.length ? ['', 'Missed at 5:', ...r.misses.map((miss) => `- ${miss}`)] : []),
  ].join('\n');
}

function latencyTable(name, r) {
  return [
    `### ${name}`,
    '',
    '| tools | first search (builds the index) ms | index heap MiB | search p50 µs | search p99 µs |',
    '|---:|---:|---:|---:|---:|',
    `| ${r.tools} | ${fmt(r.firstMs)} | ${fmt(r.heapMiB)} | ${fmt(r.p50Us)} | ${fmt(r.p99Us)} |`,
  ].join('\n');
}

/** The scenarios bench/run.mjs runs. */
export function toolSearchScenarios(quick) {
  return [
    { name: 'tool search: declaration size', run: declarations, table: declarationsTable },
    { name: 'tool search: recall', run: recall, table: recallTable },
    { name: 'tool search: latency at 10,000 tools', run: () => latency(quick), table: latencyTable },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { name, run, table } of toolSearchScenarios(process.argv.includes('--quick'))) process.stdout.write(`${table(name, await run())}\n\n`);
}
