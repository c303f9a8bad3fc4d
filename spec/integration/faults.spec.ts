import { firstValueFrom } from 'rxjs';
import { McpClient, McpServerGoneError, McpTimeoutError, StdioTransport } from '../../src/index.js';
import { eventually, fixture } from '../support/servers.js';

const faulty = (fault: string, warnings: string[] = []) =>
  McpClient.connectStdio({ ...fixture('faulty-server.mjs', fault), probeTimeoutMs: 2000, requestTimeoutMs: 3000, onWarn: (w) => warnings.push(w) });
const call = (mcp: McpClient, n: number, timeoutMs?: number) =>
  firstValueFrom(mcp.callTool('t', { n }, timeoutMs === undefined ? {} : { timeoutMs }));

describe('injected faults, against real child processes', () => {
  it('a server killed with SIGKILL mid-request: McpServerGoneError with the signal', async () => {
    const transport = new StdioTransport(fixture('silent-server.mjs'));
    const mcp = new McpClient({ transport, probeTimeoutMs: 10000 });
    const pending = firstValueFrom(mcp.describe());
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(transport.pid as number, 'SIGKILL');
    await expect(pending).rejects.toMatchObject({ name: 'McpServerGoneError', exitCode: null, signal: 'SIGKILL' });
    await mcp.close();
  });

  it('a server that answers twice: the second answer is dropped and reported, nothing else changes', async () => {
    const warnings: string[] = [];
    const mcp = faulty('double', warnings);
    const answers = await Promise.all([1, 2, 3].map((n) => call(mcp, n)));
    expect(answers.map((a) => a.content[0]?.text)).toEqual(['answer to 1', 'answer to 2', 'answer to 3']);
    expect(warnings.filter((w) => w.includes('not pending')).length).toBeGreaterThanOrEqual(3);
    await mcp.close();
  });

  it('a server that answers with the wrong id: that call times out, the connection stays usable', async () => {
    const warnings: string[] = [];
    const mcp = faulty('wrong-id', warnings);
    try {
      await expect(call(mcp, 1, 300)).rejects.toBeInstanceOf(McpTimeoutError);
      // The stray answer may come after the call gave up, on a loaded machine.
      await eventually(() => warnings.some((w) => /request \d+/.test(w)));
      expect(await firstValueFrom(mcp.ping())).toBe(false);
    } finally {
      await mcp.close();
    }
  });

  it('a server that closes its stdout but keeps running: calls fail at once, and close() ends it', async () => {
    const mcp = faulty('close-stdout');
    expect((await call(mcp, 1)).content[0]?.text).toBe('answer to 1');
    const failure = call(mcp, 2);
    await expect(failure).rejects.toBeInstanceOf(McpServerGoneError);
    await expect(failure).rejects.toThrow('the server closed its stdout but kept running');
    await mcp.close();
  });

  it('a server that floods notifications: every answer still arrives', async () => {
    const mcp = faulty('flood');
    let seen = 0;
    const counting = mcp.notifications$.subscribe(() => seen++);
    const answers = await Promise.all([1, 2].map((n) => call(mcp, n)));
    counting.unsubscribe();
    expect(answers.map((a) => a.content[0]?.text)).toEqual(['answer to 1', 'answer to 2']);
    expect(seen).toBe(10000);
    await mcp.close();
  });
});

