// Client-side tasks (2025-11-25 tasks, the client as receiver) against
// server-everything, whose trigger-*-async tools send a task-augmented
// question, poll tasks/get and read tasks/result.
import { firstValueFrom } from 'rxjs';
import { McpClient, StdioTransport } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { everythingServer } from '../support/servers.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

describe('client-side tasks on server-everything over stdio (2025-11-25)', () => {
  const clients: McpClient[] = [];
  const connect = (options: Partial<Parameters<typeof McpClient.connectStdio>[0]>) => {
    const mcp = McpClient.connectStdio({ ...everythingServer, ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('2025-11-25 tasks, Client Capabilities: declares tasks.requests.sampling.createMessage and .elicitation.create only with tasks and the matching hook', () => {
    const onSample = () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'x' }, model: 'm' });
    const onElicit = () => ({ action: 'decline' as const });
    expect(connect({ tasks: true, onSample, onElicit }).declaredCapabilities.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
    expect(connect({ tasks: true, onSample }).declaredCapabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } });
    expect(connect({ tasks: true }).declaredCapabilities.tasks).toEqual({});
    expect(connect({ onSample, onElicit }).declaredCapabilities.tasks).toBeUndefined();
  });

  it('runs a task-augmented sampling request as a task: the server polls it and reads the hook\'s answer from tasks/result', async () => {
    const asked: unknown[] = [];
    const mcp = connect({
      tasks: true,
      onSample: (request) => (asked.push(request.params), { role: 'assistant', content: { type: 'text', text: 'sampled in the background' }, model: 'test-model' }),
    });
    const result = await firstValueFrom(mcp.callTool('trigger-sampling-request-async', { prompt: 'hello' }));
    expect(text(result)).toContain('[COMPLETED]');
    expect(text(result)).toContain('sampled in the background');
    expect(text(result)).toContain('Task created:');
    expect(asked).toHaveLength(1);
    // The hook sees the question, not the task wrapped around it.
    expect(asked[0]).not.toHaveProperty('task');
  }, 20000);

  it('runs a task-augmented elicitation as a task and the server gets the person\'s answer', async () => {
    const mcp = connect({ tasks: true, onElicit: () => ({ action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue', agreeToTerms: true } }) });
    const result = await firstValueFrom(mcp.callTool('trigger-elicitation-request-async'));
    expect(text(result)).toContain('[COMPLETED]');
    expect(text(result)).toContain('Ada');
  }, 20000);

  it('without the option tasks the server is not offered client-side tasks, and does not offer its async tools', async () => {
    const transport = new RecordingTransport(new StdioTransport(everythingServer));
    const mcp = new McpClient({ transport, onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }) });
    clients.push(mcp);
    const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
    expect(names).toContain('trigger-sampling-request');
    expect(names).not.toContain('trigger-sampling-request-async');
    expect(transport.requests('initialize')[0]?.params?.capabilities).not.toHaveProperty('tasks');
  }, 20000);
});
