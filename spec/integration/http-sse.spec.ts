import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom } from 'rxjs';
import { type AuthState, McpClient, McpHttpError, McpNetworkError, McpTimeoutError, type ProgressEvent } from 'rxmcp';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { headlessSignIn } from '../support/oauth.js';
import { eventually } from '../support/servers.js';

// The HTTP+SSE transport (protocol 2024-11-05) against a real server of the
// official SDK v1 on its SSEServerTransport (spec/fixtures/sse-server.mjs),
// reached through connectHttp with no transport option: the client finds out
// on its own that the URL serves SSE.

const CALL = { timeoutMs: 10000 };
const text = (result: { content: Array<{ text?: string }> }): string => result.content.map((block) => block.text ?? '').join('\n');
const sseUrl = (server: RunningServer): string => new URL('/sse', server.url).href;
/** The stderr lines a server wrote that start with `prefix`. */
const lines = (server: RunningServer, prefix: string): string[] => server.stderr.filter((line) => line.startsWith(prefix));

describe('an SDK v1 server on HTTP+SSE, reached with no transport option', () => {
  let server: RunningServer;
  let mcp: McpClient;
  const elicited: unknown[] = [];
  beforeAll(async () => {
    server = await startHttpServer('sse-server.mjs');
    mcp = McpClient.connectHttp({
      url: sseUrl(server),
      onElicit: ({ method, params }) => (elicited.push({ method, message: params.message }), { action: 'accept', content: { answer: 'blue' } }),
      onListRoots: () => ({ roots: [{ uri: 'file:///srv/project', name: 'project' }] }),
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'roses are red' }, model: 'fake-model' }),
    });
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it("describes the wire as 'sse' and the era as legacy", async () => {
    const description = await firstValueFrom(mcp.describe(CALL));
    expect(description).toMatchObject({ wire: 'sse', era: 'legacy', serverInfo: { name: 'rxmcp sse fixture' } });
    // Two POSTs to the URL (the era probe, then initialize) met 404; a GET
    // opened the session; initialize and notifications/initialized went to
    // its endpoint. The server's log comes through a pipe that may lag.
    await eventually(() => lines(server, 'POST /messages').length >= 2);
    expect(lines(server, 'POST /sse')).toHaveLength(2);
    expect(lines(server, 'session ')).toHaveLength(1);
  });

  it('lists the tools and calls one', async () => {
    const tools = await firstValueFrom(mcp.listTools(CALL));
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'progress', 'ask', 'slow', 'roots', 'sample']));
    expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'hello over the stream' }, CALL)))).toBe('hello over the stream');
  });

  it('reads a resource, and one made from a template', async () => {
    expect(await firstValueFrom(mcp.readResource('fixture://greeting', CALL))).toEqual({
      contents: [{ uri: 'fixture://greeting', mimeType: 'text/plain', text: 'hello over SSE' }],
    });
    const templates = await firstValueFrom(mcp.listResourceTemplates(CALL));
    expect(templates.map((template) => template.uriTemplate)).toEqual(['fixture://echo/{word}']);
    expect((await firstValueFrom(mcp.readResource('fixture://echo/bird', CALL))).contents).toEqual([{ uri: 'fixture://echo/bird', mimeType: 'text/plain', text: 'echo bird' }]);
  });

  it('gets a prompt with its argument', async () => {
    const prompt = await firstValueFrom(mcp.getPrompt('greet', { name: 'Ada' }, CALL));
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
  });

  it("delivers the server's progress reports before the answer", async () => {
    const reports: ProgressEvent[] = [];
    const watching = mcp.progress$.pipe(filter((event) => event.progressToken === 'sse-progress')).subscribe((event) => reports.push(event));
    try {
      const result = await firstValueFrom(mcp.callTool('progress', { steps: 3 }, { ...CALL, progressToken: 'sse-progress' }));
      expect(text(result)).toBe('done after 3 steps');
      expect(reports.map(({ progress, total, message }) => ({ progress, total, message }))).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    } finally {
      watching.unsubscribe();
    }
  });

  it("answers the server's elicitation through onElicit", async () => {
    expect(text(await firstValueFrom(mcp.callTool('ask', { question: 'Which colour?' }, CALL)))).toBe('accept: blue');
    expect(elicited).toEqual([{ method: 'elicitation/create', message: 'Which colour?' }]);
  });

  it("answers the server's roots and sampling requests through onListRoots and onSample", async () => {
    expect(text(await firstValueFrom(mcp.callTool('roots', {}, CALL)))).toBe('file:///srv/project');
    expect(text(await firstValueFrom(mcp.callTool('sample', { prompt: 'a poem' }, CALL)))).toBe('roses are red');
  });

  it('tells the server when the caller unsubscribes from a call, and the server cancels it', async () => {
    const from = server.stderr.length;
    const call = mcp.callTool('slow', {}, CALL).subscribe({ error: () => undefined });
    await eventually(() => server.stderr.slice(from).some((line) => line.startsWith('slow ')), 10000);
    const id = server.stderr.slice(from).find((line) => line.startsWith('slow '))!.slice('slow '.length);
    call.unsubscribe();
    await eventually(() => server.stderr.includes(`cancelled ${id}`), 10000);
    // The session lives on.
    expect(lines(server, 'closed ')).toEqual([]);
    expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'still here' }, CALL)))).toBe('still here');
  });
  it('tells the server when a call runs out of time, and the server cancels it', async () => {
    const from = server.stderr.length;
    await expect(firstValueFrom(mcp.callTool('slow', {}, { timeoutMs: 1000 }))).rejects.toBeInstanceOf(McpTimeoutError);
    await eventually(() => server.stderr.slice(from).some((line) => line.startsWith('cancelled ')), 10000);
  });

  it('ends the stream on close(), so the server forgets the session', async () => {
    const client = McpClient.connectHttp({ url: sseUrl(server) });
    const from = server.stderr.length;
    expect(text(await firstValueFrom(client.callTool('echo', { text: 'bye' }, CALL)))).toBe('bye');
    await eventually(() => server.stderr.slice(from).some((line) => line.startsWith('session ')));
    const id = server.stderr.slice(from).find((line) => line.startsWith('session '))!.slice('session '.length);
    await client.close();
    await eventually(() => server.stderr.includes(`closed ${id}`), 10000);
  });
});

