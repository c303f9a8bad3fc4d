import { firstValueFrom, lastValueFrom, filter, merge, type Observable, Subject, take, toArray } from 'rxjs';
import {
  type ConnectionState,
  type JsonRpcMessage,
  type JsonRpcRequest,
  McpClient,
  McpTaskError,
  type RequestId,
  RestartingTransport,
  StdioTransport,
  type TaskEvent,
  type Transport,
} from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, everythingServer } from '../support/servers.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

describe('tasks on server-everything over stdio (2025-11-25)', () => {
  const clients: McpClient[] = [];
  const connect = (options: Partial<Parameters<typeof McpClient.connectStdio>[0]> = {}) => {
    const mcp = McpClient.connectStdio({ ...everythingServer, tasks: true, ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('resolves callTool on a tool that requires a task with its report', async () => {
    const mcp = connect();
    const result = await firstValueFrom(mcp.callTool('simulate-research-query', { topic: 'rust' }));
    expect(text(result)).toContain('# Research Report: rust');
  }, 20000);

  it('answers the task\'s question through onElicit and the answer shows in the report', async () => {
    const asked: string[] = [];
    const mcp = connect({
      onElicit: ({ params }) => (asked.push(String(params.message)), { action: 'accept', content: { interpretation: 'historical' } }),
    });
    const events = await lastValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'rust', ambiguous: true }).pipe(toArray()));
    expect(asked).toHaveLength(1);
    const last = events[events.length - 1] as Extract<TaskEvent, { kind: 'result' }>;
    expect(last.kind).toBe('result');
    expect(text(last.result)).toContain('rust (historical)');
    const statuses = events.filter((event) => event.kind === 'status').map((event) => event.task.status);
    expect(statuses[0]).toBe('working');
    expect(statuses).toContain('input_required');
  }, 20000);

  it('streams status messages with the server\'s poll interval, then the result', async () => {
    const mcp = connect();
    const events = await lastValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'rust' }).pipe(toArray()));
    const first = events[0];
    expect(first?.kind).toBe('status');
    if (first?.kind === 'status') expect(first.task).toMatchObject({ status: 'working', pollIntervalMs: 1000, ttlMs: 300000 });
    expect(events.some((event) => event.kind === 'status' && event.task.statusMessage === 'Analyzing content...')).toBe(true);
    expect(events[events.length - 1]?.kind).toBe('result');
  }, 20000);

  it('leaves the task cancelled on the server when the caller unsubscribes, and polls no more', async () => {
    const transport = new RecordingTransport(new StdioTransport(everythingServer));
    const mcp = new McpClient({ transport, tasks: true });
    clients.push(mcp);
    const first = await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'rust' }).pipe(filter((event) => event.kind === 'status'), take(1)));
    // take(1) unsubscribed: the task is cancelled, and nobody polls it any more.
    const { taskId } = first.task;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(transport.requests('tasks/cancel').map((request) => request.params?.taskId)).toEqual([taskId]);
    const polls = transport.requests('tasks/get').length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(transport.requests('tasks/get').length).toBe(polls);
    const tasks = await firstValueFrom(mcp.listTasks());
    expect(tasks.find((task) => task.taskId === taskId)?.status).toBe('cancelled');
    await expect(lastValueFrom(mcp.resumeTask(taskId))).rejects.toMatchObject({ name: 'McpTaskError', reason: 'cancelled', taskId });
  }, 20000);

  it('ends the task with tasks/cancel when the call times out', async () => {
    const mcp = connect();
    const seen: string[] = [];
    const call = mcp.callToolAsTask('simulate-research-query', { topic: 'rust' }, { timeoutMs: 1500 });
    await expect(lastValueFrom(call.pipe(filter((event) => (event.kind === 'status' && seen.push(event.task.taskId), true))))).rejects.toMatchObject({ name: 'McpTimeoutError' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [task] = (await firstValueFrom(mcp.listTasks())).filter((listed) => listed.taskId === seen[0]);
    expect(task?.status).toBe('cancelled');
  }, 20000);

  it('detaches, then resumes the task on the same client to its result', async () => {
    const mcp = connect();
    const first = await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'detached' }, { detach: true }));
    expect(first.kind).toBe('status');
    const { taskId } = (first as Extract<TaskEvent, { kind: 'status' }>).task;
    const resumed = await lastValueFrom(mcp.resumeTask(taskId));
    expect(resumed.kind).toBe('result');
    if (resumed.kind === 'result') expect(text(resumed.result)).toContain('# Research Report: detached');
  }, 20000);

  it('cancels a task by id, and the task then errors with McpTaskError', async () => {
    const mcp = connect();
    const first = await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'x' }, { detach: true }));
    const taskId = (first as Extract<TaskEvent, { kind: 'status' }>).task.taskId;
    await firstValueFrom(mcp.cancelTask(taskId));
    const error = await lastValueFrom(mcp.resumeTask(taskId)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpTaskError);
  }, 20000);

  it('leaves calls of ordinary tools untouched', async () => {
    const mcp = connect();
    expect(text(await firstValueFrom(mcp.callTool('echo', { message: 'hi' })))).toContain('hi');
    const events = await lastValueFrom(mcp.callToolAsTask('echo', { message: 'hi' }).pipe(toArray()));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'result', task: undefined });
  }, 20000);

  it('refuses task calls without the tasks option', async () => {
    const mcp = McpClient.connectStdio({ ...everythingServer });
    clients.push(mcp);
    await expect(firstValueFrom(mcp.listTasks())).rejects.toThrow('tasks/list needs the client option tasks: true');
  });
});

