import { filter, firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { McpClient, type TaskEvent } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// The 2025-11-25 tasks over legacy Streamable HTTP: each request its own
// POST, tasks/result held open on its own stream while the task's questions
// come down it, and the task store kept per session.
const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

describe('tasks on server-everything over legacy Streamable HTTP', () => {
  let server: RunningServer;
  let mcp: McpClient;
  const asked: string[] = [];
  beforeAll(async () => {
    server = await startHttpServer('everything-http.mjs');
    mcp = McpClient.connectHttp({
      url: server.url,
      tasks: true,
      onElicit: ({ params }) => (asked.push(String(params.message)), { action: 'accept', content: { interpretation: 'historical' } }),
    });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it('resolves callTool on simulate-research-query with its report', async () => {
    const result = await firstValueFrom(mcp.callTool('simulate-research-query', { topic: 'rust' }));
    expect(text(result)).toContain('# Research Report: rust');
  }, 20000);

  it('answers the task\'s question through onElicit, and the answer shows in the report', async () => {
    const events = await lastValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'rust', ambiguous: true }).pipe(toArray()));
    expect(asked).toHaveLength(1);
    const statuses = events.filter((event) => event.kind === 'status').map((event) => event.task.status);
    expect(statuses).toContain('input_required');
    const last = events.at(-1) as Extract<TaskEvent, { kind: 'result' }>;
    expect(text(last.result)).toContain('rust (historical)');
  }, 20000);

  it('leaves the task cancelled on the server when the caller unsubscribes', async () => {
    const first = await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'go' }).pipe(filter((event) => event.kind === 'status'), take(1)));
    const { taskId } = first.task;
    let status: string | undefined;
    for (let tries = 0; tries < 50 && status !== 'cancelled'; tries++) {
      status = (await firstValueFrom(mcp.listTasks())).find((task) => task.taskId === taskId)?.status;
      if (status !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('cancelled');
    await expect(lastValueFrom(mcp.resumeTask(taskId))).rejects.toMatchObject({ name: 'McpTaskError', reason: 'cancelled', taskId });
  }, 20000);

  it('detaches, then resumes the task on the same client to its report', async () => {
    const first = await firstValueFrom(mcp.callToolAsTask('simulate-research-query', { topic: 'detached' }, { detach: true }));
    const { taskId } = (first as Extract<TaskEvent, { kind: 'status' }>).task;
    expect((await firstValueFrom(mcp.listTasks())).find((task) => task.taskId === taskId)?.status).toBe('working');
    const resumed = await lastValueFrom(mcp.resumeTask(taskId));
    expect(resumed.kind).toBe('result');
    if (resumed.kind === 'result') expect(text(resumed.result)).toContain('# Research Report: detached');
  }, 20000);
});
