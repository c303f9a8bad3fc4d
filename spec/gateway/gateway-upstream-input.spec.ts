import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { firstValueFrom } from 'rxjs';
import { Gateway } from '../../src/gateway/index.js';
import { type InputRequest, McpClient } from '../../src/index.js';

// An upstream 2026-07-28 server that asks its client questions with
// input_required (spec/fixtures/conformance-server.mjs, over HTTP), served
// through an in-process gateway to rxmcp as the host: the host must see the
// server's own question keys, and the questions of prompts/get as well as
// of tools/call.

let upstreamProcess: ChildProcess;
let upstream: McpClient;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
let host: McpClient;
const asked: InputRequest[] = [];

function startUpstream(): Promise<string> {
  upstreamProcess = spawn(process.execPath, [join(__dirname, '..', 'fixtures', 'conformance-server.mjs'), '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  upstreamProcess.stderr?.resume();
  return new Promise((resolve, reject) => {
    upstreamProcess.once('exit', (code) => reject(new Error(`the conformance server exited with ${code}`)));
    createInterface({ input: upstreamProcess.stdout! }).once('line', (line) => resolve(line.trim()));
  });
}

beforeAll(async () => {
  const url = await startUpstream();
  upstream = McpClient.connectHttp({
    url,
    onElicit: (request) => gateway.upstreamHooks.onElicit(request),
    onSample: (request) => gateway.upstreamHooks.onSample(request),
    onListRoots: (request) => gateway.upstreamHooks.onListRoots(request),
  });
  gateway = new Gateway({ provider: upstream, servers: { '': upstream } });
  served = await gateway.listen({ port: 0, bearerToken: false });
  host = McpClient.connectHttp({
    url: served.url,
    onElicit: (request) => {
      asked.push(request);
      const field = Object.keys((request.params.requestedSchema as { properties: Record<string, unknown> }).properties)[0] as string;
      return { action: 'accept', content: { [field]: 'Ada' } };
    },
  });
}, 30_000);

afterAll(async () => {
  await host?.close();
  await gateway?.close();
  await served?.close();
  await upstream?.close();
  if (upstreamProcess && upstreamProcess.exitCode === null) {
    const exited = new Promise((resolve) => upstreamProcess.once('exit', resolve));
    upstreamProcess.kill('SIGTERM');
    await exited;
  }
});

beforeEach(() => {
  asked.length = 0;
});

describe("an upstream server's input_required questions, through the gateway", () => {
  it("reach the host under the server's own key, and the answer goes back", async () => {
    const result = await firstValueFrom(host.callTool('test_input_required_result_elicitation'));
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(asked.map((request) => request.key)).toEqual(['user_name']);
  });

  it('reach the host for prompts/get too, and the retry renders the prompt', async () => {
    const prompt = await firstValueFrom(host.getPrompt('test_input_required_result_prompt'));
    expect(asked.map((request) => [request.method, request.key])).toEqual([['elicitation/create', 'user_context']]);
    expect(JSON.stringify(prompt.messages)).toContain('Prompt with context: Ada');
  });
});
