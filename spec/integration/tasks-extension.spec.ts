import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { filter, firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { McpClient, McpProtocolError, McpTaskError, StdioTransport, type TaskEvent } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, fixture } from '../support/servers.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the tasks extension (2026-07-28) against a fixture written from its spec', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-tasks-'));
  const server = fixture('tasks-server.mjs', dir);
  const clients: McpClient[] = [];
  const connect = (options: { tasks?: boolean; onElicit?: () => unknown } = { tasks: true }) => {
    const mcp = McpClient.connectStdio({ ...server, ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(async () => {
    await Promise.all(clients.map((mcp) => mcp.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares the extension on every request and follows a task to its result', async () => {
    const transport = new RecordingTransport(new StdioTransport(server));
    const mcp = new McpClient({ transport, tasks: true });
    clients.push(mcp);
    expect(text(await firstValueFrom(mcp.callTool('slow', { ms: 300 })))).toBe('slept 300 ms');
    const [call] = transport.requests('tools/call');
    const meta = call?.params?._meta as Record<string, { extensions?: Record<string, unknown> }>;
    expect(meta['io.modelcontextprotocol/clientCapabilities']?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(call?.params?.task).toBeUndefined();
    expect(transport.requests('tasks/get').length).toBeGreaterThanOrEqual(2);
    // The server decides what becomes a task: nothing to look up first.
    expect(transport.requests('tools/list')).toEqual([]);
  });

  it('takes a direct answer and a task answer from the same tool, as the server chooses', async () => {
    const mcp = connect();
    expect(await lastValueFrom(mcp.callToolAsTask('maybe', { ms: 0 }).pipe(toArray()))).toEqual([
      { kind: 'result', task: undefined, result: { content: [{ type: 'text', text: 'answered at once' }] } },
    ]);
    const events = await lastValueFrom(mcp.callToolAsTask('maybe', { ms: 300 }).pipe(toArray()));
    expect(events.map((event) => (event.kind === 'status' ? event.task.statusMessage : 'result'))).toEqual(['First half', 'Second half', 'Done', 'result']);
    expect(events[0]).toMatchObject({ task: { status: 'working', pollIntervalMs: 100, ttlMs: 60000 } });
  });

  it('gets -32021 from the server when the client did not opt in', async () => {
    const mcp = connect({});
    expect(text(await firstValueFrom(mcp.callTool('quick')))).toBe('quick answer');
    const error = await firstValueFrom(mcp.callTool('slow', { ms: 100 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
  });

  it('answers inputRequests once through onElicit and sends them back with tasks/update', async () => {
    const transport = new RecordingTransport(new StdioTransport(server));
    let asked = 0;
    const mcp = new McpClient({ transport, tasks: true, onElicit: () => (asked++, { action: 'accept', content: { name: 'Luca' } }) });
    clients.push(mcp);
    const events = await lastValueFrom(mcp.callToolAsTask('ask').pipe(toArray()));
    expect(events.map((event) => (event.kind === 'status' ? event.task.status : 'result'))).toEqual(['input_required', 'working', 'completed', 'result']);
    expect(text((events[3] as Extract<TaskEvent, { kind: 'result' }>).result)).toBe('Hello, Luca!');
    expect(asked).toBe(1);
    expect(transport.requests('tasks/update').map((request) => request.params?.inputResponses)).toEqual([{ name: { action: 'accept', content: { name: 'Luca' } } }]);
  });

  it('2025-11-25 client/sampling, Tools in Sampling: declines a task\'s sampling question that offers tools before the hook, when the client did not declare sampling.tools', async () => {
    const transport = new RecordingTransport(new StdioTransport(server));
    const asked: unknown[] = [];
    const warnings: string[] = [];
    const mcp = new McpClient({ transport, tasks: true, onSample: (question) => (asked.push(question), undefined), onWarn: (w) => warnings.push(w) });
    clients.push(mcp);
    const following = mcp.callToolAsTask('ask-sample').subscribe({ error: () => undefined });
    try {
      await eventually(() => transport.requests('tasks/update').length === 1);
      expect(transport.requests('tasks/update')[0]?.params?.inputResponses).toEqual({});
      expect(asked).toEqual([]);
      expect(warnings.some((w) => w.includes('did not declare sampling.tools'))).toBe(true);
    } finally {
      following.unsubscribe();
    }
  });

  it('asks a task\'s sampling question that offers tools of a client that declared sampling.tools, and finishes the task with the answer', async () => {
    const mcp = McpClient.connectStdio({
      ...server,
      tasks: true,
      sampleWithTools: true,
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'Thanks!' }, model: 'spec-model' }),
    });
    clients.push(mcp);
    const events = await lastValueFrom(mcp.callToolAsTask('ask-sample').pipe(toArray()));
    expect(text((events.at(-1) as Extract<TaskEvent, { kind: 'result' }>).result)).toBe('drafted: Thanks!');
  });

  it('tells onElicit which server asks a task\'s question, and never sends an answer that breaks its schema', async () => {
    const transport = new RecordingTransport(new StdioTransport(server));
    const servers: unknown[] = [];
    const warnings: string[] = [];
    const mcp = new McpClient({
      transport,
      tasks: true,
      onWarn: (warning) => warnings.push(warning),
      onElicit: (request) => (servers.push(request.server), { action: 'accept', content: { name: 42 } }),
    });
    clients.push(mcp);
    await expect(lastValueFrom(mcp.callToolAsTask('ask'))).rejects.toThrow('field "name" must be a string');
    expect(servers).toEqual([expect.objectContaining({ name: expect.any(String) })]);
    expect(transport.requests('tasks/update')).toEqual([]);
    expect(warnings.some((warning) => warning.includes('field "name" must be a string'))).toBe(true);
  });

  it('errors with McpTaskError carrying the JSON-RPC error of a task the server failed', async () => {
    const mcp = connect();
    const error = await firstValueFrom(mcp.callTool('fail', { ms: 150 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpTaskError);
    expect(error).toMatchObject({ reason: 'failed', code: -32603, statusMessage: 'API rate limit exceeded' });
  });

  it('errors with McpTaskError expired once the server forgot the task after its ttl', async () => {
    const mcp = connect();
    const error = await firstValueFrom(mcp.callTool('slow', { ms: 2000, ttlMs: 300 })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'McpTaskError', reason: 'expired', code: -32602 });
  });

  it('cancels the task when the subscriber leaves, and no poll runs after that', async () => {
    const mcp = connect();
    const first = await firstValueFrom(mcp.callToolAsTask('slow', { ms: 5000 }).pipe(filter((event) => event.kind === 'status'), take(1)));
    const { taskId } = first.task;
    await sleep(50);
    const polls = Number(text(await firstValueFrom(mcp.callTool('polls', { taskId }))));
    await sleep(500);
    // Five poll intervals later, the server has seen no more tasks/get.
    expect(Number(text(await firstValueFrom(mcp.callTool('polls', { taskId }))))).toBe(polls);
    const resumed = await lastValueFrom(mcp.resumeTask(taskId)).catch((caught: unknown) => caught);
    expect(resumed).toMatchObject({ name: 'McpTaskError', reason: 'cancelled', taskId });
  });

  it('resumes a detached task from a second client in another process', async () => {
    const mcp = connect();
    const first = await firstValueFrom(mcp.callToolAsTask('slow', { ms: 1000 }, { detach: true }));
    const { taskId } = (first as Extract<TaskEvent, { kind: 'status' }>).task;
    await mcp.close();
    const tsx = join(__dirname, '../../node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(tsx, [join(__dirname, '../fixtures/resume-task.ts'), dir, taskId]);
    expect(stdout.trim()).toBe('slept 1000 ms');
  }, 20000);

  it('polls no faster than every 100 ms however short the server\'s pollIntervalMs, nor in a loop when it is longer than a timer holds', async () => {
    const transport = new RecordingTransport(new StdioTransport(server));
    const mcp = new McpClient({ transport, tasks: true });
    clients.push(mcp);
    expect(text(await firstValueFrom(mcp.callTool('slow', { ms: 1000, pollIntervalMs: 1 })))).toBe('slept 1000 ms');
    // About ten at 100 ms; a poll every millisecond makes hundreds.
    expect(transport.requests('tasks/get').length).toBeLessThanOrEqual(20);

    const polled = transport.requests('tasks/get').length;
    const following = mcp.callToolAsTask('slow', { ms: 60000, pollIntervalMs: 1e12 }).subscribe({ error: () => undefined });
    try {
      await sleep(1000);
      expect(transport.requests('tasks/get').length - polled).toBeLessThanOrEqual(1);
    } finally {
      following.unsubscribe();
    }
  }, 20000);
});