describe('a long HTTP+SSE session', () => {
  let server: RunningServer | undefined;
  let mcp: McpClient | undefined;
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  // Node prints "Possible EventTarget memory leak detected" once a signal
  // holds eleven abort listeners: a session must not leave one behind per message.
  it('leaves no abort listener behind per message: no signal holds more than ten after 30 calls', async () => {
    server = await startHttpServer('sse-server.mjs');
    mcp = McpClient.connectHttp({ url: sseUrl(server) });
    const added = jest.spyOn(EventTarget.prototype, 'addEventListener');
    const removed = jest.spyOn(EventTarget.prototype, 'removeEventListener');
    const held = new Map<EventTarget, number>();
    try {
      for (let call = 0; call < 30; call++) expect(text(await firstValueFrom(mcp.callTool('echo', { text: `${call}` }, CALL)))).toBe(`${call}`);
      for (const [spy, step] of [[added, 1], [removed, -1]] as const) {
        spy.mock.calls.forEach(([type], at) => {
          const target = spy.mock.contexts[at] as EventTarget;
          if (type === 'abort') held.set(target, (held.get(target) ?? 0) + step);
        });
      }
    } finally {
      added.mockRestore();
      removed.mockRestore();
    }
    expect(Math.max(0, ...held.values())).toBeLessThanOrEqual(10);
  }, 30000);
});

