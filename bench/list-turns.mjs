// The tools/list requests a model turn costs, counted by the server: the
// official SDK server (spec/fixtures/list-count-server.mjs, 2025-11-25,
// which counts the list requests it receives) over stdio and Streamable
// HTTP, each turn `toolsForLlm()` then a one-call `executeToolCalls()`.
// Beside the server that declared `tools.listChanged` (lists kept until it
// says they changed), two that leave the client listing every read: one
// that declared no such promise (--quiet), one whose GET stream is refused
// (--no-get), so its word could never arrive. Also the median time of a
// later turn, which the round trips saved show in.
//
//   npm run bench -- --only list-turns
//   npm run build && node bench/list-turns.mjs [turns]     (this alone, printed)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const server = new URL('../spec/fixtures/list-count-server.mjs', import.meta.url).pathname;

const TARGETS = [
  { name: 'stdio, listChanged declared', kind: 'stdio', args: [] },
  { name: 'stdio, no listChanged', kind: 'stdio', args: ['--quiet'] },
  { name: 'HTTP, listChanged declared, GET stream open', kind: 'http', args: ['--http'] },
  { name: 'HTTP, listChanged declared, GET stream refused (405)', kind: 'http', args: ['--http', '--no-get'] },
  { name: 'HTTP, no listChanged', kind: 'http', args: ['--http', '--quiet'] },
];

// Starts the HTTP server and resolves to its URL and a stop().
function startHttp(args) {
  const child = spawn(process.execPath, [server, ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`list-count-server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const { port } = JSON.parse(line);
      resolve({ url: `http://127.0.0.1:${port}/mcp`, stop: () => child.stdin.end() });
    });
  });
}

async function listed(mcp) {
  const result = await firstValueFrom(mcp.callTool('lists', {}));
  return JSON.parse(result.content[0].text)['tools/list'];
}

/** One target: tools/list requests per turn, and the median ms of the turns after the first. */
async function measure(target, turns) {
  const http = target.kind === 'http' ? await startHttp(target.args) : undefined;
  const mcp = http ? McpClient.connectHttp({ url: http.url }) : McpClient.connectStdio({ command: process.execPath, args: [server, ...target.args] });
  try {
    const perTurn = [];
    const ms = [];
    for (let turn = 0; turn < turns; turn++) {
      const before = await listed(mcp);
      const started = performance.now();
      await mcp.toolsForLlm();
      await mcp.executeToolCalls([{ id: `call_${turn}`, function: { name: 'echo', arguments: { text: 'hi' } } }]);
      ms.push(performance.now() - started);
      perTurn.push((await listed(mcp)) - before);
    }
    const later = ms.slice(1).sort((a, b) => a - b);
    return { name: target.name, first: perTurn[0], later: perTurn.slice(1), laterMedianMs: later[Math.floor(later.length / 2)] };
  } finally {
    await mcp.close();
    http?.stop();
  }
}

/** Every target in turn. */
export async function listTurns(turns) {
  const rows = [];
  for (const target of TARGETS) rows.push(await measure(target, turns));
  return { turns, rows };
}

/** The section of bench/results/latest.md. */
export function listTurnsTable(name, { turns, rows }) {
  const lines = [
    `### ${name}`,
    '',
    `${turns} turns (\`toolsForLlm()\` then a one-call \`executeToolCalls()\`) against the official SDK server (2025-11-25), tools/list requests counted by the server.`,
    '',
    '| server | first turn | each later turn (mean) | later turn, median ms |',
    '|---|---|---|---|',
  ];
  for (const row of rows) {
    const mean = row.later.reduce((sum, n) => sum + n, 0) / row.later.length;
    lines.push(`| ${row.name} | ${row.first} | ${mean.toFixed(2)} | ${row.laterMedianMs.toFixed(2)} |`);
  }
  return lines.join('\n');
}

/** The scenario as bench/run.mjs runs it. */
export function listTurnsScenarios(quick) {
  return [{ name: 'list-turns: tools/list per model turn', run: () => listTurns(quick ? 5 : 30), table: listTurnsTable }];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const turns = Number(process.argv[2] ?? 30);
  process.stdout.write(listTurnsTable('tools/list per model turn', await listTurns(turns)) + '\n');
}
