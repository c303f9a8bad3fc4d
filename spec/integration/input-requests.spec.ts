import { filter, firstValueFrom, take } from 'rxjs';
import {
  type InputHooks,
  InputBroker,
  McpCancelledError,
  McpClient,
  McpInputLoopExceededError,
  type PendingQuestion,
} from '../../src/index.js';
import { everythingServer, modernServer } from '../support/servers.js';

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const sampled = { role: 'assistant', content: { type: 'text', text: 'roses are red' }, model: 'fake-model' };
const listed = { roots: [{ uri: 'file:///srv/project', name: 'project' }] };
const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

function connect(server: { command: string; args: string[] }, hooks: InputHooks & { maxInputRounds?: number } = {}): McpClient {
  return McpClient.connectStdio({ ...server, ...hooks });
}

describe('input_required from the SDK v2 fixture (modern era)', () => {
  const clients: McpClient[] = [];
  const modern = (hooks: InputHooks & { maxInputRounds?: number } = {}) => {
    const mcp = connect(modernServer, hooks);
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('answers an elicitation and gets the final result', async () => {
    const asked: string[] = [];
    const mcp = modern({ onElicit: ({ params }) => (asked.push(String(params.message)), accept({ confirm: true })) });
    expect(text(await firstValueFrom(mcp.callTool('deploy', { env: 'prod' })))).toBe('deployed to prod');
    expect(asked).toEqual(['Deploy to prod?']);
  });

  it('answers a user and a model asked in the same round', async () => {
    const mcp = modern({ onElicit: () => accept({ name: 'Ada' }), onSample: async () => sampled });
    const result = await firstValueFrom(mcp.callTool('two-questions'));
    expect(result.structuredContent).toEqual({ keys: ['poem', 'who'], responses: { who: accept({ name: 'Ada' }), poem: sampled } });
  });

  it('answers a roots listing', async () => {
    const mcp = modern({ onListRoots: () => listed });
    expect(text(await firstValueFrom(mcp.callTool('roots')))).toBe('file:///srv/project');
  });

  it('echoes a requestState-only round byte for byte', async () => {
    const state = 'opaque:{"n":1}\\u00e9 ✓ \t end';
    const result = await firstValueFrom(modern().callTool('state-only', { state }));
    expect(result.structuredContent).toEqual({ echoed: state, inputResponses: null });
  });

  it('carries a conversation over several rounds', async () => {
    const names = ['Ada', 'Grace', 'Edsger'];
    const mcp = modern({ onElicit: () => accept({ name: names.shift() }) });
    expect((await firstValueFrom(mcp.callTool('conversation'))).structuredContent).toEqual({ answers: ['Ada', 'Grace', 'Edsger'] });
  });

  it('asks nothing more once a hook ends its own call', async () => {
    const stop = new AbortController();
    let asked = 0;
    // The hook aborts the call's signal while it is being asked, before its answer.
    const mcp = modern({ onElicit: () => (asked++, stop.abort(), Promise.resolve(accept({ name: 'Ada' }))) });
    await expect(firstValueFrom(mcp.callTool('conversation', {}, { signal: stop.signal }))).rejects.toThrow(McpCancelledError);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toBe(1);
  });

  it('stops a server that keeps asking at the round budget', async () => {
    const mcp = modern({ onElicit: () => accept({ confirm: true }), maxInputRounds: 2 });
    const failure = firstValueFrom(mcp.callTool('nag'));
    await expect(failure).rejects.toBeInstanceOf(McpInputLoopExceededError);
    await expect(failure).rejects.toMatchObject({ method: 'tools/call', rounds: 2 });
  });

  it('serves input for prompts/get and resources/read too', async () => {
    const mcp = modern({ onElicit: ({ params }) => (String(params.message).startsWith('Your') ? accept({ name: 'Ada' }) : accept({ confirm: true })) });
    expect((await firstValueFrom(mcp.getPrompt('personal-greeting'))).messages[0]?.content.text).toBe('Hello, Ada!');
    expect((await firstValueFrom(mcp.readResource('fixture://guarded'))).contents[0]?.text).toBe('the secret');
  });

  it('tells the server no: a declined, a cancelled and a failed elicitation, and a declined sample', async () => {
    expect(text(await firstValueFrom(modern({ onElicit: () => ({ action: 'decline' }) }).callTool('deploy', { env: 'x' })))).toBe('not deployed: decline');
    expect(text(await firstValueFrom(modern({ onElicit: () => ({ action: 'cancel' }) }).callTool('deploy', { env: 'x' })))).toBe('not deployed: cancel');
    const warnings: string[] = [];
    const failing = McpClient.connectStdio({ ...modernServer, onElicit: () => { throw new Error('dialog crashed'); }, onWarn: (w) => warnings.push(w) });
    clients.push(failing);
    expect(text(await firstValueFrom(failing.callTool('deploy', { env: 'x' })))).toBe('not deployed: decline');
    expect(warnings).toEqual([expect.stringContaining('dialog crashed')]);
    const noSample = modern({ onElicit: () => accept({ name: 'Ada' }), onSample: () => Promise.reject(new Error('no model')) });
    expect((await firstValueFrom(noSample.callTool('two-questions'))).structuredContent).toMatchObject({ keys: ['who'] });
  });

  it('lets a reactive UI answer through an InputBroker', async () => {
    const broker = new InputBroker();
    const mcp = modern({ onElicit: broker.onElicit });
    const shown: PendingQuestion[][] = [];
    const watching = broker.pending$.subscribe((pending) => shown.push([...pending]));
    broker.questions$.pipe(take(1)).subscribe((question) => question.respond(accept({ confirm: true })));
    expect(text(await firstValueFrom(mcp.callTool('deploy', { env: 'staging' })))).toBe('deployed to staging');
    watching.unsubscribe();
    expect(shown.map((pending) => pending.map((q) => q.params.message))).toEqual([[], ['Deploy to staging?'], []]);
  });

  it('drops a broker question whose call was cancelled, and reports a late answer', async () => {
    const warnings: string[] = [];
    const broker = new InputBroker({ onWarn: (w) => warnings.push(w) });
    const mcp = modern({ onElicit: broker.onElicit });
    const asked = firstValueFrom(broker.questions$);
    const subscription = mcp.callTool('deploy', { env: 'prod' }).subscribe({ error: () => undefined });
    const question = await asked;
    expect(await firstValueFrom(broker.pending$)).toEqual([question]);
    subscription.unsubscribe();
    expect(await firstValueFrom(broker.pending$)).toEqual([]);
    question.respond(accept({ confirm: true }));
    question.decline();
    expect(warnings).toEqual([
      `question ${question.id} (elicitation/create) was not answered: it is no longer pending`,
      `question ${question.id} (elicitation/create) was not declined: it is no longer pending`,
    ]);
  });
});

describe('server requests from server-everything (legacy era)', () => {
  it('answers elicitation, sampling and roots through the same hooks', async () => {
    const requests: string[] = [];
    const mcp = connect(everythingServer, {
      onElicit: ({ method }) => (requests.push(method), accept({ name: 'Ada Lovelace', check: true })),
      onSample: ({ method }) => (requests.push(method), Promise.resolve(sampled)),
      onListRoots: ({ method }) => (requests.push(method), listed),
    });
    try {
      expect((await firstValueFrom(mcp.describe())).era).toBe('legacy');
      const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'trigger-sampling-request', 'get-roots-list']));

      expect(text(await firstValueFrom(mcp.callTool('trigger-elicitation-request')))).toContain('- Name: Ada Lovelace');
      expect(text(await firstValueFrom(mcp.callTool('trigger-sampling-request', { prompt: 'a poem', maxTokens: 20 })))).toContain('roses are red');
      expect(text(await firstValueFrom(mcp.callTool('get-roots-list')))).toContain('file:///srv/project');
      expect(requests).toEqual(expect.arrayContaining(['elicitation/create', 'sampling/createMessage', 'roots/list']));
    } finally {
      await mcp.close();
    }
  });

  it('sends the fields the hook gave as it gave them, and the server\'s defaults for those it left out (SEP-1034)', async () => {
    const mcp = connect(everythingServer, { onElicit: () => accept({ name: 'Ada Lovelace', integer: 7 }) });
    try {
      const reply = text(await firstValueFrom(mcp.callTool('trigger-elicitation-request')));
      // The server echoes what it received after "Raw result:".
      const received = JSON.parse(reply.slice(reply.indexOf('{'))) as { content: Record<string, unknown> };
      expect(received.content).toMatchObject({ name: 'Ada Lovelace', integer: 7, number: 3.14, firstLine: 'It was a dark and stormy night.' });
    } finally {
      await mcp.close();
    }
  });

  it('declines: a declined elicitation, a rejected sample, an empty root list', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({
      ...everythingServer,
      onElicit: () => ({ action: 'decline' }),
      onSample: () => { throw new Error('no model here'); },
      onListRoots: () => 'not an answer',
      onWarn: (w) => warnings.push(w),
    });
    try {
      await firstValueFrom(mcp.describe());
      expect(text(await firstValueFrom(mcp.callTool('trigger-elicitation-request')))).toContain('User declined');
      const sampling = await firstValueFrom(mcp.callTool('trigger-sampling-request', { prompt: 'x', maxTokens: 5 }));
      expect(sampling.isError).toBe(true);
      expect(text(sampling)).toContain('User rejected sampling request');
      expect(text(await firstValueFrom(mcp.callTool('get-roots-list')))).toContain('no roots are currently configured');
      expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining('no model here'), expect.stringContaining('onListRoots')]));
    } finally {
      await mcp.close();
    }
  });

  it('lets a broker answer a real legacy elicitation end to end', async () => {
    const broker = new InputBroker();
    const mcp = McpClient.connectStdio({ ...everythingServer, onElicit: broker.onElicit });
    broker.questions$
      .pipe(filter((question) => question.method === 'elicitation/create'), take(1))
      .subscribe((question) => question.respond(accept({ name: 'Grace Hopper' })));
    try {
      await firstValueFrom(mcp.describe());
      expect(text(await firstValueFrom(mcp.callTool('trigger-elicitation-request')))).toContain('- Name: Grace Hopper');
    } finally {
      await mcp.close();
    }
  });
});