describe('an HTTP+SSE server that restarts in the middle of a call', () => {
  let server: RunningServer | undefined;
  let mcp: McpClient | undefined;
  afterEach(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it("fails the call in flight with McpNetworkError, says 'restarting', and the next call reaches the new server", async () => {
    const first = await startHttpServer('sse-server.mjs');
    server = first;
    const port = new URL(first.url).port;
    const client = McpClient.connectHttp({ url: sseUrl(first) });
    mcp = client;
    const states: string[] = [];
    client.state$.subscribe((state) => states.push(state));
    expect(text(await firstValueFrom(client.callTool('echo', { text: 'before' }, CALL)))).toBe('before');

    const inFlight = firstValueFrom(client.callTool('slow', {}, { timeoutMs: 15000 }));
    inFlight.catch(() => undefined);
    await eventually(() => lines(first, 'slow ').length === 1, 10000);
    await first.stop();
    await expect(inFlight).rejects.toBeInstanceOf(McpNetworkError);
    await eventually(() => states.includes('restarting'), 10000);
    // While nothing listens, a call fails typed too.
    await expect(firstValueFrom(client.callTool('echo', { text: 'nobody' }, CALL))).rejects.toBeInstanceOf(McpNetworkError);

    const second = await startHttpServer('sse-server.mjs', '--port', port);
    server = second;
    expect(text(await firstValueFrom(client.callTool('echo', { text: 'after' }, { timeoutMs: 15000 })))).toBe('after');
    expect(lines(second, 'session ')).toHaveLength(1);
    expect(states.at(-1)).toBe('ready');
  }, 45000);
});

describe('choosing the HTTP transport', () => {
  let server: RunningServer | undefined;
  let mcp: McpClient | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    await server?.stop();
    server = undefined;
  });

  it("with httpTransport 'sse', opens the stream at once and never POSTs to the stream URL", async () => {
    server = await startHttpServer('sse-server.mjs');
    mcp = McpClient.connectHttp({ url: sseUrl(server), httpTransport: 'sse' });
    expect((await firstValueFrom(mcp.describe(CALL))).wire).toBe('sse');
    expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'pinned' }, CALL)))).toBe('pinned');
    expect(lines(server, 'POST /sse')).toEqual([]);
    expect(lines(server, 'GET /sse')).toEqual(['GET /sse']);
  });

  it("with httpTransport 'streamable-http', fails on a URL that serves only HTTP+SSE with the POST's status", async () => {
    server = await startHttpServer('sse-server.mjs');
    mcp = McpClient.connectHttp({ url: sseUrl(server), httpTransport: 'streamable-http' });
    const failure = firstValueFrom(mcp.describe(CALL));
    await expect(failure).rejects.toBeInstanceOf(McpHttpError);
    const error = (await failure.catch((caught: unknown) => caught)) as McpHttpError;
    expect([404, 405]).toContain(error.status);
    expect(lines(server, 'GET /sse')).toEqual([]);
  });

  it('picks Streamable HTTP on /mcp and HTTP+SSE on /sse of a server that serves both', async () => {
    server = await startHttpServer('sse-server.mjs', '--also-streamable');
    const modern = McpClient.connectHttp({ url: server.url });
    try {
      expect((await firstValueFrom(modern.describe(CALL))).wire).toBe('streamable-http');
      expect(text(await firstValueFrom(modern.callTool('echo', { text: 'streamable' }, CALL)))).toBe('streamable');
    } finally {
      await modern.close();
    }
    expect(lines(server, 'streamable session ')).toHaveLength(1);
    expect(lines(server, 'GET /sse')).toEqual([]);

    mcp = McpClient.connectHttp({ url: sseUrl(server) });
    expect((await firstValueFrom(mcp.describe(CALL))).wire).toBe('sse');
    expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'sse' }, CALL)))).toBe('sse');
    expect(lines(server, 'session ')).toHaveLength(1);
  });
});

