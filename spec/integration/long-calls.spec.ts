import { z } from 'zod';
import { type ExecuteOptions, type LlmToolCall, McpClient, Reasons, Registry, StdioTransport, Toolkit, type ToolProgress } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, fixture } from '../support/servers.js';

// The case is a 90 s build that reports progress, run with a 10 s
// timeout reset on progress. The same 9:1 ratio, scaled down so the suite
// stays fast: a 4.5 s build reporting every 300 ms, with a 500 ms timeout.
const BUILD = { ms: 4500, everyMs: 300 };
const TIMEOUT_MS = 500;
// Where a test needs a long call but not the whole ratio: three timeouts long.
const SHORT_BUILD = { ms: 1500, everyMs: 150 };

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('long calls through the bridge, against a server that reports progress', () => {
  const stderr: string[] = [];
  const transport = new RecordingTransport(new StdioTransport({ ...fixture('long-calls-server.mjs'), onStderr: (line) => stderr.push(line) }));
  const mcp = new McpClient({ transport });
  afterAll(() => mcp.close());

  it('finishes a build nine timeouts long when each progress report restarts the timeout', async () => {
    const progress: ToolProgress[] = [];
    const [answer] = await mcp.executeToolCalls([call('b1', 'build', BUILD)], {
      timeoutMs: TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 20_000,
      onProgress: (report) => progress.push(report),
    });
    expect(answer).toMatchObject({ tool_call_id: 'b1', is_error: false, content: 'build done after 4500 ms' });
    expect(progress.length).toBeGreaterThan(9);
    expect(progress.every((report) => report.toolCallId === 'b1')).toBe(true);
  }, 15_000);

  it('cuts the same build at the timeout without the reset, and says so to the model', async () => {
    const [answer] = await mcp.executeToolCalls([call('b2', 'build', BUILD)], { timeoutMs: TIMEOUT_MS });
    expect(answer).toEqual({ role: 'tool', tool_call_id: 'b2', is_error: true, content: `tools/call got no answer within ${TIMEOUT_MS} ms` });
  }, 15_000);

  it('cuts the build at maxTotalTimeoutMs however much progress it reports, and the server hears the cancellation', async () => {
    stderr.length = 0;
    const [answer] = await mcp.executeToolCalls([call('b3', 'build', BUILD)], { timeoutMs: TIMEOUT_MS, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1500 });
    expect(answer).toMatchObject({ is_error: true, content: 'tools/call got no answer within 1500 ms' });
    await eventually(() => stderr.includes('cancelled build'));
  }, 15_000);

  it('lets one tool run long while the rest of the batch keeps the batch timeout', async () => {
    const answers = await mcp.executeToolCalls([call('p1', 'build', SHORT_BUILD), call('p2', 'chatter', { everyMs: 100 })], {
      timeoutMs: TIMEOUT_MS,
      toolTimeouts: { build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 20_000 } },
    });
    expect(answers.map(({ is_error, content }) => [is_error, content])).toEqual([
      [false, 'build done after 1500 ms'],
      [true, `tools/call got no answer within ${TIMEOUT_MS} ms`],
    ]);
  }, 15_000);

  it('keys per-tool timeouts by the name the model called, through a Registry prefix and a layer that reads names back', async () => {
    const stack = new Reasons({ provider: new Registry().add(mcp, { prefix: 'ci' }) });
    const names = (await stack.toolsForLlm()).map((tool) => tool.function.name);
    expect(names).toContain('ci_build');
    const [answer] = await stack.executeToolCalls([call('r1', 'ci_build', SHORT_BUILD)], {
      timeoutMs: TIMEOUT_MS,
      toolTimeouts: { ci_build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 20_000 }, build: { timeoutMs: 1 } },
    });
    expect(answer).toMatchObject({ is_error: false, content: 'build done after 1500 ms' });
  }, 15_000);

  describe('hostile servers and options', () => {
    it('ends a call whose server reports progress forever at maxTotalTimeoutMs', async () => {
      const [answer] = await mcp.executeToolCalls([call('h1', 'chatter', { everyMs: 50 })], { timeoutMs: TIMEOUT_MS, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1200 });
      expect(answer).toMatchObject({ is_error: true, content: 'tools/call got no answer within 1200 ms' });
    }, 10_000);

    it('ends it at ten timeouts when no cap is given', async () => {
      const started = Date.now();
      const [answer] = await mcp.executeToolCalls([call('h2', 'chatter', { everyMs: 50 })], { timeoutMs: 200, resetTimeoutOnProgress: true });
      expect(answer).toMatchObject({ is_error: true, content: 'tools/call got no answer within 2000 ms' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    }, 10_000);

    it.each(['same', 'falling'])('does not keep alive a call whose progress never rises (%s)', async (mode) => {
      const heard: ToolProgress[] = [];
      const [answer] = await mcp.executeToolCalls([call('h3', 'stuck', { ms: 3000, everyMs: 100, mode })], {
        timeoutMs: TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onProgress: (report) => heard.push(report),
      });
      expect(answer).toMatchObject({ is_error: true, content: `tools/call got no answer within ${TIMEOUT_MS} ms` });
      // The reports still reach the listener: only the clock ignores them.
      expect(heard.length).toBeGreaterThan(1);
    }, 10_000);

    it.each<[string, ExecuteOptions, string]>([
      ['NaN', { timeoutMs: Number.NaN }, 'batch option timeoutMs must be a number of milliseconds, 0 or more; got null'],
      ['negative', { timeoutMs: -1 }, 'batch option timeoutMs must be a number of milliseconds, 0 or more; got -1'],
      ['infinite', { maxTotalTimeoutMs: Number.POSITIVE_INFINITY }, 'batch option maxTotalTimeoutMs must be a number of milliseconds, 0 or more; got null'],
      ['a string', { timeoutMs: '500' as unknown as number }, 'batch option timeoutMs must be a number of milliseconds, 0 or more; got "500"'],
      ['a reset that is not a boolean', { resetTimeoutOnProgress: 'yes' as unknown as boolean }, 'batch option resetTimeoutOnProgress must be a boolean'],
      ['per-tool timeouts as an array', { toolTimeouts: [] as unknown as Record<string, never> }, 'batch option toolTimeouts must be an object keyed by tool name'],
      ['a per-tool key nobody knows', { toolTimeouts: { build: { timeout: 5 } as never } }, 'batch option toolTimeouts["build"] has an unknown key "timeout"'],
      ['a negative per-tool timeout', { toolTimeouts: { build: { timeoutMs: -5 } } }, 'batch option toolTimeouts["build"].timeoutMs must be a number of milliseconds, 0 or more; got -5'],
    ])('answers every call of the batch with why when a timeout is %s, running none', async (_label, options, message) => {
      const sent = transport.requests('tools/call').length;
      const answers = await mcp.executeToolCalls([call('v1', 'build', { ms: 10, everyMs: 5 }), call('v2', 'chatter', { everyMs: 50 })], options);
      expect(answers).toEqual([
        { role: 'tool', tool_call_id: 'v1', is_error: true, content: message },
        { role: 'tool', tool_call_id: 'v2', is_error: true, content: message },
      ]);
      // Through a layer, the same words.
      const [layered] = await new Reasons({ provider: mcp }).executeToolCalls([call('v3', 'build', { ms: 10, everyMs: 5 })], options);
      expect(layered).toMatchObject({ is_error: true, content: message });
      expect(transport.requests('tools/call')).toHaveLength(sent);
    });

    it('lends no tool\'s own timeouts to another call the model gave the same id', async () => {
      // A model that reuses the id of a call with a generous per-tool budget
      // must not run a second tool under that budget.
      const started = Date.now();
      const answers = await mcp.executeToolCalls([call('same', 'build', SHORT_BUILD), call('same', 'chatter', { everyMs: 100 })], {
        timeoutMs: TIMEOUT_MS,
        toolTimeouts: { build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 5000 } },
      });
      expect(answers.map(({ is_error, content }) => [is_error, content])).toEqual([
        [true, `tools/call got no answer within ${TIMEOUT_MS} ms`],
        [true, `tools/call got no answer within ${TIMEOUT_MS} ms`],
      ]);
      expect(Date.now() - started).toBeLessThan(4000);
    }, 15_000);

    it('still gives calls that share an id their own timeouts when they call the same tool', async () => {
      const answers = await mcp.executeToolCalls([call('twice', 'build', SHORT_BUILD), call('twice', 'build', SHORT_BUILD)], {
        timeoutMs: TIMEOUT_MS,
        toolTimeouts: { build: { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 20_000 } },
      });
      expect(answers.map(({ content }) => content)).toEqual(['build done after 1500 ms', 'build done after 1500 ms']);
    }, 15_000);

    it('takes a huge timeout as a very long one, not as one that fires at once', async () => {
      const [answer] = await mcp.executeToolCalls([call('v4', 'build', { ms: 300, everyMs: 100 })], { timeoutMs: 1e12, resetTimeoutOnProgress: true });
      expect(answer).toMatchObject({ is_error: false, content: 'build done after 300 ms' });
    });
  });
});