// Records what the client sends, passes restarts on, and puts a tool-list
// change on the wire when told: server-everything announces changes only
// while it starts up, racing the client's first list.
class CountingWire implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  readonly inbound: Observable<JsonRpcMessage>;
  readonly restarts$: Observable<void> | undefined;
  readonly outbound = { next: (message: JsonRpcMessage) => this.send(message), error: () => undefined, complete: () => undefined };
  private readonly announced = new Subject<JsonRpcMessage>();
  constructor(readonly inner: Transport) {
    this.inbound = merge(inner.inbound, this.announced);
    this.restarts$ = inner.restarts$;
  }
  requests(method: string): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'id' in m && 'method' in m && m.method === method);
  }
  announceToolsChanged(): void {
    this.announced.next({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  }
  cancel(id: RequestId, reason?: string): void {
    this.inner.cancel(id, reason);
  }
  async close(): Promise<void> {
    await this.inner.close();
    this.announced.complete();
  }
  private send(message: JsonRpcMessage): void {
    this.sent.push(message);
    this.inner.outbound.next(message);
  }
}

describe('what server-everything\'s tools support, kept per session', () => {
  const clients: McpClient[] = [];
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));
  // A session past its start-up, when server-everything's own list changes have arrived.
  const settle = async (mcp: McpClient): Promise<void> => {
    let changes = 0;
    const counting = mcp.notifications$.pipe(filter((note) => note.method === 'notifications/tools/list_changed')).subscribe(() => changes++);
    await firstValueFrom(mcp.describe());
    await eventually(() => changes > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    counting.unsubscribe();
  };
  const settled = async (wire: CountingWire): Promise<McpClient> => {
    const mcp = new McpClient({ transport: wire, tasks: true });
    clients.push(mcp);
    await settle(mcp);
    return mcp;
  };
  const taskOf = (wire: CountingWire, tool: string) => wire.requests('tools/call').filter((call) => call.params?.name === tool).map((call) => call.params?.task);

  it('lists the tools for the first call only, and still asks for a task where the tool requires one', async () => {
    const wire = new CountingWire(new StdioTransport(everythingServer));
    const mcp = await settled(wire);
    await firstValueFrom(mcp.callTool('echo', { message: 'one' }));
    await firstValueFrom(mcp.callTool('echo', { message: 'two' }));
    // take(1) leaves after the first status, which cancels the task.
    await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'once' }));
    expect(wire.requests('tools/list')).toHaveLength(1);
    expect(taskOf(wire, 'echo')).toEqual([undefined, undefined]);
    expect(taskOf(wire, 'simulate-research-query')).toEqual([{}]);
  }, 20000);

  it('learns from a list the caller asked for', async () => {
    const wire = new CountingWire(new StdioTransport(everythingServer));
    const mcp = await settled(wire);
    await firstValueFrom(mcp.listTools());
    await firstValueFrom(mcp.callTool('echo', { message: 'hi' }));
    expect(wire.requests('tools/list')).toHaveLength(1);
  }, 20000);

  it('lists again after the server says its tools changed', async () => {
    const wire = new CountingWire(new StdioTransport(everythingServer));
    const mcp = await settled(wire);
    await firstValueFrom(mcp.callTool('echo', { message: 'one' }));
    wire.announceToolsChanged();
    await firstValueFrom(mcp.callTool('echo', { message: 'two' }));
    await firstValueFrom(mcp.callTool('echo', { message: 'three' }));
    expect(wire.requests('tools/list')).toHaveLength(2);
  }, 20000);

  it('lists again in a new session, after the server restarted', async () => {
    const restarting = new RestartingTransport(everythingServer, { maxAttempts: 2, delayMs: 50 });
    const wire = new CountingWire(restarting);
    const mcp = await settled(wire);
    const states: ConnectionState[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    await firstValueFrom(mcp.callTool('echo', { message: 'one' }));
    await firstValueFrom(mcp.callTool('echo', { message: 'two' }));
    process.kill(restarting.pid as number, 'SIGKILL');
    await eventually(() => states.includes('restarting'));
    await settle(mcp);
    await firstValueFrom(mcp.callTool('echo', { message: 'three' }));
    await firstValueFrom(mcp.callTool('echo', { message: 'four' }));
    expect(wire.requests('initialize')).toHaveLength(2);
    expect(wire.requests('tools/list')).toHaveLength(2);
  }, 20000);
});