describe('a URL where nothing serves MCP', () => {
  let plain: Server;
  let url: string;
  beforeAll(async () => {
    plain = createServer((_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    plain.closeAllConnections();
    await new Promise((resolve) => plain.close(resolve));
  });

  it('fails with McpHttpError naming both tries', async () => {
    const mcp = McpClient.connectHttp({ url });
    try {
      const failure = firstValueFrom(mcp.describe(CALL));
      await expect(failure).rejects.toBeInstanceOf(McpHttpError);
      const error = (await failure.catch((caught: unknown) => caught)) as McpHttpError;
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/POST \/mcp: 404; GET \/mcp: 404/);
      expect(error.message).toContain('tried Streamable HTTP and HTTP+SSE');
    } finally {
      await mcp.close();
    }
  });
});

describe('signing in to an HTTP+SSE server through the real authorization server', () => {
  const REDIRECT = 'http://127.0.0.1/callback';
  let authorizationServer: RunningServer;
  let server: RunningServer;
  let issuer: string;
  beforeAll(async () => {
    authorizationServer = await startHttpServer('oauth/authorization-server.mjs');
    issuer = new URL(authorizationServer.url).origin;
    server = await startHttpServer('sse-server.mjs', '--auth', issuer);
  }, 30000);
  afterAll(async () => {
    await Promise.all([server?.stop(), authorizationServer?.stop()]);
  });

  /** A client that signs in through `headlessSignIn`, with what it went through. */
  function connect(httpTransport?: 'sse'): { mcp: McpClient; authorized: URL[]; states: AuthState[] } {
    const authorized: URL[] = [];
    const states: AuthState[] = [];
    const mcp = McpClient.connectHttp({
      url: sseUrl(server),
      ...(httpTransport ? { httpTransport } : {}),
      auth: {
        clientMetadata: {
          client_name: 'rxmcp sse sign-in spec',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        redirectUrl: REDIRECT,
        authorize: async ({ url }) => {
          authorized.push(url);
          return headlessSignIn(url);
        },
      },
    });
    mcp.auth$.subscribe((state) => states.push(state));
    return { mcp, authorized, states };
  }

  it('answers the 401 by signing in with PKCE, then opens the stream and calls with the token', async () => {
    const from = server.stderr.length;
    const { mcp, authorized, states } = connect();
    try {
      expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'signed in' }, { timeoutMs: 20000 })))).toBe('signed in');
      expect((await firstValueFrom(mcp.describe(CALL))).wire).toBe('sse');

      expect(authorized).toHaveLength(1);
      const url = authorized[0]!;
      expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/auth`);
      expect(url.searchParams.get('resource')).toBe(sseUrl(server));
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(states.map((state) => state.state)).toEqual(['signing-in', 'signed-in']);

      const auth = server.stderr.slice(from).filter((line) => line.startsWith('auth '));
      expect(auth[0]).toMatch(/^auth 401 \w+ \/sse missing$/);
      expect(auth).toContainEqual(expect.stringMatching(/^auth ok GET \/sse sub=ada /));
      expect(auth).toContainEqual(expect.stringMatching(/^auth ok POST \/messages sub=ada /));
    } finally {
      await mcp.close();
    }
  }, 40000);

  it("with httpTransport 'sse', signs in on the 401 to the GET that opens the stream", async () => {
    const from = server.stderr.length;
    const { mcp, authorized } = connect('sse');
    try {
      expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'pinned and signed in' }, { timeoutMs: 20000 })))).toBe('pinned and signed in');
      expect(authorized).toHaveLength(1);
      const auth = server.stderr.slice(from).filter((line) => line.startsWith('auth '));
      expect(auth[0]).toBe('auth 401 GET /sse missing');
      expect(auth).toContainEqual(expect.stringMatching(/^auth ok GET \/sse sub=ada /));
      expect(server.stderr.slice(from)).not.toContain('POST /sse');
    } finally {
      await mcp.close();
    }
  }, 40000);

  it('refreshes the token when a POST to the endpoint answers 401 in the middle of a session, without asking again', async () => {
    const { mcp, authorized, states } = connect();
    try {
      expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'first' }, { timeoutMs: 20000 })))).toBe('first');
      const sessions = lines(server, 'session ').length;
      const rejecting = await fetch(new URL('/test/reject-tokens', server.url), { method: 'POST', signal: AbortSignal.timeout(5000) });
      expect(rejecting.status).toBe(204);
      const from = { rs: server.stderr.length, as: authorizationServer.stderr.length };

      expect(text(await firstValueFrom(mcp.callTool('echo', { text: 'second' }, { timeoutMs: 20000 })))).toBe('second');
      expect(authorized).toHaveLength(1);
      expect(states.map((state) => state.state).slice(-2)).toEqual(['refreshing', 'signed-in']);
      // The servers' stderr comes down their own pipes and can trail their answers.
      await eventually(() => server.stderr.slice(from.rs).some((line) => line.startsWith('auth ok ')));
      await eventually(() => authorizationServer.stderr.slice(from.as).some((line) => line.startsWith('token ')));
      const auth = server.stderr.slice(from.rs).filter((line) => line.startsWith('auth '));
      expect(auth[0]).toBe('auth 401 POST /messages rejected');
      expect(auth).toContainEqual(expect.stringMatching(/^auth ok POST \/messages sub=ada /));
      expect(authorizationServer.stderr.slice(from.as).filter((line) => line.startsWith('token '))).toEqual([
        expect.stringMatching(/^token grant_type=refresh_token .*status=200/),
      ]);
      // The stream opened with the first token carried the second answer: no new session.
      expect(lines(server, 'session ')).toHaveLength(sessions);
    } finally {
      await mcp.close();
    }
  }, 40000);
});
