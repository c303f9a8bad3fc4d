// The client as receiver of 2025-11-25 tasks, driven through the answering of
// server requests with a scripted server (unit tests of the machinery, and a
// hostile server's floods).
import { Subject } from 'rxjs';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../../src/protocol/jsonrpc.js';
import type { InputHooks } from '../../../src/protocol/input-request.js';
import { serveServerRequests } from '../../../src/client/questions/server-requests.js';
import { clientTasksCapability, MAX_CLIENT_TASKS } from '../../../src/client/tasks/client-side-tasks.js';
import { capabilitiesOf } from '../../../src/client/questions/input-hooks.js';

const sampled = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
const question = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };

// Every serving started by a test, ended after it: a task's ttl timer would
// otherwise hold the process up to an hour after the last test.
const serving: Array<{ unsubscribe(): void }> = [];
afterEach(() => serving.splice(0).forEach((subscription) => subscription.unsubscribe()));

function serve(hooks: InputHooks, withTasks = true) {
  const requests$ = new Subject<JsonRpcRequest>();
  const notifications$ = new Subject<JsonRpcNotification>();
  const restarts$ = new Subject<void>();
  const sent: JsonRpcResponse[] = [];
  const warnings: string[] = [];
  const capabilities = capabilitiesOf(hooks);
  const declared = withTasks ? { ...capabilities, tasks: clientTasksCapability(hooks) } : capabilities;
  const subscription = serveServerRequests({ requests$, notifications$, send: (message) => sent.push(message), hooksFor: () => hooks, declared, warn: (message) => warnings.push(message), restarts$ });
  serving.push(subscription);
  let next = 0;
  const ask = (method: string, params?: Record<string, unknown>) => {
    const id = `r${next++}`;
    requests$.next({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return id;
  };
  const answerTo = (id: string) => sent.find((message) => message.id === id) as (JsonRpcResponse & { result?: Record<string, any>; error?: { code: number; message: string } }) | undefined;
  return { ask, answerTo, sent, warnings, restarts$, subscription };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('client-side tasks (2025-11-25 tasks, the client as receiver)', () => {
  it('2025-11-25 tasks, Result Retrieval: answers a task-augmented request with a CreateTaskResult at once, then tasks/result with the hook\'s answer', async () => {
    let release: (value: unknown) => void = () => undefined;
    const { ask, answerTo } = serve({ onSample: () => new Promise((resolve) => (release = resolve)) as never });
    const created = ask('sampling/createMessage', { ...question, task: { ttl: 60000 } });
    await flush();
    const task = answerTo(created)?.result?.task;
    expect(task).toMatchObject({ status: 'working', ttl: 60000 });
    expect(typeof task.taskId).toBe('string');
    const waiting = ask('tasks/result', { taskId: task.taskId });
    expect(answerTo(ask('tasks/get', { taskId: task.taskId }))?.result).toMatchObject({ taskId: task.taskId, status: 'working' });
    await flush();
    expect(answerTo(waiting)).toBeUndefined();
    release(sampled);
    await flush();
    expect(answerTo(waiting)?.result).toMatchObject({ ...sampled, _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } } });
    expect(answerTo(ask('tasks/get', { taskId: task.taskId }))?.result?.status).toBe('completed');
    expect(answerTo(ask('tasks/list'))?.result?.tasks.map((listed: { taskId: string }) => listed.taskId)).toEqual([task.taskId]);
  });

  it('2025-11-25 tasks, Task Support and Handling: a request type the client did not declare for tasks is answered normally, its task ignored', async () => {
    const { ask, answerTo } = serve({ onSample: () => sampled as never }, false);
    const id = ask('sampling/createMessage', { ...question, task: {} });
    await flush();
    expect(answerTo(id)?.result).toEqual(sampled);
  });

  it('2025-11-25 tasks, Task Cancellation: cancels a working task, and refuses to cancel one already terminal with -32602', async () => {
    const { ask, answerTo } = serve({ onSample: () => new Promise(() => undefined) as never });
    const created = ask('sampling/createMessage', { ...question, task: {} });
    await flush();
    const { taskId } = answerTo(created)?.result?.task;
    expect(answerTo(ask('tasks/cancel', { taskId }))?.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(answerTo(ask('tasks/cancel', { taskId }))?.error?.code).toBe(-32602);
    expect(answerTo(ask('tasks/result', { taskId }))?.error).toBeDefined();
  });

  it('2025-11-25 tasks, Protocol Errors: an unknown task id in tasks/get, tasks/result or tasks/cancel is -32602', () => {
    const { ask, answerTo } = serve({ onSample: () => sampled as never });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) expect(answerTo(ask(method, { taskId: 'nope' }))?.error?.code).toBe(-32602);
    expect(answerTo(ask('tasks/get', { taskId: '__proto__' }))?.error?.code).toBe(-32602);
    expect(answerTo(ask('tasks/list', { cursor: 'garbage' }))?.error?.code).toBe(-32602);
  });

  it('a task is forgotten at the end of its ttl, and its tasks/get is then -32602', async () => {
    const { ask, answerTo } = serve({ onSample: () => new Promise(() => undefined) as never });
    const created = ask('sampling/createMessage', { ...question, task: { ttl: 20 } });
    await flush();
    const { taskId } = answerTo(created)?.result?.task;
    const waiting = ask('tasks/result', { taskId });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(answerTo(waiting)?.error?.code).toBe(-32602);
    expect(answerTo(ask('tasks/get', { taskId }))?.error?.code).toBe(-32602);
  });

  describe('a hostile server', () => {
    it('polls tasks/get for 10,000 unknown ids: each is -32602, nothing is held and nothing is warned', () => {
      const { ask, answerTo, warnings } = serve({ onSample: () => sampled as never });
      const ids = Array.from({ length: 10000 }, (_, index) => ask('tasks/get', { taskId: `guess-${index}` }));
      expect(ids.every((id) => answerTo(id)?.error?.code === -32602)).toBe(true);
      expect(answerTo(ask('tasks/list'))?.result?.tasks).toEqual([]);
      expect(warnings).toEqual([]);
    });

    it(`asks 1,000 task-augmented questions at once: ${MAX_CLIENT_TASKS} become tasks, the rest are refused, and the hook is asked only for those held`, async () => {
      let asked = 0;
      const { ask, answerTo } = serve({ onSample: () => (asked++, new Promise(() => undefined)) as never });
      const ids = Array.from({ length: 1000 }, () => ask('sampling/createMessage', { ...question, task: {} }));
      await flush();
      expect(ids.filter((id) => answerTo(id)?.result?.task !== undefined)).toHaveLength(MAX_CLIENT_TASKS);
      expect(ids.filter((id) => answerTo(id)?.error !== undefined)).toHaveLength(1000 - MAX_CLIENT_TASKS);
      expect(asked).toBe(MAX_CLIENT_TASKS);
    });

    it('asks for a task of the server it replaced: after a restart the old task ids are unknown', async () => {
      const { ask, answerTo, restarts$ } = serve({ onSample: () => sampled as never });
      const created = ask('sampling/createMessage', { ...question, task: {} });
      await flush();
      const { taskId } = answerTo(created)?.result?.task;
      restarts$.next();
      expect(answerTo(ask('tasks/result', { taskId }))?.error?.code).toBe(-32602);
    });
  });
});
