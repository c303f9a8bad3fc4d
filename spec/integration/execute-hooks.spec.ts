import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import {
  type CallToolResult,
  type InputRequest,
  type LlmToolCall,
  McpClient,
  McpClientError,
  normalizeServerConfig,
  Policy,
  type PolicyQuestion,
  Reasons,
  Registry,
  Toolkit,
  type ProgressEvent,
  type ToolProgress,
} from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually, everythingServer, fixture, modernServer } from '../support/servers.js';

// The batch's own hooks (ExecuteOptions onResult, onProgress and input)
// against real servers: the SDK v2 fixture in both eras, server-everything,
// the fixture as a 2025-11-25 Streamable HTTP server with sessions, and a
// whole provider stack.

const call = (id: string, name: string, args: Record<string, unknown> = {}): LlmToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** An elicitation hook that records the messages it is asked and answers with `answer`. */
function asker(answer: (request: InputRequest) => unknown) {
  const asked: string[] = [];
  const hook = (request: InputRequest) => {
    asked.push(String(request.params.message));
    return answer(request);
  };
  return { asked, hook };
}

/** The client's own hook, which these tests expect never to be asked. */
function ownHook() {
  const asked: string[] = [];
  return { asked, hook: (request: InputRequest) => (asked.push(String(request.params.message)), { action: 'decline' }) };
}

const servers = [
  {
    era: '2026-07-28 (SDK fixture)',
    server: modernServer,
    image: 'image',
    progress: { tool: 'count', args: { steps: 3 } },
    elicit: { tool: 'deploy', args: { env: 'prod' }, content: { confirm: true }, answered: 'deployed to prod', message: 'Deploy to prod?' },
  },
  {
    era: '2025-11-25 (SDK fixture, its legacy shim)',
    server: { ...modernServer, era: 'legacy' as const },
    image: 'image',
    progress: { tool: 'count', args: { steps: 3 } },
    elicit: { tool: 'deploy', args: { env: 'prod' }, content: { confirm: true }, answered: 'deployed to prod', message: 'Deploy to prod?' },
  },
  {
    era: '2025-11-25 (server-everything)',
    server: everythingServer,
    image: 'get-tiny-image',
    progress: { tool: 'trigger-long-running-operation', args: { duration: 0.3, steps: 3 } },
    elicit: { tool: 'trigger-elicitation-request', args: {}, content: { name: 'Ada Lovelace' }, answered: '- Name: Ada Lovelace', message: undefined },
  },
];

describe.each(servers)('a batch with hooks of its own, $era over stdio', ({ server, era, image, progress, elicit }) => {
  let mcp: McpClient;
  const own = ownHook();
  beforeAll(async () => {
    mcp = McpClient.connectStdio({ ...server, onElicit: own.hook });
    expect((await firstValueFrom(mcp.describe())).protocolVersion).toBe(era.slice(0, 10));
  });
  afterAll(() => mcp.close());

  it('tells onResult each result as callTool gives it, image and all, and nothing for a call that got none', async () => {
    const direct = await firstValueFrom(mcp.callTool(image));
    expect(direct.content.map((block) => block.type)).toContain('image');
    const told: Array<[string, CallToolResult]> = [];
    const answers = await mcp.executeToolCalls([call('picture', image), call('nothing', 'no-such-tool')], {
      onResult: (id, result) => told.push([id, result]),
    });
    expect(told).toEqual([['picture', direct]]);
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(['picture', 'nothing']);
    expect(answers[1]).toMatchObject({ is_error: true, content: 'Unknown tool: no-such-tool' });
  });

  it("tells onProgress the progress of the batch's call under its id, with no onProgress on the client", async () => {
    const reports: ToolProgress[] = [];
    const [answer] = await mcp.executeToolCalls([call('counting', progress.tool, progress.args)], { onProgress: (report) => reports.push(report) });
    expect(answer?.is_error).toBe(false);
    expect(reports.map(({ toolCallId, progress: step, total }) => ({ toolCallId, step, total }))).toEqual(
      [1, 2, 3].map((step) => ({ toolCallId: 'counting', step, total: 3 })),
    );
  });

  it("answers the call's elicitation with the batch's input, and never asks the client's own hook", async () => {
    const mine = asker(() => accept(elicit.content));
    const [answer] = await mcp.executeToolCalls([call('asking', elicit.tool, elicit.args)], { input: { onElicit: mine.hook } });
    expect(answer?.is_error).toBe(false);
    expect(answer?.content).toContain(elicit.answered);
    expect(mine.asked).toHaveLength(1);
    if (elicit.message) expect(mine.asked).toEqual([elicit.message]);
    expect(own.asked).toEqual([]);
  });
});

