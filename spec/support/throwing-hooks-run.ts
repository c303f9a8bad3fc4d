// Runs a client whose onWarn, onLog and onProgress hooks all throw against
// servers that give them plenty to report, in a process of its own (jest
// would catch an unhandled rejection or an uncaught exception before these
// listeners could count it).
//
//   node --import tsx throwing-hooks-run.ts
//
// Prints one JSON line: { answers, problems, unhandled, uncaught }.
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { startHttpServer } from './http-servers.js';
import { watchProcessFaults } from './process-faults.js';
import { eventually, fixture } from './servers.js';

const faults = watchProcessFaults();
const { problems } = faults;
let answers = 0;

let warned = 0;
const hooks = {
  onWarn: () => {
    warned++;
    throw new Error('onWarn threw');
  },
  onLog: () => {
    throw new Error('onLog threw');
  },
  onProgress: () => {
    throw new Error('onProgress threw');
  },
};

async function answered(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    answers++;
  } catch (error) {
    problems.push(`${label} failed: ${String(error)}`);
  }
}

async function main(): Promise<void> {
  // Over stdio: lines that are not JSON-RPC, answers nobody asked for and a log message around every answer.
  const stdio = McpClient.connectStdio({ ...fixture('garbage-server.mjs'), ...hooks });
  await answered('stdio callTool', () => firstValueFrom(stdio.callTool('echo', { text: 'a' })));
  await answered('stdio callTool again', () => firstValueFrom(stdio.callTool('echo', { text: 'b' })));
  await stdio.close();

  // Over 2025-11-25 HTTP: a GET stream that hangs up after one log message, re-opened once, then given up on.
  const server = await startHttpServer('legacy-faults.mjs', '--storm', 'event');
  const http = McpClient.connectHttp({ url: server.url, reconnect: { maxAttempts: 1 }, ...hooks });
  try {
    const before = warned;
    await answered('http describe', () => firstValueFrom(http.describe()));
    await eventually(() => warned > before, 5000).catch(() => problems.push('the GET stream was never given up on'));
    await answered('http callTool', () => firstValueFrom(http.callTool('whoami')));
    await http.close();
  } finally {
    await server.stop();
  }
  // Let any late rejection surface before counting.
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.stdout.write(`${JSON.stringify({ answers, problems, unhandled: faults.unhandled, uncaught: faults.uncaught })}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ answers, problems: [...problems, `the run failed: ${String(error)}`], unhandled: faults.unhandled, uncaught: faults.uncaught })}\n`);
});
