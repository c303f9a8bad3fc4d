import { firstValueFrom } from 'rxjs';
import {
  type ConnectionState,
  McpClient,
  McpClientError,
  McpServerGoneError,
  type JsonRpcNotification,
  RestartingTransport,
  StdioTransport,
} from '../../src/index.js';
import { eventually, fixture, isAlive, modernServer } from '../support/servers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('opt-in restart of a stdio server that exits unexpectedly', () => {
  it('fails the call in flight, starts a fresh process for the next call, probes again and re-opens listen', async () => {
    const stderr: string[] = [];
    const transport = new RestartingTransport({ ...modernServer, onStderr: (line) => stderr.push(line) }, { maxAttempts: 2, delayMs: 50 });
    const mcp = new McpClient({ transport, requestTimeoutMs: 10000 });
    const states: ConnectionState[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    const heard: JsonRpcNotification[] = [];
    const listenErrors: unknown[] = [];
    const listening = mcp.listen({ toolsListChanged: true }).subscribe({ next: (n) => heard.push(n), error: (e) => listenErrors.push(e) });
    try {
      expect((await firstValueFrom(mcp.describe())).era).toBe('modern');
      const first = transport.pid as number;

      const sleeping = firstValueFrom(mcp.callTool('sleep', { ms: 30000 }));
      await eventually(() => stderr.some((line) => line.startsWith('started sleep')));
      process.kill(first, 'SIGKILL');
      await expect(sleeping).rejects.toMatchObject({ name: 'McpServerGoneError', signal: 'SIGKILL' });
      expect(states).toEqual(['starting', 'ready', 'restarting']);

      // The listen stream comes back by itself and starts the fresh process.
      expect((await firstValueFrom(mcp.callTool('echo', { text: 'again' }))).content[0]).toMatchObject({ text: 'again' });
      const second = transport.pid as number;
      expect(second).not.toBe(first);
      expect(isAlive(first)).toBe(false);
      expect(states).toEqual(['starting', 'ready', 'restarting', 'ready']);

      await sleep(200); // the re-opened listen request reaches the server
      await firstValueFrom(mcp.callTool('add-tool', { name: 'after-restart' }));
      await eventually(() => heard.some((n) => n.method === 'notifications/tools/list_changed'));
      expect(listenErrors).toEqual([]);
      expect((await firstValueFrom(mcp.listTools())).map((t) => t.name)).toContain('after-restart');
    } finally {
      listening.unsubscribe();
      await mcp.close();
    }
    expect(states.at(-1)).toBe('closed');
  });

  it('a restart storm stops at maxAttempts with a typed error, and the connection is closed', async () => {
    const mcp = McpClient.connectStdio({ ...fixture('crash-server.mjs'), restart: { maxAttempts: 2, delayMs: 10 }, probeTimeoutMs: 5000 });
    const states: ConnectionState[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    try {
      await expect(firstValueFrom(mcp.describe())).rejects.toMatchObject({ name: 'McpServerGoneError', exitCode: 3 });
      await expect(firstValueFrom(mcp.describe())).rejects.toMatchObject({ name: 'McpServerGoneError', exitCode: 3 });
      const gaveUp = firstValueFrom(mcp.describe());
      await expect(gaveUp).rejects.toBeInstanceOf(McpServerGoneError);
      await expect(gaveUp).rejects.toThrow('gave up after 2 restarts');
      // Later calls fail with the same verdict.
      await expect(firstValueFrom(mcp.ping())).rejects.toThrow('gave up after 2 restarts');
      expect(states).toEqual(['starting', 'restarting', 'closed']);
    } finally {
      await mcp.close();
    }
  });

  it('an answer in between resets the count: a server that crashes now and then is restarted every time', async () => {
    const stderr: string[] = [];
    const transport = new RestartingTransport({ ...modernServer, onStderr: (line) => stderr.push(line) }, { maxAttempts: 1, delayMs: 10 });
    const mcp = new McpClient({ transport });
    try {
      for (let round = 0; round < 3; round++) {
        expect((await firstValueFrom(mcp.callTool('echo', { text: `round ${round}` }))).content[0]).toMatchObject({ text: `round ${round}` });
        process.kill(transport.pid as number, 'SIGKILL');
        await eventually(() => transport.pid === undefined);
      }
      expect((await firstValueFrom(mcp.callTool('echo', { text: 'still here' }))).content[0]).toMatchObject({ text: 'still here' });
    } finally {
      await mcp.close();
    }
  });

  it('waits longer before each restart of a server that answers the handshake and exits at once, though answers reset the count', async () => {
    const starts: number[] = [];
    const mcp = McpClient.connectStdio({
      ...fixture('answer-then-exit-server.mjs'),
      restart: { maxAttempts: 3, delayMs: 200 },
      onStderr: (line) => line === 'started' && starts.push(Date.now()),
    });
    // A listen stream is re-opened after every restart, so the client starts the server again by itself.
    const listening = mcp.listen({ resourcesListChanged: true }).subscribe({ error: () => undefined });
    try {
      await eventually(() => starts.length >= 5, 20000);
      // 200, 400, 800, then 1600 ms: without the growth every gap is 200 ms and a process start.
      expect((starts[4] as number) - (starts[3] as number)).toBeGreaterThanOrEqual(1500);
    } finally {
      listening.unsubscribe();
      await mcp.close();
    }
  }, 30000);

  it('refuses bad restart options with McpClientError', () => {
    expect(() => McpClient.connectStdio({ ...modernServer, restart: { maxAttempts: -1 } })).toThrow(McpClientError);
    expect(() => McpClient.connectStdio({ ...modernServer, restart: { maxAttempts: 2, delay: 5 } as never })).toThrow('unknown option: delay');
    expect(() => McpClient.connectStdio({ ...modernServer, restart: {} as never })).toThrow('restart needs maxAttempts');
  });

  it('without restart, state$ goes from ready to closed when the server dies', async () => {
    const transport = new StdioTransport(modernServer);
    const mcp = new McpClient({ transport });
    const states: ConnectionState[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    await firstValueFrom(mcp.describe());
    process.kill(transport.pid as number, 'SIGKILL');
    await expect(firstValueFrom(mcp.callTool('sleep', { ms: 10000 }))).rejects.toBeInstanceOf(McpServerGoneError);
    expect(states).toEqual(['starting', 'ready', 'closed']);
    await mcp.close();
  });
});