describe('two batches at once, each with its own input', () => {
  const concurrently = async (mcp: McpClient) => {
    const first = asker(() => accept({ confirm: true }));
    const second = asker(() => ({ action: 'decline' }));
    const [a, b] = await Promise.all([
      mcp.executeToolCalls([call('a', 'deploy', { env: 'alpha' })], { input: { onElicit: first.hook } }),
      mcp.executeToolCalls([call('b', 'deploy', { env: 'beta' })], { input: { onElicit: second.hook } }),
    ]);
    expect(a[0]?.content).toBe('deployed to alpha');
    expect(b[0]?.content).toBe('not deployed: decline');
    expect(first.asked).toEqual(['Deploy to alpha?']);
    expect(second.asked).toEqual(['Deploy to beta?']);
  };

  it('on a 2026-07-28 server: each call\'s input_required rounds go to its own batch', async () => {
    const own = ownHook();
    const mcp = McpClient.connectStdio({ ...modernServer, onElicit: own.hook });
    try {
      await concurrently(mcp);
      expect(own.asked).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  describe('on a 2025-11-25 Streamable HTTP server, which asks on the call\'s own response stream', () => {
    let server: RunningServer;
    let mcp: McpClient;
    const own = asker(() => accept({ confirm: true, colour: 'own' }));
    beforeAll(async () => {
      server = await startHttpServer('legacy-http-server.mjs');
      mcp = McpClient.connectHttp({ url: server.url, onElicit: own.hook });
      expect((await firstValueFrom(mcp.describe())).era).toBe('legacy');
    });
    afterAll(async () => {
      await mcp.close();
      await server.stop();
    });
    beforeEach(() => own.asked.splice(0));

    it('routes each question to the batch whose call it came with', async () => {
      await concurrently(mcp);
      expect(own.asked).toEqual([]);
    });

    it("leaves the question of a call without input to the client's own hook while a batch with input runs", async () => {
      const batch = asker(() => accept({ confirm: false }));
      const before = server.stderr.length;
      const running = mcp.executeToolCalls([call('slow', 'sleep', { ms: 1500 })], { input: { onElicit: batch.hook } });
      await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('started sleep')));
      const plain = await firstValueFrom(mcp.callTool('deploy', { env: 'gamma' }));
      expect(plain.content[0]).toMatchObject({ text: 'deployed to gamma' });
      expect(own.asked).toEqual(['Deploy to gamma?']);
      expect(batch.asked).toEqual([]);
      expect((await running)[0]?.is_error).toBe(false);
    });

    it('gives a question tied to no call (the GET stream) to the running call with input', async () => {
      const batch = asker(() => accept({ colour: 'blue' }));
      const [answer] = await mcp.executeToolCalls([call('aside', 'ask-aside')], { input: { onElicit: batch.hook } });
      expect(answer?.content).toBe('accept: blue');
      expect(batch.asked).toEqual(['Which colour?']);
      expect(own.asked).toEqual([]);
    });
  });
});

describe('a batch whose calls become tasks (client option tasks)', () => {
  it("answers a 2026-07-28 task's question with the batch's input", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxmcp-execute-hooks-'));
    const own = ownHook();
    const mcp = McpClient.connectStdio({ ...fixture('tasks-server.mjs', dir), tasks: true, onElicit: own.hook });
    try {
      const mine = asker(() => accept({ name: 'Luca' }));
      const [answer] = await mcp.executeToolCalls([call('task', 'ask')], { input: { onElicit: mine.hook } });
      expect(answer).toMatchObject({ is_error: false, content: 'Hello, Luca!' });
      expect(mine.asked).toHaveLength(1);
      expect(own.asked).toEqual([]);
    } finally {
      await mcp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers a 2025-11-25 task's question (asked while tasks/result is open) with the batch's input", async () => {
    const own = ownHook();
    const mcp = McpClient.connectStdio({ ...everythingServer, tasks: true, onElicit: own.hook });
    try {
      const mine = asker(() => accept({ interpretation: 'historical' }));
      const [answer] = await mcp.executeToolCalls([call('research', 'simulate-research-query', { topic: 'rust', ambiguous: true })], {
        input: { onElicit: mine.hook },
      });
      expect(answer?.is_error).toBe(false);
      expect(answer?.content).toContain('rust (historical)');
      expect(mine.asked).toHaveLength(1);
      expect(own.asked).toEqual([]);
    } finally {
      await mcp.close();
    }
  }, 20000);
});

describe("callTool's own onProgress and input", () => {
  let mcp: McpClient;
  const own = ownHook();
  const warnings: string[] = [];
  beforeAll(() => {
    mcp = McpClient.connectStdio({ ...modernServer, onElicit: own.hook, onWarn: (warning) => warnings.push(warning) });
  });
  afterAll(() => mcp.close());

  it('reports progress under the token given, or one minted for the call', async () => {
    const given: ProgressEvent[] = [];
    await firstValueFrom(mcp.callTool('count', { steps: 2 }, { progressToken: 'mine', onProgress: (event) => given.push(event) }));
    expect(given.map(({ progressToken, progress }) => [progressToken, progress])).toEqual([
      ['mine', 1],
      ['mine', 2],
    ]);
    const minted: ProgressEvent[] = [];
    await firstValueFrom(mcp.callTool('count', { steps: 2 }, { onProgress: (event) => minted.push(event) }));
    expect(minted.map(({ progress }) => progress)).toEqual([1, 2]);
    expect(typeof minted[0]?.progressToken).toBe('string');
  });

  it('goes on when its onProgress throws, and says so', async () => {
    const result = await firstValueFrom(
      mcp.callTool('count', { steps: 1 }, {
        onProgress: () => {
          throw new Error('listener broke');
        },
      }),
    );
    expect(result.content[0]).toMatchObject({ text: 'counted to 1' });
    expect(warnings).toContain('onProgress of a call threw: listener broke');
  });

  it("answers the call's questions with its input", async () => {
    const mine = asker(() => accept({ confirm: true }));
    const result = await firstValueFrom(mcp.callTool('deploy', { env: 'qa' }, { input: { onElicit: mine.hook } }));
    expect(result.content[0]).toMatchObject({ text: 'deployed to qa' });
    expect(mine.asked).toEqual(['Deploy to qa?']);
    expect(own.asked).toEqual([]);
  });

  it('throws McpClientError for hooks that cannot be called', () => {
    expect(() => mcp.callTool('echo', { text: 'x' }, { onProgress: 'yes' as never })).toThrow(new McpClientError('option onProgress must be a function'));
    expect(() => mcp.callTool('echo', { text: 'x' }, { input: { onElicit: 1 } as never })).toThrow(new McpClientError('option input.onElicit must be a function'));
    expect(() => mcp.callTool('echo', { text: 'x' }, { input: { onAsk: () => 1 } as never })).toThrow(new McpClientError('option input has an unknown hook: "onAsk"'));
  });
});

describe('through a provider stack: Registry.fromConfig, Reasons, Policy', () => {
  it('still delivers results, progress and questions to the batch, for a call the policy asked about too', async () => {
    const own = ownHook();
    const registry = await Registry.fromConfig(normalizeServerConfig({ mcpServers: { fx: modernServer } }), { client: { onElicit: own.hook } });
    const questions: string[] = [];
    const policy = new Policy({
      provider: new Reasons({ provider: registry }),
      rules: [
        { tool: 'fx_deploy', decision: 'ask' },
        { tool: 'fx_*', decision: 'allow' },
      ],
      onAsk: (question: PolicyQuestion) => {
        questions.push(question.kind === 'permission' ? question.tool : question.kind);
        return { action: 'allow-once' };
      },
    });
    try {
      expect((await policy.toolsForLlm()).map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['fx_image', 'fx_count', 'fx_deploy']));
      const told: Array<[string, CallToolResult]> = [];
      const reports: ToolProgress[] = [];
      const mine = asker(() => accept({ confirm: true }));
      const answers = await policy.executeToolCalls(
        [call('picture', 'fx_image', { reason: 'to look' }), call('counting', 'fx_count', { steps: 2, reason: 'to count' }), call('asking', 'fx_deploy', { env: 'prod', reason: 'to ship' })],
        { onResult: (id, result) => told.push([id, result]), onProgress: (report) => reports.push(report), input: { onElicit: mine.hook } },
      );
      expect(answers.map((answer) => [answer.tool_call_id, answer.is_error])).toEqual([
        ['picture', false],
        ['counting', false],
        ['asking', false],
      ]);
      expect(answers[2]?.content).toBe('deployed to prod');
      expect(questions).toEqual(['fx_deploy']);
      expect(told.map(([id]) => id)).toEqual(['picture', 'counting', 'asking']);
      expect(told[0]?.[1].content).toEqual([
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'fixture://readme', name: 'readme' },
      ]);
      expect(reports.map(({ toolCallId, progress }) => [toolCallId, progress])).toEqual([
        ['counting', 1],
        ['counting', 2],
      ]);
      expect(mine.asked).toEqual(['Deploy to prod?']);
      expect(own.asked).toEqual([]);
    } finally {
      await registry.close();
    }
  });
});