describe('long calls of a tool that may run as a task (2025-11-25, the official SDK v1)', () => {
  const made: McpClient[] = [];
  const connect = (tasks: boolean) => {
    const transport = new RecordingTransport(new StdioTransport(fixture('optional-task-server.mjs')));
    const mcp = new McpClient({ transport, tasks });
    made.push(mcp);
    return { mcp, transport };
  };
  afterAll(() => Promise.all(made.map((mcp) => mcp.close())));
  const crawl = (id: string) => call(id, 'crawl', { ms: 1500 });

  it('runs it as a task, bounded by the cap alone, when the cap is longer than the timeout', async () => {
    const { mcp, transport } = connect(true);
    const [answer] = await mcp.executeToolCalls([crawl('t1')], { timeoutMs: TIMEOUT_MS, maxTotalTimeoutMs: 10_000 });
    expect(answer).toMatchObject({ is_error: false, content: 'crawled for 1500 ms' });
    expect(transport.requests('tools/call').map((request) => request.params?.task)).toEqual([{}]);
    expect(transport.requests('tasks/get').length + transport.requests('tasks/result').length).toBeGreaterThan(0);
  }, 15_000);

  it('calls it plainly, and cuts it at the timeout, when the batch allows no more than the timeout', async () => {
    const { mcp, transport } = connect(true);
    const [answer] = await mcp.executeToolCalls([crawl('t2')], { timeoutMs: TIMEOUT_MS });
    expect(answer).toMatchObject({ is_error: true, content: `tools/call got no answer within ${TIMEOUT_MS} ms` });
    expect(transport.requests('tools/call').map((request) => request.params?.task)).toEqual([undefined]);
  }, 15_000);

  it('cuts the task at the cap', async () => {
    const { mcp } = connect(true);
    const [answer] = await mcp.executeToolCalls([crawl('t3')], { timeoutMs: 200, maxTotalTimeoutMs: 700 });
    expect(answer).toMatchObject({ is_error: true, content: 'tools/call got no answer within 700 ms' });
  }, 15_000);

  it('asks for no task of a client made without the tasks option', async () => {
    const { mcp, transport } = connect(false);
    const [answer] = await mcp.executeToolCalls([crawl('t4')], { timeoutMs: TIMEOUT_MS, maxTotalTimeoutMs: 10_000 });
    expect(answer).toMatchObject({ is_error: true, content: `tools/call got no answer within ${TIMEOUT_MS} ms` });
    expect(transport.requests('tools/call').map((request) => request.params?.task)).toEqual([undefined]);
  }, 15_000);
});

