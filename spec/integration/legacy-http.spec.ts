import { filter, firstValueFrom } from 'rxjs';
import { InputBroker, McpClient, McpHttpError, McpUnsupportedVersionError } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// The 2025-11-25 binding's own machinery (sessions, resumable streams, the GET
// stream, DELETE), against the SDK's session transport, a hand-written server
// for the faults on cue, and server-everything.

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('legacy Streamable HTTP sessions, against the SDK v2 fixture', () => {
  let server: RunningServer;
  let mcp: McpClient;
  const warnings: string[] = [];
  const sessions = () => server.stderr.filter((line) => line.startsWith('session '));
  beforeAll(async () => {
    server = await startHttpServer('legacy-http-server.mjs');
    mcp = McpClient.connectHttp({ url: server.url, onWarn: (w) => warnings.push(w) });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it('sends its session and the negotiated version on every request, and no modern routing headers', async () => {
    const headers = (await firstValueFrom(mcp.callTool('regional', { region: 'eu', query: 'q' }))).structuredContent;
    await eventually(() => sessions().length === 1);
    expect(headers).toEqual({ 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessions()[0]?.slice('session '.length) });
  });

  it('resumes a stream the server closed before answering, from its last event id', async () => {
    const before = server.stderr.length;
    expect((await firstValueFrom(mcp.callTool('hang-up'))).content[0]?.text).toBe('answered after hanging up');
    await eventually(() => server.stderr.slice(before).some((line) => /^GET \S+:\d+$/.test(line)));
  });

  it('re-opens a dropped GET stream from its last event id, and gets what it missed', async () => {
    const heard: string[] = [];
    const listening = mcp.listen({ toolsListChanged: true }).subscribe((n) => heard.push(n.method));
    await firstValueFrom(mcp.callTool('announce'));
    await eventually(() => heard.length === 1);
    await firstValueFrom(mcp.callTool('drop-stream'));
    // The server closed the stream without advice: the client waits about a second before re-opening it.
    await eventually(() => heard.length === 2, 5000);
    listening.unsubscribe();
    await eventually(() => server.stderr.some((line) => /^GET _GET_stream:\d+$/.test(line)));
  });

  it('starts a new session when the server ends one, and retries the call that found out', async () => {
    const heard: string[] = [];
    const listening = mcp.listen({ toolsListChanged: true }).subscribe((n) => heard.push(n.method));
    const before = sessions().length;
    await firstValueFrom(mcp.callTool('expire'));
    expect((await firstValueFrom(mcp.callTool('echo', { text: 'still here' }))).content[0]?.text).toBe('still here');
    await eventually(() => sessions().length === before + 1);
    expect(warnings).toContain('the server ended the session; starting a new one');
    // The new session has its own GET stream, open before the retried call went out: notifications still arrive.
    await firstValueFrom(mcp.callTool('announce'));
    await eventually(() => heard.length === 1);
    expect(heard).toEqual(['notifications/tools/list_changed']);
    listening.unsubscribe();
  });

  it('ends its session with DELETE on close', async () => {
    // close() waits for the DELETE's answer (5 s at most), so the line is there or on its way.
    const before = sessions().length;
    const client = McpClient.connectHttp({ url: server.url });
    await firstValueFrom(client.describe());
    // The server's stderr comes down its own pipe and can trail the answer: wait for the new session's line.
    await eventually(() => sessions().length === before + 1);
    const id = sessions().at(-1)?.slice('session '.length);
    await client.close();
    await eventually(() => server.stderr.includes(`deleted ${id}`), 10000);
  });
});

describe('legacy Streamable HTTP with a GET stream slow to open, against the SDK v2 fixture', () => {
  // The server drops what it sends on a GET stream that is not open yet, so
  // requests made right after connecting must wait until it is.
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('legacy-http-server.mjs', '--slow-get', '300');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('hears a notification the first call causes on the GET stream', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    const heard: string[] = [];
    const listening = mcp.listen({ toolsListChanged: true }).subscribe((n) => heard.push(n.method));
    try {
      await firstValueFrom(mcp.callTool('announce'));
      await eventually(() => heard.length === 1, 3000);
      expect(heard).toEqual(['notifications/tools/list_changed']);
    } finally {
      listening.unsubscribe();
      await mcp.close();
    }
  });

  it('answers a question the first call asks on the GET stream', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, onElicit: () => ({ action: 'accept', content: { colour: 'teal' } }) });
    try {
      const result = await firstValueFrom(mcp.callTool('ask-aside', {}, { timeoutMs: 5000 }));
      expect(result.content[0]?.text).toBe('accept: teal');
    } finally {
      await mcp.close();
    }
  });
});