describe('a Toolkit', () => {
  const toolkit = new Toolkit({ name: 'local' }).tool('picture', { description: 'A picture', input: z.object({}) }, () => ({
    content: [
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: 'a picture' },
    ],
  }));

  it('tells onResult the result its handler gave', async () => {
    const told: Array<[string, CallToolResult]> = [];
    await toolkit.executeToolCalls([call('p', 'picture')], { onResult: (id, result) => told.push([id, result]) });
    expect(told).toEqual([
      [
        'p',
        {
          content: [
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'text', text: 'a picture' },
          ],
        },
      ],
    ]);
  });

  it('keeps its answers when onResult throws', async () => {
    let told = 0;
    const [answer] = await toolkit.executeToolCalls([call('p', 'picture')], {
      onResult: () => {
        told++;
        throw new Error('listener broke');
      },
    });
    expect(told).toBe(1);
    expect(answer).toMatchObject({ tool_call_id: 'p', is_error: false });
  });

  it('refuses a batch whose hooks cannot be called, running nothing', async () => {
    let ran = 0;
    const counting = new Toolkit({ name: 'counting' }).tool('once', { input: z.object({}) }, () => (ran++, { content: [] }));
    const bad = [{ onResult: 'yes' }, { onProgress: 1 }, { input: { onElicit: 'accept' } }, { input: { onAsk: () => undefined } }, { input: 'hooks' }];
    for (const options of bad) {
      const [answer] = await counting.executeToolCalls([call('x', 'once')], options as never);
      expect(answer).toMatchObject({ tool_call_id: 'x', is_error: true, content: expect.stringMatching(/^batch option (onResult|onProgress|input)/) });
    }
    expect(ran).toBe(0);
  });
});