describe('long calls of a Toolkit handler', () => {
  const aborted: string[] = [];
  const local = new Toolkit({ name: 'local' })
    .tool('wait', { input: z.object({ ms: z.number() }) }, ({ ms }, { toolCallId, signal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: `waited ${ms} ms` }] }), ms);
        signal?.addEventListener('abort', () => (clearTimeout(timer), aborted.push(toolCallId ?? '')), { once: true });
      }),
    );

  it('cuts a handler at timeoutMs, aborting its signal, as a server call would be', async () => {
    const [answer] = await local.executeToolCalls([call('k1', 'wait', { ms: 5000 })], { timeoutMs: 200 });
    expect(answer).toEqual({ role: 'tool', tool_call_id: 'k1', is_error: true, content: 'tools/call got no answer within 200 ms' });
    expect(aborted).toContain('k1');
  });

  it('lets a handler run as long as its own per-tool timeout says', async () => {
    const [answer] = await local.executeToolCalls([call('k2', 'wait', { ms: 400 })], { timeoutMs: 100, toolTimeouts: { wait: { timeoutMs: 5000 } } });
    expect(answer).toMatchObject({ is_error: false, content: 'waited 400 ms' });
  });

  it('reads only own keys of toolTimeouts, never an inherited entry', async () => {
    const [answer] = await local.executeToolCalls([call('k5', 'wait', { ms: 100 })], { toolTimeouts: Object.create({ wait: { timeoutMs: 1 } }) as Record<string, never> });
    expect(answer).toMatchObject({ is_error: false, content: 'waited 100 ms' });
  });

  it('leaves a handler unbounded without a timeout, and with one past what a timer holds', async () => {
    const answers = await local.executeToolCalls([call('k3', 'wait', { ms: 300 }), call('k4', 'wait', { ms: 300 })], { toolTimeouts: { wait: { timeoutMs: 2 ** 40 } } });
    expect(answers.map((answer) => answer.content)).toEqual(['waited 300 ms', 'waited 300 ms']);
  });
});