describe('legacy Streamable HTTP faults, against a hand-written server', () => {
  let server: RunningServer;
  afterEach(async () => {
    await server.stop();
  });
  const posts = (method: string) => server.stderr.filter((line) => line.startsWith(`${method} `));

  it('re-opens a GET stream the server keeps dropping, after its retry advice and from its last event id', async () => {
    server = await startHttpServer('legacy-faults.mjs');
    const logged: unknown[] = [];
    const mcp = McpClient.connectHttp({ url: server.url, onLog: (m) => logged.push(m.data) });
    try {
      expect((await firstValueFrom(mcp.describe())).serverInfo?.name).toBe('legacy-faults');
      // The server's retry: 50 is raised to 500 ms, and doubles while the streams end at once.
      await eventually(() => logged.length === 3, 10000);
      expect(logged).toEqual(['event 1', 'event 2', 'event 3']);
      await eventually(() => posts('GET').length === 4, 10000);
      expect(posts('GET')).toEqual(['GET -', 'GET e1', 'GET e2', 'GET e3']);
    } finally {
      await mcp.close();
    }
  });

  it('takes no for an answer: a server without a GET stream or DELETE', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get', '--no-delete');
    const warnings: string[] = [];
    const mcp = McpClient.connectHttp({ url: server.url, onWarn: (w) => warnings.push(w) });
    expect((await firstValueFrom(mcp.callTool('whoami'))).content[0]?.text).toBe('s1');
    await eventually(() => posts('GET').length === 1);
    await settle(100);
    await mcp.close();
    await eventually(() => posts('DELETE').length === 1);
    expect(posts('GET')).toEqual(['GET -']);
    expect(posts('DELETE')).toEqual(['DELETE s1']);
    expect(warnings).toEqual([]);
  });

  it('waits a while for a GET stream the server never answers, then calls without it', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--mute-get');
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      expect((await firstValueFrom(mcp.callTool('whoami'))).content[0]?.text).toBe('s1');
      // The server logs in arrival order: the call went out after the GET, not alongside it.
      const order = server.stderr.filter((line) => line === 'GET -' || line === 'tools/call s1');
      expect(order).toEqual(['GET -', 'tools/call s1']);
    } finally {
      await mcp.close();
    }
  });

  it('replays the log level and resource subscriptions into a new session', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get');
    const mcp = McpClient.connectHttp({ url: server.url, logLevel: 'info' });
    const listening = mcp.listen({ resourceSubscriptions: ['faults://a'] }).subscribe();
    try {
      await eventually(() => posts('resources/subscribe').length === 1);
      await firstValueFrom(mcp.callTool('expire'));
      expect((await firstValueFrom(mcp.callTool('whoami'))).content[0]?.text).toBe('s2');
      await eventually(() => posts('resources/subscribe').length === 2);
      expect(posts('logging/setLevel')).toEqual(['logging/setLevel s1', 'logging/setLevel s2']);
      expect(posts('resources/subscribe')).toEqual(['resources/subscribe s1', 'resources/subscribe s2']);
    } finally {
      listening.unsubscribe();
      await mcp.close();
    }
  });

  it('skips the probe when told the era, and refuses to fall back when told it is modern', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get');
    const known = McpClient.connectHttp({ url: server.url, era: 'legacy' });
    const strict = McpClient.connectHttp({ url: server.url, era: 'modern' });
    try {
      expect((await firstValueFrom(known.describe())).era).toBe('legacy');
      // The server logs in arrival order: a probe would show before the handshake.
      await eventually(() => posts('initialize').length === 1);
      expect(posts('server/discover')).toEqual([]);
      await expect(firstValueFrom(strict.describe())).rejects.toBeInstanceOf(McpUnsupportedVersionError);
      await eventually(() => posts('server/discover').length === 1);
      expect(posts('server/discover')).toEqual(['server/discover -']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(posts('initialize')).toHaveLength(1);
    } finally {
      await known.close();
      await strict.close();
    }
  });

  it('fails with a typed error when no new session can be started, and tries again on the next call', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get');
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.callTool('expire-for-good'));
      const failure = firstValueFrom(mcp.callTool('whoami'));
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      await expect(failure).rejects.toMatchObject({ status: 500 });
      await expect(firstValueFrom(mcp.callTool('whoami'))).rejects.toMatchObject({ status: 500 });
      await eventually(() => posts('initialize').length === 3);
    } finally {
      await mcp.close();
    }
  });
});

describe('server-everything over legacy Streamable HTTP', () => {
  let server: RunningServer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await startHttpServer('everything-http.mjs');
    mcp = McpClient.connectHttp({
      url: server.url,
      onElicit: () => ({ action: 'accept', content: { name: 'Ada', color: 'teal' } }),
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'a sampled line' }, model: 'stub-model' }),
    });
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  it('answers its elicitation and sampling requests, sent on the call\'s stream, through the hooks', async () => {
    const elicited = await firstValueFrom(mcp.callTool('trigger-elicitation-request'));
    expect(elicited.content.map((c) => c.text).join('\n')).toContain('Favorite Color: teal');
    const sampled = await firstValueFrom(mcp.callTool('trigger-sampling-request', { prompt: 'say something', maxTokens: 20 }));
    expect(sampled.content[0]?.text).toContain('a sampled line');
  });

  it('reports progress of a long-running operation', async () => {
    const progress: number[] = [];
    const watching = mcp.progress$.subscribe((p) => progress.push(p.progress));
    const result = await firstValueFrom(mcp.callTool('trigger-long-running-operation', { duration: 1, steps: 3 }, { progressToken: 'everything' }));
    watching.unsubscribe();
    expect(result.content[0]?.text).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('2025-11-25 basic/utilities/cancellation: withdraws a question when the call whose stream carried it is cancelled, and answers the server cancel', async () => {
    const broker = new InputBroker();
    const asking = McpClient.connectHttp({ url: server.url, onElicit: broker.onElicit });
    try {
      const call = asking.callTool('trigger-elicitation-request').subscribe({ error: () => undefined });
      const [question] = await firstValueFrom(broker.pending$.pipe(filter((pending) => pending.length > 0)));
      expect(question?.method).toBe('elicitation/create');
      call.unsubscribe();
      // Nobody is asked any more: the question left the pending list without an answer from the person.
      expect(await firstValueFrom(broker.pending$.pipe(filter((pending) => pending.length === 0)))).toEqual([]);
      // The session goes on: the server, answered, takes the next call.
      expect((await firstValueFrom(asking.callTool('echo', { message: 'after' }))).content[0]?.text).toBe('Echo: after');
    } finally {
      await asking.close();
    }
  });
});
